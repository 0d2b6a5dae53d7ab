// The CUDA driver from Python: devices, contexts, memory, streams, events and loaded modules.
// Kernel launches are in CudaLaunch.cpp.
#include "CudaBindings.h"
#include "ForeignArrays.h"

#include "cuda/CudaDriver.h"
#include "cuda/DeviceLibrary.h"
#include "cuda/DeviceMemorySystem.h"
#include "support/CompileError.h"

#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

using cuda::CudaDriver;
using cuda::CudaError;

PyObject *cudaSupportErrorClass = nullptr;
PyObject *cudaDriverErrorClass = nullptr;

} // namespace

void raiseCudaError(const CudaError &error) {
  PyObject *cls = error.unavailable() ? cudaSupportErrorClass : cudaDriverErrorClass;
  PyErr_SetString(cls ? cls : PyExc_RuntimeError, error.what());
  throw nb::python_error();
}

void *streamHandle(nb::handle stream) {
  if (stream.is_none())
    return nullptr;
  return reinterpret_cast<void *>(nb::cast<uintptr_t>(stream));
}

std::string bytesOrText(nb::handle value) {
  if (PyBytes_Check(value.ptr())) {
    nb::bytes bytes = nb::borrow<nb::bytes>(value);
    return std::string(bytes.c_str(), bytes.size());
  }
  return nb::cast<std::string>(value);
}

nb::object takeKernelException(void *module) {
  return driverCall([&]() -> nb::object {
    CudaDriver &driver = CudaDriver::get();
    uint64_t flag = driver.modules().getGlobal(module, "taipan_cuda_exception");
    int32_t code = 0;
    driver.memory().copyToHost(&code, flag, sizeof code);
    if (!code)
      return nb::none();
    int32_t where[6];
    driver.memory().copyToHost(
        where, driver.modules().getGlobal(module, "taipan_cuda_exception_thread"), sizeof where);
    char text[256] = {};
    driver.memory().copyToHost(
        text, driver.modules().getGlobal(module, "taipan_cuda_exception_message"), sizeof text);
    std::string message(text, strnlen(text, sizeof text));
    int32_t zero = 0;
    driver.memory().copyToDevice(flag, &zero, sizeof zero);
    return nb::make_tuple(code, nb::make_tuple(where[0], where[1], where[2]),
                          nb::make_tuple(where[3], where[4], where[5]), message);
  });
}

namespace {

/// Device memory owned by a Python object; freed when it is collected, once the work queued
/// on its stream so far is done.
struct DeviceBuffer {
  uint64_t pointer = 0;
  size_t size = 0;
  int device = 0;
  void *stream = nullptr;
  /// The Python stream object, kept alive so that the stream still exists at the free.
  nb::object streamOwner;
  /// CudaDriver::contextEpoch() at allocation: after cuda.close() the stream is gone.
  unsigned epoch = 0;
  ~DeviceBuffer() {
    if (pointer) {
      try {
        CudaDriver &driver = CudaDriver::get();
        driver.memory().freeDeferred(pointer, size, device,
                                     epoch == driver.contexts().contextEpoch() ? stream : nullptr);
      } catch (const CudaError &) {
        // The context may already be gone at exit; nothing useful can be done.
      }
    }
  }
};

struct LoadedFunction {
  void *module;
  void *function;
};

/// A Python buffer (NumPy array, bytes...) as contiguous memory.
struct HostBuffer {
  Py_buffer view{};
  explicit HostBuffer(nb::handle object, bool writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object.ptr(), &view, flags) < 0)
      throw nb::python_error();
  }
  ~HostBuffer() { PyBuffer_Release(&view); }
};

/// Page-locked, mapped or managed host memory behind a NumPy array from cuda.pinned_array and
/// friends; freed when the last array using it is collected.
struct HostAllocation {
  uint64_t pointer = 0;
  uint64_t devicePointer = 0;
  size_t size = 0;
  bool managed = false;
  ~HostAllocation() {
    if (!pointer)
      return;
    try {
      if (managed)
        CudaDriver::get().memory().free(pointer);
      else
        CudaDriver::get().memory().freePinned(reinterpret_cast<void *>(pointer));
    } catch (const CudaError &) {
      // The context may already be gone at exit; nothing useful can be done.
    }
  }
};

} // namespace

