// Kernel arguments are laid out exactly as on the CPU (Type::storageSize; arrays as the array
// layout with a device data pointer) and handed to cuLaunchKernel as one pointer each.
#include "CudaBindings.h"
#include "ForeignArrays.h"

#include "Boxing.h"
#include "Module.h"
#include "TypeObjects.h"

#include "cuda/CudaDriver.h"

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
/// taipan.cuda's DeviceNDArray, whose instances carry their launch description in `_launch`.
PyTypeObject *deviceArrayType = nullptr;

} // namespace

void raiseCudaError(const CudaError &error) {
  PyObject *cls = error.unavailable() ? cudaSupportErrorClass : cudaDriverErrorClass;
  PyErr_SetString(cls ? cls : PyExc_RuntimeError, error.what());
  throw nb::python_error();
}

std::string bytesOrText(nb::handle value) {
  if (PyBytes_Check(value.ptr())) {
    nb::bytes bytes = nb::borrow<nb::bytes>(value);
    return std::string(bytes.c_str(), bytes.size());
  }
  return nb::cast<std::string>(value);
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
        driver.freeDeferred(pointer, size, device,
                            epoch == driver.contextEpoch() ? stream : nullptr);
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

/// Lets other Python threads run during a copy of a megabyte or more (milliseconds for large
/// arrays); shorter copies, single elements among them, keep the GIL, which costs less than
/// releasing it. The host buffer stays held by its Py_buffer meanwhile.
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

void *streamHandle(nb::handle stream) {
  if (stream.is_none())
    return nullptr;
  return reinterpret_cast<void *>(nb::cast<uintptr_t>(stream));
}

/// Fills one kernel argument: an array from (type, pointer, shape, strides), else a scalar.
void fillArrayArgument(char *slot, const Type *type, uint64_t data, nb::handle shape,
                       nb::handle strides) {
  int64_t itemSize = static_cast<int64_t>(type->dtype()->itemSize());
  int64_t items = 1;
  int ndim = type->ndim();
  for (int d = 0; d < ndim; ++d) {
    int64_t extent = PyLong_AsLongLong(PyTuple_GET_ITEM(shape.ptr(), d));
    int64_t stride = PyLong_AsLongLong(PyTuple_GET_ITEM(strides.ptr(), d));
    std::memcpy(slot + ArrayLayout::shapeOffset + 8 * d, &extent, 8);
    std::memcpy(slot + ArrayLayout::stridesOffset(ndim) + 8 * d, &stride, 8);
    items *= extent;
  }
  std::memcpy(slot + ArrayLayout::itemCountOffset, &items, 8);
  std::memcpy(slot + ArrayLayout::itemSizeOffset, &itemSize, 8);
  std::memcpy(slot + ArrayLayout::dataOffset, &data, 8);
}

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
        CudaDriver::get().free(pointer);
      else
        CudaDriver::get().freePinned(reinterpret_cast<void *>(pointer));
    } catch (const CudaError &) {
      // The context may already be gone at exit; nothing useful can be done.
    }
  }
};

/// A configured launch (kernel[grid, block, stream, shared]) with the argument path in C++:
/// device arrays carry a `_launch` tuple (type, pointer, shape, strides), scalars are
/// fingerprinted as on the CPU, and a known fingerprint launches without running Python.
/// Anything else (NumPy arrays, a first launch, debug kernels) goes to the Python fallback,
/// which returns (function handle, argument types) when the launch may be cached.
struct CudaLauncher {
  unsigned grid[3];
  unsigned block[3];
  unsigned shared;
  void *stream;
  nb::object fallback;
  /// A kernel handle for argument types, valid on one device until cuda.close().
  struct Entry {
    std::vector<const Type *> key;
    void *function;
    int device;
    unsigned epoch;
  };
  std::vector<Entry> entries;

