// The CUDA side of taipan._core: the driver (devices, memory, modules) and kernel launches,
// with errors raised as Python exceptions carrying the driver's reason.
#pragma once

#include "cuda/CudaDriver.h"

#include <nanobind/nanobind.h>

#include <string>

namespace taipan::bindings {

/// Raises `error` as taipan.cuda's CudaSupportError (no driver or device) or CudaDriverError
/// (the driver refused), with the driver's reason as the message.
[[noreturn]] void raiseCudaError(const cuda::CudaError &error);

/// Runs a driver call, raising a CudaError it throws as a Python exception.
template <typename Function> auto driverCall(Function &&function) {
  try {
    return function();
  } catch (const cuda::CudaError &error) {
    raiseCudaError(error);
  }
}

/// The CUDA stream handle a Python int names (None: the default stream).
void *streamHandle(nanobind::handle stream);

/// Lets other Python threads run during a copy of a megabyte or more (milliseconds for large
/// arrays); shorter copies, single elements among them, keep the GIL, which costs less than
/// releasing it. The host memory must stay held (a Py_buffer, a reference) meanwhile.
class WithoutGilForLongCopies {
public:
  explicit WithoutGilForLongCopies(Py_ssize_t bytes)
      : state(bytes >= (Py_ssize_t{1} << 20) ? PyEval_SaveThread() : nullptr) {}
  ~WithoutGilForLongCopies() {
    if (state)
      PyEval_RestoreThread(state);
  }
  WithoutGilForLongCopies(const WithoutGilForLongCopies &) = delete;
  WithoutGilForLongCopies &operator=(const WithoutGilForLongCopies &) = delete;

private:
  PyThreadState *state;
};

/// After a debug kernel of the loaded `module` finished: (exception id, tid, ctaid, message)
/// of the first raise its threads recorded, with the record reset for the next launch; None
/// when nothing was raised (cuda_take_exception).
nanobind::object takeKernelException(void *module);

/// The contents of a bytes object, or the UTF-8 of a str (PTX may come as either).
std::string bytesOrText(nanobind::handle value);

/// Registers the cuda_* functions and the DeviceBuffer class on the module.
void defineCudaBindings(nanobind::module_ &module);

/// Registers the launch path (CudaLaunch.cpp): CudaLauncher, cuda_launch and
/// cuda_set_device_array_type.
void defineCudaLaunchBindings(nanobind::module_ &module);

/// Registers cuda_link and the nvrtc_* functions (CudaLinking.cpp): foreign code for link=.
void defineCudaLinkingBindings(nanobind::module_ &module);

} // namespace taipan::bindings