void defineCudaBindings(nb::module_ &module) {
  defineCudaLaunchBindings(module);
  // Weakly referenceable: an exported allocation's IPC record lives as long as the buffer.
  nb::class_<DeviceBuffer>(module, "DeviceBuffer", nb::is_weak_referenceable())
      .def_ro("pointer", &DeviceBuffer::pointer)
      // numba-cuda's name for a device memory's address (int(ary.gpu_data.device_pointer))
      .def_ro("device_pointer", &DeviceBuffer::pointer)
      .def_ro("size", &DeviceBuffer::size)
      .def_ro("device", &DeviceBuffer::device);

  // The device library's compiler (taipan.cuda.device_runtime.compiled_ir), called with the
  // GIL taken by whichever thread compiles a kernel; kept for the life of the process.
  module.def("cuda_set_device_library", [](nb::object compiler) {
    auto *held = new nb::object(std::move(compiler));
    cuda::setDeviceLibrarySource([held](const std::string &symbol, int computeCapability) {
      nb::gil_scoped_acquire gil;
      try {
        nb::object text = (*held)(symbol, computeCapability);
        return text.is_none() ? std::string() : nb::cast<std::string>(text);
      } catch (nb::python_error &error) {
        throw CompileError(CompileErrorKind::Internal,
                           "compiling the device library failed: " + std::string(error.what()), {});
      }
    });
  });
  module.def("cuda_set_error_classes", [](nb::handle support, nb::handle driver) {
    cudaSupportErrorClass = support.inc_ref().ptr();
    cudaDriverErrorClass = driver.inc_ref().ptr();
  });
  module.def("cuda_available", [] { return CudaDriver::get().library().available(); });
  module.def("cuda_unavailable_reason",
             [] { return CudaDriver::get().library().unavailableReason(); });
  module.def("cuda_device_count", [] { return CudaDriver::get().library().deviceCount(); });
  module.def("cuda_driver_version",
             [] { return driverCall([] { return CudaDriver::get().library().driverVersion(); }); });
  module.def("cuda_select_device", [](int ordinal) {
    driverCall([&] { CudaDriver::get().contexts().selectDevice(ordinal); });
  });
  // Context handles as integers (numba-cuda's Context.handle), and the context bound on this
  // thread, which `with cuda.gpus[n]:` restores.
  module.def("cuda_context_handle", [] {
    return driverCall(
        [] { return reinterpret_cast<uintptr_t>(CudaDriver::get().contexts().ensureContext()); });
  });
  module.def("cuda_primary_context", [](int ordinal) {
    return driverCall([&] {
      return reinterpret_cast<uintptr_t>(CudaDriver::get().contexts().contextOf(ordinal));
    });
  });
  module.def("cuda_bound_context", [] {
    return driverCall(
        [] { return reinterpret_cast<uintptr_t>(CudaDriver::get().contexts().boundContext()); });
  });
  module.def("cuda_bound_context_is_primary", [] {
    return driverCall([] { return CudaDriver::get().contexts().boundContextIsPrimary(); });
  });
  module.def("cuda_bind_context", [](uintptr_t context) {
    driverCall(
        [&] { CudaDriver::get().contexts().bindContext(reinterpret_cast<void *>(context)); });
  });
  module.def("cuda_current_device", [] {
    return driverCall([] { return CudaDriver::get().contexts().currentDevice(); });
  });
  module.def("cuda_device_name", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().contexts().deviceName(ordinal); });
  });
  module.def("cuda_set_producer_wait", [](nb::handle wait) { setProducerWait(wait.ptr()); });
  module.def("cuda_device_uuid", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().contexts().deviceUuid(ordinal); });
  });
  module.def("cuda_compute_capability", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().contexts().computeCapability(ordinal); });
  });
  module.def("cuda_device_attribute", [](int ordinal, int attribute) {
    return driverCall(
        [&] { return CudaDriver::get().contexts().deviceAttribute(ordinal, attribute); });
  });
  module.def("cuda_synchronize", [] { driverCall([] { CudaDriver::get().synchronize(); }); });
  module.def("cuda_memory_info",
             [] { return driverCall([] { return CudaDriver::get().memory().memoryInfo(); }); });
  module.def("cuda_close", [] { driverCall([] { CudaDriver::get().closeAll(); }); });
  module.def("cuda_set_profiling",
             [](bool on) { driverCall([&] { CudaDriver::get().setProfiling(on); }); });

  nb::class_<HostAllocation>(module, "HostAllocation")
      .def_ro("pointer", &HostAllocation::pointer)
      .def_ro("device_pointer", &HostAllocation::devicePointer)
      .def_ro("size", &HostAllocation::size);
  module.def("cuda_allocate_host", [](size_t bytes, const std::string &kind) {
    auto allocation = std::make_unique<HostAllocation>();
    allocation->size = bytes;
    driverCall([&] {
      cuda::CudaMemory &memory = CudaDriver::get().memory();
      if (kind == "managed") {
        allocation->managed = true;
        allocation->pointer = allocation->devicePointer = memory.allocateManaged(bytes);
      } else if (kind == "mapped") {
        allocation->pointer =
            reinterpret_cast<uint64_t>(memory.allocateMapped(bytes, &allocation->devicePointer));
      } else {
        allocation->pointer = reinterpret_cast<uint64_t>(memory.allocatePinned(bytes));
        allocation->devicePointer = allocation->pointer;
      }
    });
    return allocation;
  });
  // Returns the address kernels use when `mapped` (cuda.mapped()), else 0.
  module.def(
      "cuda_register_host",
      [](uint64_t pointer, size_t bytes, bool mapped) {
        return driverCall([&] {
          return CudaDriver::get().memory().registerHost(reinterpret_cast<void *>(pointer), bytes,
                                                         mapped);
        });
      },
      nb::arg("pointer"), nb::arg("bytes"), nb::arg("mapped") = false);
  module.def("cuda_unregister_host", [](uint64_t pointer) {
    driverCall(
        [&] { CudaDriver::get().memory().unregisterHost(reinterpret_cast<void *>(pointer)); });
  });

  // Streams and events travel to Python as integer handles; taipan.cuda.streams owns them.
  module.def("cuda_create_stream", [](bool nonBlocking) {
    return driverCall([&] {
      return reinterpret_cast<uintptr_t>(CudaDriver::get().streams().createStream(nonBlocking));
    });
  });
  module.def("cuda_destroy_stream", [](uintptr_t stream) {
    driverCall(
        [&] { CudaDriver::get().streams().destroyStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_synchronize_stream", [](uintptr_t stream) {
    driverCall(
        [&] { CudaDriver::get().streams().synchronizeStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_query_stream", [](uintptr_t stream) {
    return driverCall(
        [&] { return CudaDriver::get().streams().queryStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_create_event", [](bool timing) {
    return driverCall([&] {
      return reinterpret_cast<uintptr_t>(CudaDriver::get().streams().createEvent(timing));
    });
  });
  module.def("cuda_destroy_event", [](uintptr_t event) {
    driverCall([&] { CudaDriver::get().streams().destroyEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_record_event", [](uintptr_t event, uintptr_t stream) {
    driverCall([&] {
      CudaDriver::get().streams().recordEvent(reinterpret_cast<void *>(event),
                                              reinterpret_cast<void *>(stream));
    });
  });
  module.def("cuda_synchronize_event", [](uintptr_t event) {
    driverCall(
        [&] { CudaDriver::get().streams().synchronizeEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_query_event", [](uintptr_t event) {
    return driverCall(
        [&] { return CudaDriver::get().streams().queryEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_elapsed_milliseconds", [](uintptr_t start, uintptr_t end) {
    return driverCall([&] {
      return CudaDriver::get().streams().elapsedMilliseconds(reinterpret_cast<void *>(start),
                                                             reinterpret_cast<void *>(end));
    });
  });

  // stream: the handle of the stream the memory is used on (0 for the default streams), and
  // the object owning it.
  module.def(
      "cuda_allocate",
      [](size_t bytes, uintptr_t stream, nb::object owner) {
        auto buffer = std::make_unique<DeviceBuffer>();
        CudaDriver &driver = CudaDriver::get();
        buffer->pointer = driverCall(
            [&] { return driver.memory().allocate(bytes, reinterpret_cast<void *>(stream)); });
        buffer->size = bytes;
        buffer->device = driver.contexts().currentDevice();
        buffer->epoch = driver.contexts().contextEpoch();
        buffer->stream = reinterpret_cast<void *>(stream);
        if (stream)
          buffer->streamOwner = std::move(owner);
        return buffer;
      },
      nb::arg("bytes"), nb::arg("stream") = 0, nb::arg("owner").none() = nb::none());
  module.def("cuda_pending_frees", [] { return CudaDriver::get().memory().pendingFrees(); });
  // numba-cuda's pending deallocations of device memory (CudaMemory::setReleaseLimits()).
  module.def("cuda_pending_free_bytes",
             [] { return CudaDriver::get().memory().pendingFreeBytes(); });
  module.def("cuda_set_release_limits",
             [](size_t count, double ratio) { cuda::CudaMemory::setReleaseLimits(count, ratio); });
  module.def("cuda_defer_releases",
             [](bool defer) { CudaDriver::get().memory().deferReleases(defer); });
  module.def("cuda_release_pending",
             [] { driverCall([] { CudaDriver::get().memory().releasePending(); }); });
  // IPC (taipan.cuda.ipc): what another process needs to open the allocation holding an
  // address, a pool's file descriptor, and opening and closing there.
  module.def("cuda_ipc_export", [](uint64_t address, uint64_t allocationStart) {
    auto exported =
        driverCall([&] { return CudaDriver::get().memory().exportIpc(address, allocationStart); });
    return nb::make_tuple(
        exported.pooled, exported.base, exported.size,
        nb::bytes(reinterpret_cast<const char *>(exported.data), sizeof exported.data));
  });
  module.def("cuda_ipc_export_pool", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().memory().exportPool(ordinal); });
  });
  module.def("cuda_ipc_import_pool", [](int fd) {
    return driverCall(
        [&] { return reinterpret_cast<uintptr_t>(CudaDriver::get().memory().importPool(fd)); });
  });
  module.def("cuda_ipc_open", [](bool pooled, nb::bytes data, uintptr_t pool) {
    if (data.size() != 64)
      throw nb::value_error("an IPC handle is 64 bytes");
    unsigned char handle[64];
    std::memcpy(handle, data.c_str(), sizeof handle);
    return driverCall([&] {
      return CudaDriver::get().memory().openIpc(pooled, handle, reinterpret_cast<void *>(pool));
    });
  });
  module.def("cuda_ipc_close", [](bool pooled, uint64_t address) {
    driverCall([&] { CudaDriver::get().memory().closeIpc(pooled, address); });
  });
  module.def("cuda_pointer_device", [](uint64_t address) {
    return driverCall([&] { return CudaDriver::get().contexts().pointerDevice(address); });
  });
  // Python callables replacing the synchronous copies (CudaMemory::replaceCopies()), called
  // as the driver's functions are: cuMemcpyHtoD(device, host, bytes), cuMemcpyDtoH(host,
  // device, bytes). None for a direction leaves it to the driver.
  module.def(
      "cuda_replace_copies",
      [](nb::object toDevice, nb::object toHost) {
        static nb::object *replacements = nullptr; // kept for the process: the copies run late
        delete replacements;
        replacements = nullptr;
        if (toDevice.is_none() && toHost.is_none()) {
          cuda::CudaMemory::replaceCopies(nullptr, nullptr);
          return;
        }
        replacements = new nb::object(nb::make_tuple(toDevice, toHost));
        cuda::CudaMemory::replaceCopies(
            [](void *context, bool intoDevice, uint64_t device, void *host, size_t bytes) {
              nb::gil_scoped_acquire gil;
              nb::tuple pair = nb::borrow<nb::tuple>(*static_cast<nb::object *>(context));
              auto hostAddress = reinterpret_cast<uintptr_t>(host);
              nb::object copy = pair[intoDevice ? 0 : 1];
              if (copy.is_none())
                return false;
              if (intoDevice)
                copy(device, hostAddress, bytes);
              else
                copy(hostAddress, device, bytes);
              return true;
            },
            replacements);
      },
      nb::arg("to_device").none(), nb::arg("to_host").none());
  module.def(
      "cuda_copy_to_device",
      [](uint64_t destination, nb::handle source, nb::handle stream) {
        HostBuffer host(source, false);
        void *queue = streamHandle(stream);
        driverCall([&] {
          WithoutGilForLongCopies unlocked(host.view.len);
          CudaDriver::get().memory().copyToDevice(destination, host.view.buf,
                                                  static_cast<size_t>(host.view.len), queue);
        });
      },
      nb::arg("destination"), nb::arg("source"), nb::arg("stream").none() = nb::none());
  module.def(
      "cuda_copy_to_host",
      [](nb::handle destination, uint64_t source, nb::handle stream) {
        HostBuffer host(destination, true);
        void *queue = streamHandle(stream);
        driverCall([&] {
          WithoutGilForLongCopies unlocked(host.view.len);
          CudaDriver::get().memory().copyToHost(host.view.buf, source,
                                                static_cast<size_t>(host.view.len), queue);
        });
      },
      nb::arg("destination"), nb::arg("source"), nb::arg("stream").none() = nb::none());
  module.def("cuda_copy_device_to_device", [](uint64_t destination, uint64_t source, size_t bytes) {
    driverCall([&] { CudaDriver::get().memory().copyDeviceToDevice(destination, source, bytes); });
  });
  module.def("cuda_memset", [](uint64_t destination, int value, size_t bytes) {
    driverCall([&] {
      CudaDriver::get().memory().memset(destination, static_cast<unsigned char>(value), bytes);
    });
  });

  // The image is PTX text or, for kernels linked with foreign code, cubin bytes.
  module.def(
      "cuda_load_function",
      [](nb::handle image, const std::string &name, int maxRegisters) {
        std::string contents = bytesOrText(image);
        return driverCall([&] {
          cuda::CudaModules &modules = CudaDriver::get().modules();
          std::string log;
          void *loaded = modules.loadModule(contents, maxRegisters, &log);
          cuda::DeviceMemorySystem::get().attach(loaded, contents);
          void *function = modules.getFunction(loaded, name);
          return nb::make_tuple(reinterpret_cast<uintptr_t>(loaded),
                                reinterpret_cast<uintptr_t>(function));
        });
      },
      nb::arg("image"), nb::arg("name"), nb::arg("max_registers") = 0);
  module.def("cuda_suggested_block_size", [](nb::tuple handle, size_t shared) {
    void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
    return driverCall([&] {
      return CudaDriver::get().streams().suggestedLaunchConfiguration(function, shared).second;
    });
  });
  // How many blocks of `blockSize` threads a multiprocessor holds at once: the size of a
  // cooperative grid (numba-cuda's max_cooperative_grid_blocks).
  module.def("cuda_max_active_blocks", [](nb::tuple handle, int blockSize, size_t shared) {
    void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
    return driverCall([&] {
      return CudaDriver::get().streams().maxActiveBlocksPerMultiprocessor(function, blockSize,
                                                                          shared);
    });
  });
  // A loaded kernel's CUfunction_attribute (registers, local, shared and constant memory,
  // the most threads per block): the dispatcher's get_regs_per_thread and the like.
  module.def("cuda_function_attribute", [](nb::tuple handle, int attribute) {
    void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
    return driverCall(
        [&] { return CudaDriver::get().modules().functionAttribute(function, attribute); });
  });
  module.def("cuda_set_function_attribute", [](nb::tuple handle, int attribute, int value) {
    void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
    driverCall(
        [&] { CudaDriver::get().modules().setFunctionAttribute(function, attribute, value); });
  });
  // The device memory runtime's statistics (numba-cuda's rtsys): the switch, and the current
  // context's counters (alloc, free, mi_alloc, mi_free) once the device's work is done.
  module.def("cuda_nrt_statistics_enabled",
             [] { return cuda::DeviceMemorySystem::get().statisticsEnabled(); });
  module.def("cuda_nrt_enable_statistics", [](bool enabled) {
    driverCall([&] { cuda::DeviceMemorySystem::get().setStatisticsEnabled(enabled); });
  });
  module.def("cuda_nrt_statistics", [] {
    auto counters = driverCall([] { return cuda::DeviceMemorySystem::get().statistics(); });
    return nb::make_tuple(counters.alloc, counters.free, counters.miAlloc, counters.miFree);
  });
  module.def("cuda_take_exception", [](nb::tuple handle) {
    return takeKernelException(reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[0])));
  });
}

} // namespace taipan::bindings