  nb::object call(nb::args arguments) {
    static PyObject *launchName = PyUnicode_InternFromString("_launch");
    static PyObject *interfaceName = PyUnicode_InternFromString("__cuda_array_interface__");
    size_t count = arguments.size();
    constexpr size_t Inline = 8;
    const Type *keyStorage[Inline];
    std::vector<const Type *> keyHeap;
    const Type **key = count <= Inline ? keyStorage : (keyHeap.resize(count), keyHeap.data());
    PyObject *launches[Inline] = {};
    std::vector<PyObject *> launchHeap(count > Inline ? count : 0, nullptr);
    PyObject **launch = count <= Inline ? launches : launchHeap.data();
    bool known = true;
    for (size_t i = 0; i < count && known; ++i) {
      PyObject *value = arguments[i].ptr();
      // Only taipan's device arrays carry `_launch`: other arguments skip the failing lookup.
      PyObject *description = deviceArrayType && PyObject_TypeCheck(value, deviceArrayType)
                                  ? optionalAttribute(value, launchName)
                                  : nullptr;
      if (description) {
        launch[i] = description; // released below
        key[i] = nb::cast<TypeRef>(nb::handle(PyTuple_GET_ITEM(description, 0))).type;
        continue;
      }
      // CuPy arrays and PyTorch tensors, read directly: their interface properties cost a
      // large share of the whole launch (PyTorch's more than all of it).
      if (!PyLong_CheckExact(value) && !PyFloat_CheckExact(value)) {
        PyObject *foreign = describeCupyArray(value, stream, &key[i]);
        if (!foreign)
          foreign = describeTorchTensor(value, &key[i]);
        if (foreign) {
          launch[i] = foreign;
          continue;
        }
      }
      // Any other library's device array: its interface read here, without Python.
      if (PyObject *interface = optionalAttribute(value, interfaceName)) {
        launch[i] = describeInterface(interface, stream, &key[i]);
        Py_DECREF(interface);
        known = launch[i] != nullptr;
        continue;
      }
      PyErr_Clear();
      key[i] = typeOfValue(value);
      known = key[i] && !key[i]->isArray(); // host arrays are copied by Python
    }
    const Entry *entry = nullptr;
    CudaDriver &driver = CudaDriver::get();
    if (known && !entries.empty()) {
      int device = driver.selectedOrdinal();
      unsigned epoch = driver.contextEpoch();
      for (const Entry &candidate : entries)
        if (candidate.device == device && candidate.epoch == epoch &&
            candidate.key.size() == count &&
            std::equal(candidate.key.begin(), candidate.key.end(), key))
          entry = &candidate;
    }
    if (!entry) {
      for (size_t i = 0; i < count; ++i)
        Py_XDECREF(launch[i]);
      nb::object outcome = fallback(*arguments);
      if (known && !outcome.is_none()) {
        nb::tuple pair = nb::cast<nb::tuple>(outcome);
        void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(nb::tuple(pair[0])[1]));
        unsigned epoch = driver.contextEpoch();
        std::erase_if(entries, [&](const Entry &stale) { return stale.epoch != epoch; });
        entries.push_back({std::vector<const Type *>(key, key + count), function,
                           driver.selectedOrdinal(), epoch});
      }
      return nb::none();
    }
    alignas(16) char storage[Inline * 64];
    std::unique_ptr<char[]> heap;
    size_t needed = 0;
    for (size_t i = 0; i < count; ++i)
      needed += (std::max<size_t>(key[i]->storageSize(), 8) + 15) / 16 * 16;
    char *cursor = storage;
    if (needed > sizeof storage) {
      heap.reset(new char[needed]);
      cursor = heap.get();
    }
    void *pointerStorage[Inline];
    std::vector<void *> pointerHeap(count > Inline ? count : 0);
    void **pointers = count <= Inline ? pointerStorage : pointerHeap.data();
    bool failed = false;
    for (size_t i = 0; i < count; ++i) {
      const Type *type = key[i];
      std::memset(cursor, 0, type->storageSize());
      if (launch[i]) {
        fillArrayArgument(cursor, type, PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(launch[i], 1)),
                          PyTuple_GET_ITEM(launch[i], 2), PyTuple_GET_ITEM(launch[i], 3));
        Py_DECREF(launch[i]);
      } else if (!failed && !unboxValue(arguments[i].ptr(), type, cursor)) {
        failed = true;
      }
      pointers[i] = cursor;
      cursor += (std::max<size_t>(type->storageSize(), 8) + 15) / 16 * 16;
    }
    if (failed)
      throw nb::python_error();
    driverCall([&] {
      driver.launch(entry->function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                    shared, stream, pointers);
    });
    return nb::none();
  }
};

} // namespace

