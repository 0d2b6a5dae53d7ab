// CudaLinking.cpp - Foreign device code for @cuda.jit(link=[...]) in taipan._core: NVRTC for
// .cu sources, and the driver's linker joining a kernel's PTX with the files it names.

#include "CudaBindings.h"

#include "cuda/Nvrtc.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

using cuda::CudaDriver;
using cuda::LinkInput;
using cuda::Nvrtc;
using cuda::NvrtcError;

PyObject *nvrtcErrorClass = nullptr;

/// Runs an NVRTC call, raising CudaSupportError when there is no NVRTC and NvrtcError when it
/// rejected the source.
template <typename Function> auto nvrtcCall(Function &&function) {
  try {
    return function();
  } catch (const NvrtcError &error) {
    if (error.unavailable())
      raiseCudaError(cuda::CudaError(cuda::ErrorNoDriver, "", error.what(), true));
    PyErr_SetString(nvrtcErrorClass ? nvrtcErrorClass : PyExc_RuntimeError, error.what());
    throw nb::python_error();
  }
}

} // namespace

void defineCudaLinkingBindings(nb::module_ &module) {
  module.def("nvrtc_set_error_class",
             [](nb::handle cls) { nvrtcErrorClass = cls.inc_ref().ptr(); });
  module.def("nvrtc_set_library",
             [](const std::string &path) { Nvrtc::get().setLibraryPath(path); });
  module.def("nvrtc_available", [] { return Nvrtc::get().available(); });
  module.def("nvrtc_unavailable_reason", [] { return Nvrtc::get().unavailableReason(); });
  module.def("nvrtc_version", [] { return nvrtcCall([] { return Nvrtc::get().version(); }); });
  // arch_specific: for the arch-specific variant of the compute capability (sm_90a).
  module.def(
      "nvrtc_compile",
      [](const std::string &source, const std::string &name, int computeCapability,
         std::vector<std::string> includes, bool archSpecific) {
        std::string log;
        std::string cubin = nvrtcCall([&] {
          return Nvrtc::get().compile(source, name, computeCapability, includes, &log,
                                      archSpecific);
        });
        return nb::make_tuple(nb::bytes(cubin.data(), cubin.size()), log);
      },
      nb::arg("source"), nb::arg("name"), nb::arg("compute_capability"), nb::arg("includes"),
      nb::arg("arch_specific") = false);

  // inputs: (kind, name, data) with kind numbered as LinkInput::Kind and data bytes, str or
  // None (read the file `name`); max_registers (0: none) goes to the linker's JIT options.
  // Returns the linked cubin and the linker's info log.
  module.def(
      "cuda_link",
      [](nb::list inputs, int maxRegisters, unsigned target) {
        std::vector<LinkInput> linkInputs;
        for (nb::handle item : inputs) {
          nb::tuple entry = nb::borrow<nb::tuple>(item);
          LinkInput input;
          input.kind = static_cast<LinkInput::Kind>(nb::cast<int>(entry[0]));
          input.name = nb::cast<std::string>(entry[1]);
          if (!entry[2].is_none())
            input.data = bytesOrText(entry[2]);
          linkInputs.push_back(std::move(input));
        }
        std::string log;
        std::string cubin = driverCall([&] {
          return CudaDriver::get().modules().link(linkInputs, maxRegisters, &log, target);
        });
        return nb::make_tuple(nb::bytes(cubin.data(), cubin.size()), log);
      },
      nb::arg("inputs"), nb::arg("max_registers") = 0, nb::arg("target") = 0);
}

} // namespace taipan::bindings