void defineCudaBindings(nb::module_ &module) {
  nb::class_<CudaLauncher>(module, "CudaLauncher")
      .def(
          "__init__",
          [](CudaLauncher *self, nb::tuple grid, nb::tuple block, unsigned shared,
             nb::handle stream, nb::object fallback) {
            new (self) CudaLauncher();
            for (int d = 0; d < 3; ++d) {
              self->grid[d] = nb::cast<unsigned>(grid[d]);
              self->block[d] = nb::cast<unsigned>(block[d]);
            }
            self->shared = shared;
            self->stream = streamHandle(stream);
            self->fallback = std::move(fallback);
          },
          nb::arg("grid"), nb::arg("block"), nb::arg("shared"), nb::arg("stream").none(),
          nb::arg("fallback"))
      .def("__call__", &CudaLauncher::call);

  nb::class_<DeviceBuffer>(module, "DeviceBuffer")
      .def_ro("pointer", &DeviceBuffer::pointer)
      .def_ro("size", &DeviceBuffer::size)
      .def_ro("device", &DeviceBuffer::device);

  module.def("cuda_set_error_classes", [](nb::handle support, nb::handle driver) {
    cudaSupportErrorClass = support.inc_ref().ptr();
    cudaDriverErrorClass = driver.inc_ref().ptr();
  });
  module.def("cuda_set_device_array_type", [](nb::handle type) {
    deviceArrayType = reinterpret_cast<PyTypeObject *>(type.inc_ref().ptr());
  });
  module.def("cuda_available", [] { return CudaDriver::get().available(); });
  module.def("cuda_unavailable_reason", [] { return CudaDriver::get().unavailableReason(); });
  module.def("cuda_device_count", [] { return CudaDriver::get().deviceCount(); });
  module.def("cuda_driver_version",
             [] { return driverCall([] { return CudaDriver::get().driverVersion(); }); });
  module.def("cuda_select_device",
             [](int ordinal) { driverCall([&] { CudaDriver::get().selectDevice(ordinal); }); });
  module.def("cuda_current_device",
             [] { return driverCall([] { return CudaDriver::get().currentDevice(); }); });
  module.def("cuda_device_name", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().deviceName(ordinal); });
  });
  module.def("cuda_compute_capability", [](int ordinal) {
    return driverCall([&] { return CudaDriver::get().computeCapability(ordinal); });
  });
  module.def("cuda_device_attribute", [](int ordinal, int attribute) {
    return driverCall([&] { return CudaDriver::get().deviceAttribute(ordinal, attribute); });
  });
  module.def("cuda_synchronize", [] { driverCall([] { CudaDriver::get().synchronize(); }); });
  module.def("cuda_memory_info",
             [] { return driverCall([] { return CudaDriver::get().memoryInfo(); }); });
  module.def("cuda_close", [] { driverCall([] { CudaDriver::get().closeAll(); }); });

  nb::class_<HostAllocation>(module, "HostAllocation")
      .def_ro("pointer", &HostAllocation::pointer)
      .def_ro("device_pointer", &HostAllocation::devicePointer)
      .def_ro("size", &HostAllocation::size);
  module.def("cuda_allocate_host", [](size_t bytes, const std::string &kind) {
    auto allocation = std::make_unique<HostAllocation>();
    allocation->size = bytes;
    driverCall([&] {
      CudaDriver &driver = CudaDriver::get();
      if (kind == "managed") {
        allocation->managed = true;
        allocation->pointer = allocation->devicePointer = driver.allocateManaged(bytes);
      } else if (kind == "mapped") {
        allocation->pointer =
            reinterpret_cast<uint64_t>(driver.allocateMapped(bytes, &allocation->devicePointer));
      } else {
        allocation->pointer = reinterpret_cast<uint64_t>(driver.allocatePinned(bytes));
        allocation->devicePointer = allocation->pointer;
      }
    });
    return allocation;
  });
  module.def("cuda_register_host", [](uint64_t pointer, size_t bytes) {
    driverCall([&] { CudaDriver::get().registerHost(reinterpret_cast<void *>(pointer), bytes); });
  });
  module.def("cuda_unregister_host", [](uint64_t pointer) {
    driverCall([&] { CudaDriver::get().unregisterHost(reinterpret_cast<void *>(pointer)); });
  });

  // Streams and events travel to Python as integer handles; taipan.cuda.streams owns them.
  module.def("cuda_create_stream", [](bool nonBlocking) {
    return driverCall(
        [&] { return reinterpret_cast<uintptr_t>(CudaDriver::get().createStream(nonBlocking)); });
  });
  module.def("cuda_destroy_stream", [](uintptr_t stream) {
    driverCall([&] { CudaDriver::get().destroyStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_synchronize_stream", [](uintptr_t stream) {
    driverCall([&] { CudaDriver::get().synchronizeStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_query_stream", [](uintptr_t stream) {
    return driverCall(
        [&] { return CudaDriver::get().queryStream(reinterpret_cast<void *>(stream)); });
  });
  module.def("cuda_create_event", [](bool timing) {
    return driverCall(
        [&] { return reinterpret_cast<uintptr_t>(CudaDriver::get().createEvent(timing)); });
  });
  module.def("cuda_destroy_event", [](uintptr_t event) {
    driverCall([&] { CudaDriver::get().destroyEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_record_event", [](uintptr_t event, uintptr_t stream) {
    driverCall([&] {
      CudaDriver::get().recordEvent(reinterpret_cast<void *>(event),
                                    reinterpret_cast<void *>(stream));
    });
  });
  module.def("cuda_synchronize_event", [](uintptr_t event) {
    driverCall([&] { CudaDriver::get().synchronizeEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_query_event", [](uintptr_t event) {
    return driverCall(
        [&] { return CudaDriver::get().queryEvent(reinterpret_cast<void *>(event)); });
  });
  module.def("cuda_elapsed_milliseconds", [](uintptr_t start, uintptr_t end) {
    return driverCall([&] {
      return CudaDriver::get().elapsedMilliseconds(reinterpret_cast<void *>(start),
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
        buffer->pointer =
            driverCall([&] { return driver.allocate(bytes, reinterpret_cast<void *>(stream)); });
        buffer->size = bytes;
        buffer->device = driver.currentDevice();
        buffer->epoch = driver.contextEpoch();
        buffer->stream = reinterpret_cast<void *>(stream);
        if (stream)
          buffer->streamOwner = std::move(owner);
        return buffer;
      },
      nb::arg("bytes"), nb::arg("stream") = 0, nb::arg("owner").none() = nb::none());
  module.def("cuda_pending_frees", [] { return CudaDriver::get().pendingFrees(); });
  module.def("cuda_pointer_device", [](uint64_t address) {
    return driverCall([&] { return CudaDriver::get().pointerDevice(address); });
  });
  module.def(
      "cuda_copy_to_device",
      [](uint64_t destination, nb::handle source, nb::handle stream) {
        HostBuffer host(source, false);
        void *queue = streamHandle(stream);
        driverCall([&] {
          WithoutGilForLongCopies unlocked(host.view.len);
          CudaDriver::get().copyToDevice(destination, host.view.buf,
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
          CudaDriver::get().copyToHost(host.view.buf, source, static_cast<size_t>(host.view.len),
                                       queue);
        });
      },
      nb::arg("destination"), nb::arg("source"), nb::arg("stream").none() = nb::none());
  module.def("cuda_copy_device_to_device", [](uint64_t destination, uint64_t source, size_t bytes) {
    driverCall([&] { CudaDriver::get().copyDeviceToDevice(destination, source, bytes); });
  });
  module.def("cuda_memset", [](uint64_t destination, int value, size_t bytes) {
    driverCall(
        [&] { CudaDriver::get().memset(destination, static_cast<unsigned char>(value), bytes); });
  });

  // The image is PTX text or, for kernels linked with foreign code, cubin bytes.
  module.def(
      "cuda_load_function",
      [](nb::handle image, const std::string &name, int maxRegisters) {
        std::string contents = bytesOrText(image);
        return driverCall([&] {
          CudaDriver &driver = CudaDriver::get();
          std::string log;
          void *loaded = driver.loadModule(contents, maxRegisters, &log);
          void *function = driver.getFunction(loaded, name);
          return nb::make_tuple(reinterpret_cast<uintptr_t>(loaded),
                                reinterpret_cast<uintptr_t>(function));
        });
      },
      nb::arg("image"), nb::arg("name"), nb::arg("max_registers") = 0);
  module.def("cuda_suggested_block_size", [](nb::tuple handle, size_t shared) {
    void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
    return driverCall(
        [&] { return CudaDriver::get().suggestedLaunchConfiguration(function, shared).second; });
  });
  module.def("cuda_take_exception", [](nb::tuple handle) -> nb::object {
    // After a debug launch: (exception id, tid, ctaid, message) of the first raise, and the
    // flag reset for the next launch; None when nothing was raised.
    void *loaded = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[0]));
    return driverCall([&]() -> nb::object {
      CudaDriver &driver = CudaDriver::get();
      uint64_t flag = driver.getGlobal(loaded, "taipan_cuda_exception");
      int32_t code = 0;
      driver.copyToHost(&code, flag, sizeof code);
      if (!code)
        return nb::none();
      int32_t where[6];
      driver.copyToHost(where, driver.getGlobal(loaded, "taipan_cuda_exception_thread"),
                        sizeof where);
      char text[256] = {};
      driver.copyToHost(text, driver.getGlobal(loaded, "taipan_cuda_exception_message"),
                        sizeof text);
      std::string message(text, strnlen(text, sizeof text));
      int32_t zero = 0;
      driver.copyToDevice(flag, &zero, sizeof zero);
      return nb::make_tuple(code, nb::make_tuple(where[0], where[1], where[2]),
                            nb::make_tuple(where[3], where[4], where[5]), message);
    });
  });

  module.def(
      "cuda_launch",
      [](nb::tuple handle, nb::tuple grid, nb::tuple block, size_t shared, nb::handle stream,
         nb::list arguments, nb::list argumentTypes, bool cooperative) {
        void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
        size_t count = arguments.size();
        std::vector<std::unique_ptr<char[]>> storage;
        std::vector<void *> pointers;
        for (size_t i = 0; i < count; ++i) {
          const Type *type = nb::cast<TypeRef>(argumentTypes[i]).type;
          storage.emplace_back(new char[std::max<size_t>(type->storageSize(), 16)]());
          char *slot = storage.back().get();
          nb::handle value = arguments[i];
          if (type->isArray()) {
            // A device array: (pointer, shape, strides, itemsize) from Python.
            nb::tuple description = nb::cast<nb::tuple>(value);
            uint64_t data = nb::cast<uint64_t>(description[0]);
            nb::tuple shape = nb::cast<nb::tuple>(description[1]);
            nb::tuple strides = nb::cast<nb::tuple>(description[2]);
            int64_t itemSize = static_cast<int64_t>(type->dtype()->itemSize());
            int64_t items = 1;
            int ndim = type->ndim();
            for (int d = 0; d < ndim; ++d) {
              int64_t extent = nb::cast<int64_t>(shape[d]);
              int64_t stride = nb::cast<int64_t>(strides[d]);
              std::memcpy(slot + ArrayLayout::shapeOffset + 8 * d, &extent, 8);
              std::memcpy(slot + ArrayLayout::stridesOffset(ndim) + 8 * d, &stride, 8);
              items *= extent;
            }
            std::memcpy(slot + ArrayLayout::itemCountOffset, &items, 8);
            std::memcpy(slot + ArrayLayout::itemSizeOffset, &itemSize, 8);
            std::memcpy(slot + ArrayLayout::dataOffset, &data, 8);
          } else if (!unboxValue(value.ptr(), type, slot)) {
            throw nb::python_error();
          }
          pointers.push_back(slot);
        }
        unsigned g[3], b[3];
        for (int d = 0; d < 3; ++d) {
          g[d] = nb::cast<unsigned>(grid[d]);
          b[d] = nb::cast<unsigned>(block[d]);
        }
        driverCall([&] {
          CudaDriver &driver = CudaDriver::get();
          if (shared > 48 * 1024)
            driver.setMaxDynamicSharedMemory(function, static_cast<int>(shared));
          if (cooperative)
            driver.launchCooperative(function, g[0], g[1], g[2], b[0], b[1], b[2],
                                     static_cast<unsigned>(shared), streamHandle(stream),
                                     pointers.data());
          else
            driver.launch(function, g[0], g[1], g[2], b[0], b[1], b[2],
                          static_cast<unsigned>(shared), streamHandle(stream), pointers.data());
        });
      },
      nb::arg("handle"), nb::arg("grid"), nb::arg("block"), nb::arg("shared"),
      nb::arg("stream").none(), nb::arg("arguments"), nb::arg("argument_types"),
      nb::arg("cooperative") = false);
}

} // namespace taipan::bindings
