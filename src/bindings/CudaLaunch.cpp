// CudaLaunch.cpp - Kernel launches from Python: KernelArguments, the one place kernel arguments
// are laid out; kernel[grid, block] (CUDADispatcher's subscript in C for a kept configuration)
// and the configured launcher it gives, which copies NumPy arrays to the device and back, waits
// for producer streams and raises a debug kernel's exception; and cuda_launch, for kernels
// taipan writes.
//
// Kernel arguments are laid out exactly as on the CPU (Type::storageSize; arrays as the array
// layout with a device data pointer) and handed to cuLaunchKernel as one pointer each. A launch
// of argument types launched before runs without nanobind's call machinery (vectorcall into
// CudaLauncher::launchKnown); everything else takes CudaLauncher::call.
#include "CudaBindings.h"
#include "ForeignArrays.h"

#include "ArrayBoxing.h"
#include "Boxing.h"
#include "Module.h"
#include "RecordBoxing.h"
#include "TypeObjects.h"

#include "cuda/CudaDriver.h"
#include "runtime/Runtime.h"

#define PY_ARRAY_UNIQUE_SYMBOL taipan_ARRAY_API
#define NO_IMPORT_ARRAY
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

using cuda::CudaDriver;

/// taipan.cuda's DeviceNDArray, whose instances carry their launch description in `_launch`.
PyTypeObject *deviceArrayType = nullptr;

/// Launches of up to this many arguments use no heap memory.
constexpr size_t InlineArguments = 8;

/// The bytes one argument takes in the argument block: its storage, at least 8 bytes, rounded
/// up to 16 so that every argument is aligned for any element type.
size_t slotSize(const Type *type) {
  return (std::max<size_t>(type->storageSize(), 8) + 15) / 16 * 16;
}

/// The argument block of one launch: each argument laid out as compiled code reads it, and the
/// pointer to each that cuLaunchKernel takes.
class KernelArguments {
public:
  KernelArguments(const Type *const *types, size_t count) : types(types) {
    size_t needed = 0;
    for (size_t i = 0; i < count; ++i)
      needed += slotSize(types[i]);
    char *cursor = inlineStorage;
    if (needed > sizeof inlineStorage) {
      heapStorage.reset(new char[needed]);
      cursor = heapStorage.get();
    }
    if (count > InlineArguments)
      heapSlots.resize(count);
    slots = count > InlineArguments ? heapSlots.data() : inlineSlots;
    for (size_t i = 0; i < count; ++i) {
      std::memset(cursor, 0, types[i]->storageSize());
      slots[i] = cursor;
      cursor += slotSize(types[i]);
    }
  }
  KernelArguments(const KernelArguments &) = delete;
  KernelArguments &operator=(const KernelArguments &) = delete;

  /// Argument `i`, an array: its device data pointer, shape and byte strides (tuples of ints,
  /// as many as the array type's dimensions). False with a Python error set when one is not
  /// an int.
  bool setArray(size_t i, PyObject *data, PyObject *shape, PyObject *strides) {
    return writeArray(static_cast<char *>(slots[i]), types[i], data, shape, strides);
  }

  /// Argument `i`, a tuple holding arrays or records (at any depth), given as Python lays out
  /// such a launch: a sequence of its items, each array as (pointer, shape, strides) and each
  /// record as the device address of its bytes. False with a Python error set when an item
  /// does not convert.
  bool setTuple(size_t i, PyObject *value) {
    return layOut(static_cast<char *>(slots[i]), types[i], value);
  }

private:
  static bool writeArray(char *slot, const Type *type, PyObject *data, PyObject *shape,
                         PyObject *strides) {
    uint64_t pointer = PyLong_AsUnsignedLongLong(data);
    int64_t itemSize = static_cast<int64_t>(type->dtype()->itemSize());
    int64_t items = 1;
    int ndim = type->ndim();
    for (int d = 0; d < ndim; ++d) {
      int64_t extent = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, d));
      int64_t stride = PyLong_AsLongLong(PyTuple_GET_ITEM(strides, d));
      std::memcpy(slot + ArrayLayout::shapeOffset + 8 * d, &extent, 8);
      std::memcpy(slot + ArrayLayout::stridesOffset(ndim) + 8 * d, &stride, 8);
      items *= extent;
    }
    std::memcpy(slot + ArrayLayout::itemCountOffset, &items, 8);
    std::memcpy(slot + ArrayLayout::itemSizeOffset, &itemSize, 8);
    std::memcpy(slot + ArrayLayout::dataOffset, &pointer, 8);
    return !PyErr_Occurred();
  }

  /// `value` laid out at `at` as a value of `type`: arrays and records as setTuple describes,
  /// tuples item by item at their offsets, anything else unboxed.
  static bool layOut(char *at, const Type *type, PyObject *value) {
    if (type->isArray()) {
      if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 3) {
        PyErr_SetString(PyExc_TypeError, "an array in a kernel argument tuple must be described "
                                         "as (pointer, shape, strides)");
        return false;
      }
      int ndim = type->ndim();
      PyObject *shape = PyTuple_GET_ITEM(value, 1);
      PyObject *strides = PyTuple_GET_ITEM(value, 2);
      if (!PyTuple_Check(shape) || !PyTuple_Check(strides) || PyTuple_GET_SIZE(shape) < ndim ||
          PyTuple_GET_SIZE(strides) < ndim) {
        PyErr_SetString(PyExc_TypeError, "an array's shape and strides must be tuples of its "
                                         "dimensions");
        return false;
      }
      return writeArray(at, type, PyTuple_GET_ITEM(value, 0), shape, strides);
    }
    if (type->isRecord()) {
      uint64_t address = PyLong_AsUnsignedLongLong(value);
      std::memcpy(at, &address, sizeof address);
      return !PyErr_Occurred();
    }
    if (!type->isTuple())
      return unboxValue(value, type, at);
    nb::object items = nb::steal(PySequence_Fast(value, "a tuple kernel argument"));
    if (!items.is_valid())
      return false;
    size_t count = type->elements().size();
    if (static_cast<size_t>(PySequence_Fast_GET_SIZE(items.ptr())) != count) {
      PyErr_SetString(PyExc_TypeError, "a tuple kernel argument has the wrong length");
      return false;
    }
    for (size_t k = 0; k < count; ++k)
      if (!layOut(at + type->elementOffset(k), type->elements()[k],
                  PySequence_Fast_GET_ITEM(items.ptr(), static_cast<Py_ssize_t>(k))))
        return false;
    return true;
  }

public:
  /// Argument `i`, an array given by its device pointer, shape and byte strides (as many as
  /// the array type's dimensions).
  void setArray(size_t i, uint64_t pointer, const int64_t *shape, const int64_t *strides) {
    char *slot = static_cast<char *>(slots[i]);
    const Type *type = types[i];
    int64_t itemSize = static_cast<int64_t>(type->dtype()->itemSize());
    int64_t items = 1;
    int ndim = type->ndim();
    for (int d = 0; d < ndim; ++d) {
      std::memcpy(slot + ArrayLayout::shapeOffset + 8 * d, &shape[d], 8);
      std::memcpy(slot + ArrayLayout::stridesOffset(ndim) + 8 * d, &strides[d], 8);
      items *= shape[d];
    }
    std::memcpy(slot + ArrayLayout::itemCountOffset, &items, 8);
    std::memcpy(slot + ArrayLayout::itemSizeOffset, &itemSize, 8);
    std::memcpy(slot + ArrayLayout::dataOffset, &pointer, 8);
  }

  /// Argument `i`, a scalar (or other value) unboxed as its type. False with a Python error set
  /// when it does not convert.
  bool setValue(size_t i, PyObject *value) { return unboxValue(value, types[i], slots[i]); }

  /// Argument `i`, a record, given by the device address of its bytes.
  void setPointer(size_t i, uint64_t address) { std::memcpy(slots[i], &address, sizeof address); }

  void **pointers() { return slots; }

private:
  const Type *const *types;
  alignas(16) char inlineStorage[InlineArguments * 64];
  std::unique_ptr<char[]> heapStorage;
  void *inlineSlots[InlineArguments];
  std::vector<void *> heapSlots;
  void **slots;
};

/// Launches `function` with a laid-out argument block: cooperatively (every block resident,
/// for grid-wide synchronisation) when `cooperative`. Dynamic shared memory over the 48 KiB
/// default is opted into first when `raiseSharedLimit` (once per loaded function suffices).
void launchFunction(void *function, const unsigned grid[3], const unsigned block[3],
                    unsigned shared, void *stream, bool cooperative, bool raiseSharedLimit,
                    void **arguments) {
  driverCall([&] {
    CudaDriver &driver = CudaDriver::get();
    if (raiseSharedLimit && shared > 48 * 1024)
      driver.modules().setMaxDynamicSharedMemory(function, static_cast<int>(shared));
    if (cooperative)
      driver.streams().launchCooperative(function, grid[0], grid[1], grid[2], block[0], block[1],
                                         block[2], shared, stream, arguments);
    else
      driver.streams().launch(function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                              shared, stream, arguments);
  });
}

/// Whether a kernel argument of `type` is a tuple holding an array or a record at any depth:
/// its items are host memory (NumPy arrays, records), which the launch copies to the device and
/// back as numba-cuda does, or device arrays, none of which unboxing can lay out. The Python
/// launcher describes such a tuple item by item (KernelArguments::setTuple).
bool tupleNeedsDeviceLayout(const Type *type) {
  if (!type->isTuple())
    return false;
  for (const Type *element : type->elements())
    if (element->isArray() || element->isRecord() || tupleNeedsDeviceLayout(element))
      return true;
  return false;
}

/// The type a TypeRef object holds, read directly when the object is exactly one (a device
/// array's `_launch` holds one: nanobind's general cast was a quarter of reading the array).
const Type *typeOfReference(PyObject *object) {
  static PyObject *typeRefClass = nb::type<TypeRef>().ptr();
  if (Py_TYPE(object) == reinterpret_cast<PyTypeObject *>(typeRefClass) && nb::inst_ready(object))
    return nb::inst_ptr<TypeRef>(object)->type;
  return nb::cast<TypeRef>(nb::handle(object)).type;
}

/// Reads one launch argument without running Python: taipan's device arrays (their `_launch`
/// tuple), CuPy arrays and PyTorch tensors (their attributes) and any other
/// __cuda_array_interface__ give a new reference to (type or None, pointer, shape, strides) in
/// `description`, once the stream that produced them is waited for; scalars and NumPy arrays
/// (`hostArray` set: copied to the device for the launch) leave it null. Sets `type`; false
/// when Python must handle the value (a value of no kernel type, an interface with a mask, a
/// tuple holding arrays or records).
bool describeArgument(PyObject *value, void *stream, const Type **type, PyObject **description,
                      bool *hostArray) {
  static PyObject *launchName = PyUnicode_InternFromString("_launch");
  static PyObject *interfaceName = PyUnicode_InternFromString("__cuda_array_interface__");
  *description = nullptr;
  // Only taipan's device arrays carry `_launch`: other arguments skip the failing lookup.
  if (deviceArrayType && PyObject_TypeCheck(value, deviceArrayType)) {
    if ((*description = optionalAttribute(value, launchName))) {
      *type = typeOfReference(PyTuple_GET_ITEM(*description, 0));
      return true;
    }
  }
  // CuPy arrays and PyTorch tensors, read directly: their interface properties cost a large
  // share of the whole launch (PyTorch's more than all of it).
  if (!PyLong_CheckExact(value) && !PyFloat_CheckExact(value)) {
    *description = describeCupyArray(value, stream, type);
    if (!*description)
      *description = describeTorchTensor(value, type);
    if (*description)
      return true;
  }
  // Any other library's device array: its interface read here, without Python.
  if (PyObject *interface = optionalAttribute(value, interfaceName)) {
    nb::object owned = nb::steal(interface);
    *description = describeInterface(interface, stream, type);
    return *description != nullptr;
  }
  PyErr_Clear();
  *type = typeOfValue(value);
  if (!*type || tupleNeedsDeviceLayout(*type))
    return false;
  // A record (a NumPy void scalar) is the address of its bytes, which live in host memory:
  // copied to the device and back like a NumPy array, as numba-cuda does.
  if ((*type)->isRecord()) {
    *hostArray = true;
    return true;
  }
  if (!(*type)->isArray())
    return true;
  // A NumPy array in host memory, copied in and back out as Numba does; other values of array
  // type (no memory the device can read) are Python's to refuse.
  *hostArray = ndarrayType && PyObject_TypeCheck(value, ndarrayType);
  return *hostArray;
}

/// The NumPy arrays of one launch, copied to the device before it and back after it, as Numba
/// does: each as a contiguous copy (the array itself when it is one) in device memory of its
/// own, on the launch's stream; after the kernel (the device synchronized) each writeable one
/// gets the device's contents back, and the memory is freed, also when the launch fails.
class HostArrayCopies {
public:
  /// `allocationStream`: the stream the memory is ordered on (a stream taipan made, which the
  /// caller keeps alive, else null: the default stream), as cuda.to_device allocates it.
  HostArrayCopies(void *stream, void *allocationStream)
      : stream(stream), allocationStream(allocationStream) {}
  ~HostArrayCopies() {
    for (const Copy &copy : copies)
      try {
        CudaDriver::get().memory().freeDeferred(copy.device, copy.bytes, copy.ordinal,
                                                allocationStream);
      } catch (const cuda::CudaError &) {
        // The context may be gone already (cuda.close() from another thread): nothing to do.
      }
  }
  HostArrayCopies(const HostArrayCopies &) = delete;
  HostArrayCopies &operator=(const HostArrayCopies &) = delete;

  bool empty() const { return copies.empty(); }

  /// Copies the NumPy array `host`, of array type `type`, to new device memory and lays it
  /// out as argument `i`.
  void copyIn(PyObject *host, const Type *type, KernelArguments &arguments, size_t i) {
    // The copy keeps the layout the kernel was compiled for: Fortran order for an 'F' array
    // (its code reads no strides), C order otherwise (np.ascontiguousarray; an 'A' array's
    // code reads the copy's strides). Either is the array itself when it already is one.
    bool fortran = type->layout() == 'F';
    int order = fortran ? NPY_ARRAY_F_CONTIGUOUS : NPY_ARRAY_C_CONTIGUOUS;
    nb::object contiguous =
        nb::steal(PyArray_FromAny(host, nullptr, 0, 0, order | NPY_ARRAY_ENSUREARRAY, nullptr));
    if (!contiguous.is_valid())
      throw nb::python_error();
    auto *array = reinterpret_cast<PyArrayObject *>(contiguous.ptr());
    Copy copy{host, contiguous, 0, static_cast<size_t>(PyArray_NBYTES(array)), 0};
    CudaDriver &driver = CudaDriver::get();
    driverCall([&] {
      copy.device = driver.memory().allocate(copy.bytes, allocationStream);
      copy.ordinal = driver.contexts().currentDevice();
    });
    copies.push_back(copy);
    driverCall([&] {
      WithoutGilForLongCopies unlocked(static_cast<Py_ssize_t>(copy.bytes));
      driver.memory().copyToDevice(copy.device, PyArray_DATA(array), copy.bytes, stream);
    });
    // The device copy is contiguous in its order: its strides are that order's for its shape.
    int ndim = PyArray_NDIM(array);
    std::vector<int64_t> shape(PyArray_DIMS(array), PyArray_DIMS(array) + ndim);
    std::vector<int64_t> strides(ndim);
    int64_t step = PyArray_ITEMSIZE(array);
    for (int k = 0; k < ndim; ++k) {
      int d = fortran ? k : ndim - 1 - k;
      strides[d] = step;
      step *= shape[d];
    }
    arguments.setArray(i, copy.device, shape.data(), strides.data());
  }

  /// Copies the bytes of the record `host` (a NumPy void scalar of record type `type`) to new
  /// device memory and passes their device address as argument `i`: a record argument is the
  /// address of its bytes, and the host's address is no memory the device may touch.
  void copyInRecord(PyObject *host, const Type *type, KernelArguments &arguments, size_t i) {
    if (typeOfRecordScalar(host) != type)
      throw nb::type_error(
          ("a kernel argument of type " + type->name() + " must be a NumPy record of that dtype")
              .c_str());
    auto *scalar = reinterpret_cast<PyVoidScalarObject *>(host);
    Copy copy{host, nb::object(), 0, type->itemSize(), 0};
    CudaDriver &driver = CudaDriver::get();
    driverCall([&] {
      copy.device = driver.memory().allocate(copy.bytes, allocationStream);
      copy.ordinal = driver.contexts().currentDevice();
    });
    copies.push_back(copy);
    driverCall(
        [&] { driver.memory().copyToDevice(copy.device, scalar->obval, copy.bytes, stream); });
    arguments.setPointer(i, copy.device);
  }

  /// After the kernel finished: the device's contents back into each writeable array and
  /// record.
  void copyBack() {
    for (const Copy &copy : copies) {
      if (!copy.contiguous.is_valid()) { // a record: its bytes, unless read-only
        auto *scalar = reinterpret_cast<PyVoidScalarObject *>(copy.host);
        if (scalar->flags & NPY_ARRAY_WRITEABLE)
          driverCall([&] {
            CudaDriver::get().memory().copyToHost(scalar->obval, copy.device, copy.bytes, stream);
          });
        continue;
      }
      if (!PyArray_ISWRITEABLE(reinterpret_cast<PyArrayObject *>(copy.host)))
        continue;
      auto *array = reinterpret_cast<PyArrayObject *>(copy.contiguous.ptr());
      driverCall([&] {
        WithoutGilForLongCopies unlocked(static_cast<Py_ssize_t>(copy.bytes));
        CudaDriver::get().memory().copyToHost(PyArray_DATA(array), copy.device, copy.bytes, stream);
      });
      // host[...] = the contents, where the host array is not itself the copy.
      if (copy.contiguous.ptr() != copy.host &&
          PyObject_SetItem(copy.host, Py_Ellipsis, copy.contiguous.ptr()) < 0)
        throw nb::python_error();
    }
  }

private:
  struct Copy {
    PyObject *host;        ///< the argument, borrowed from the call
    nb::object contiguous; ///< the array copied (none for a record)
    uint64_t device;
    size_t bytes;
    int ordinal;
  };
  void *stream;
  void *allocationStream;
  std::vector<Copy> copies;
};

/// Raises the exception a debug kernel of the loaded `module` recorded, if one did, as
/// `cls("tid=[x, y, z] ctaid=[x, y, z]: message")` (the exception's own message, or one for its
/// class).
void raiseKernelException(void *module) {
  nb::object raised = takeKernelException(module);
  if (raised.is_none())
    return;
  nb::tuple record = nb::cast<nb::tuple>(raised);
  int code = nb::cast<int>(record[0]);
  std::string message = nb::cast<std::string>(record[3]);
  // A raise statement's site follows its message past a unit separator (lower/LowerRaise).
  std::string site;
  if (size_t mark = message.find('\x1f'); mark != std::string::npos) {
    site = message.substr(mark + 1);
    message.erase(mark);
  }
  if (message.empty())
    message = code == IndexErrorId       ? "index out of bounds"
              : code == AssertionErrorId ? "assertion failed"
                                         : "exception in CUDA kernel";
  auto triple = [](nb::handle item) {
    nb::tuple values = nb::cast<nb::tuple>(item);
    return "[" + std::to_string(nb::cast<int>(values[0])) + ", " +
           std::to_string(nb::cast<int>(values[1])) + ", " +
           std::to_string(nb::cast<int>(values[2])) + "]";
  };
  std::string text =
      site + "tid=" + triple(record[1]) + " ctaid=" + triple(record[2]) + ": " + message;
  PyObject *cls = exceptionClassFor(code);
  nb::object instance = nb::steal(PyObject_CallOneArg(cls, nb::str(text.c_str()).ptr()));
  if (instance.is_valid())
    PyErr_SetObject(cls, instance.ptr());
  throw nb::python_error();
}

/// Owns the descriptions describeArgument made for one launch.
class Descriptions {
public:
  explicit Descriptions(size_t count) : heap(count > InlineArguments ? count : 0, nullptr) {
    items = count > InlineArguments ? heap.data() : inlineItems;
    std::fill(items, items + std::min(count, InlineArguments), nullptr);
    this->count = count;
  }
  ~Descriptions() {
    for (size_t i = 0; i < count; ++i)
      Py_XDECREF(items[i]);
  }
  Descriptions(const Descriptions &) = delete;
  Descriptions &operator=(const Descriptions &) = delete;
  PyObject *&operator[](size_t i) { return items[i]; }

private:
  PyObject *inlineItems[InlineArguments];
  std::vector<PyObject *> heap;
  PyObject **items;
  size_t count;
};

/// A configured launch (kernel[grid, block, stream, shared]) with the whole argument path in
/// C++: arguments are described without Python (describeArgument), and a known list of
/// argument types launches its cached kernel. A new list of types asks the Python launcher's
/// `specialize(types, arguments)` for the kernel (compiled on a first use) as (function handle,
/// cooperative, module handle) and launches it here the same way. NumPy arrays are copied to
/// the device and back (HostArrayCopies), and a debug kernel's exception is raised after it
/// ran. Only values C++ cannot describe (of no kernel type, an interface with a mask) go to
/// the Python launcher's __call__, which reports them or launches through cuda_launch.
PyObject *launcherVectorcall(PyObject *self, PyObject *const *arguments, size_t flags,
                             PyObject *keywordNames);

struct CudaLauncher {
  /// Python's vectorcall entry of this instance (enableVectorcall): first, so that its offset
  /// in the Python object is the one nanobind gives the C++ object.
  vectorcallfunc vectorcall = launcherVectorcall;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared;
  void *stream;
  /// Where copies of NumPy arrays are allocated (HostArrayCopies).
  void *allocationStream;
  /// A debug kernel: the device is synchronized after the launch and its exception raised.
  bool debug;
  nb::object fallback;
  /// The Python launcher's pre_launch_callbacks (a list): a launch with callbacks goes to it,
  /// which runs them first.
  nb::object preLaunchCallbacks;
  /// A kernel handle for argument types, valid on one device until cuda.close().
  struct Entry {
    std::vector<const Type *> key;
    void *function;
    void *module;
    bool cooperative;
    int device;
    unsigned epoch;
  };
  std::vector<Entry> entries;

  /// The kernel launched before for argument types `key` on the selected device in its current
  /// context, or null.
  const Entry *find(const Type *const *key, size_t count) const {
    if (entries.empty())
      return nullptr;
    cuda::CudaContexts &contexts = CudaDriver::get().contexts();
    int device = contexts.selectedOrdinal();
    unsigned epoch = contexts.contextEpoch();
    const Entry *found = nullptr;
    for (const Entry &candidate : entries)
      if (candidate.device == device && candidate.epoch == epoch && candidate.key.size() == count &&
          std::equal(candidate.key.begin(), candidate.key.end(), key))
        found = &candidate;
    return found;
  }

  /// The common launch, which the type's call slot runs before any other (launcherCall): up to
  /// InlineArguments positional arguments, each described without Python and none in host
  /// memory, of types launched before on this device, no pre-launch callbacks, not a debug
  /// kernel. True once launched. False with no error set when call() must launch instead (it
  /// reads the arguments again); false with an error set when an argument does not convert.
  bool launchKnown(PyObject *const *arguments, size_t count) {
    if (debug || entries.empty() || count > InlineArguments ||
        PyList_GET_SIZE(preLaunchCallbacks.ptr()) != 0)
      return false;
    const Type *key[InlineArguments];
    Descriptions descriptions(count);
    for (size_t i = 0; i < count; ++i) {
      bool hostArray = false;
      if (!describeArgument(arguments[i], stream, &key[i], &descriptions[i], &hostArray) ||
          hostArray) {
        PyErr_Clear(); // call() describes the value again and handles it as it always did
        return false;
      }
    }
    const Entry *entry = find(key, count);
    if (!entry)
      return false;
    KernelArguments argumentBlock(key, count);
    for (size_t i = 0; i < count; ++i) {
      PyObject *description = descriptions[i];
      bool filled = description ? argumentBlock.setArray(i, PyTuple_GET_ITEM(description, 1),
                                                         PyTuple_GET_ITEM(description, 2),
                                                         PyTuple_GET_ITEM(description, 3))
                                : argumentBlock.setValue(i, arguments[i]);
      if (!filled)
        return false;
    }
    launchFunction(entry->function, grid, block, shared, stream, entry->cooperative,
                   /*raiseSharedLimit=*/false, argumentBlock.pointers());
    return true;
  }

  /// Every launch: the common one is launchKnown's, and this path handles the rest.
  nb::object call(nb::args arguments) {
    if (PyList_GET_SIZE(preLaunchCallbacks.ptr()) != 0) {
      fallback(*arguments);
      return nb::none();
    }
    size_t count = arguments.size();
    const Type *keyStorage[InlineArguments];
    std::vector<const Type *> keyHeap;
    const Type **key =
        count <= InlineArguments ? keyStorage : (keyHeap.resize(count), keyHeap.data());
    Descriptions descriptions(count);
    bool known = true;
    bool hostArrays = false;
    for (size_t i = 0; i < count && known; ++i) {
      bool hostArray = false;
      known = describeArgument(arguments[i].ptr(), stream, &key[i], &descriptions[i], &hostArray);
      hostArrays |= hostArray;
    }
    if (!known) {
      fallback(*arguments);
      return nb::none();
    }
    cuda::CudaContexts &contexts = CudaDriver::get().contexts();
    const Entry *entry = find(key, count);
    void *function;
    void *module;
    bool cooperative;
    bool firstLaunch = !entry;
    if (entry) {
      function = entry->function;
      module = entry->module;
      cooperative = entry->cooperative;
    } else {
      nb::list types;
      for (size_t i = 0; i < count; ++i)
        types.append(nb::cast(TypeRef{key[i]}));
      // The arguments too: numba-cuda's launch configuration, current while the kernel
      // compiles, names them.
      nb::tuple specialized = nb::cast<nb::tuple>(fallback.attr("specialize")(types, arguments));
      function = reinterpret_cast<void *>(nb::cast<uintptr_t>(specialized[0]));
      cooperative = nb::cast<bool>(specialized[1]);
      module = reinterpret_cast<void *>(nb::cast<uintptr_t>(specialized[2]));
      unsigned epoch = contexts.contextEpoch();
      std::erase_if(entries, [&](const Entry &stale) { return stale.epoch != epoch; });
      entries.push_back({std::vector<const Type *>(key, key + count), function, module, cooperative,
                         contexts.selectedOrdinal(), epoch});
    }
    // numba-cuda's CUDA_WARN_ON_IMPLICIT_COPY: the Python launcher warns (when it is set).
    if (hostArrays)
      fallback.attr("copying_host_arrays")();
    KernelArguments argumentBlock(key, count);
    HostArrayCopies copies(stream, allocationStream);
    for (size_t i = 0; i < count; ++i) {
      PyObject *value = arguments[i].ptr();
      PyObject *description = descriptions[i];
      bool filled = true;
      if (description)
        filled = argumentBlock.setArray(i, PyTuple_GET_ITEM(description, 1),
                                        PyTuple_GET_ITEM(description, 2),
                                        PyTuple_GET_ITEM(description, 3));
      else if (hostArrays && key[i]->isArray())
        copies.copyIn(value, key[i], argumentBlock, i);
      else if (hostArrays && key[i]->isRecord())
        copies.copyInRecord(value, key[i], argumentBlock, i);
      else
        filled = argumentBlock.setValue(i, value);
      if (!filled)
        throw nb::python_error();
    }
    launchFunction(function, grid, block, shared, stream, cooperative, firstLaunch,
                   argumentBlock.pointers());
    if (!copies.empty() || debug)
      driverCall([] { CudaDriver::get().synchronize(); });
    copies.copyBack();
    if (debug)
      raiseKernelException(module);
    return nb::none();
  }
};

/// A launch through CudaLauncher's call slot or its vectorcall: launchKnown's common launch
/// without nanobind's argument handling (which took about a quarter of a launch's host time),
/// else the general path, bound as `_general_launch`. Null with an error set on failure; None
/// with `*general` false when launched.
PyObject *launchOrDefer(PyObject *self, PyObject *const *arguments, size_t count, bool keywords,
                        bool *general) {
  *general = true;
  if (keywords || !nb::inst_ready(self))
    return nullptr;
  try {
    if (nb::inst_ptr<CudaLauncher>(self)->launchKnown(arguments, count)) {
      *general = false;
      Py_RETURN_NONE;
    }
  } catch (nb::python_error &error) {
    error.restore();
  } catch (const std::exception &error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
  }
  *general = !PyErr_Occurred();
  return nullptr;
}

PyObject *launcherCall(PyObject *self, PyObject *arguments, PyObject *keywords) {
  bool general;
  PyObject *result = launchOrDefer(self, reinterpret_cast<PyTupleObject *>(arguments)->ob_item,
                                   static_cast<size_t>(PyTuple_GET_SIZE(arguments)),
                                   keywords && PyDict_GET_SIZE(keywords) != 0, &general);
  if (!general)
    return result;
  nb::object method = nb::steal(PyObject_GetAttrString(self, "_general_launch"));
  return method.is_valid() ? PyObject_Call(method.ptr(), arguments, keywords) : nullptr;
}

/// The same without the argument tuple a call slot needs: a tuple per launch also brought the
/// garbage collector round every 700 launches, together about a third of a launch's host time.
PyObject *launcherVectorcall(PyObject *self, PyObject *const *arguments, size_t flags,
                             PyObject *keywordNames) {
  size_t count = static_cast<size_t>(PyVectorcall_NARGS(flags));
  bool general;
  PyObject *result = launchOrDefer(self, arguments, count,
                                   keywordNames && PyTuple_GET_SIZE(keywordNames) != 0, &general);
  if (!general)
    return result;
  nb::object method = nb::steal(PyObject_GetAttrString(self, "_general_launch"));
  return method.is_valid() ? PyObject_Vectorcall(method.ptr(), arguments, count, keywordNames)
                           : nullptr;
}

/// The offset of CudaLauncher's `vectorcall` in the Python objects holding one, once known.
Py_ssize_t launcherVectorcallOffset = 0;

/// Lets Python call `object` (a new CudaLauncher holding `launcher`) through launcherVectorcall:
/// the type's vectorcall offset is where nanobind placed the C++ object in the first instance,
/// and any instance where it is elsewhere turns vectorcall off for the type (every call then
/// goes through the call slot, which works at any offset).
void enableVectorcall(PyObject *object, CudaLauncher *launcher) {
  auto offset = static_cast<Py_ssize_t>(reinterpret_cast<char *>(&launcher->vectorcall) -
                                        reinterpret_cast<char *>(object));
  PyTypeObject *type = Py_TYPE(object);
  if (launcherVectorcallOffset == 0) {
    launcherVectorcallOffset = offset;
    type->tp_vectorcall_offset = offset;
    type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(type);
  } else if (offset != launcherVectorcallOffset && launcherVectorcallOffset > 0) {
    launcherVectorcallOffset = -1;
    type->tp_flags &= ~Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(type);
  }
}

PyType_Slot launcherSlots[] = {{Py_tp_call, reinterpret_cast<void *>(launcherCall)}, {0, nullptr}};

/// CUDADispatcher's own __getitem__ (Python), which configuredKernel leaves all but the common
/// case to.
PyObject *pythonSubscript = nullptr;

/// CUDADispatcher's subscript, kernel[griddim, blockdim, ...]: a configuration kept in the
/// instance's `_launchers` while its `extensions` list is empty, found without running Python
/// (the Python method's frame was a third of a launch's host time); anything else is the
/// Python __getitem__'s.
PyObject *configuredKernel(PyObject *self, PyObject *configuration) {
  static PyObject *launchersName = PyUnicode_InternFromString("_launchers");
  static PyObject *extensionsName = PyUnicode_InternFromString("extensions");
  // From the instance's dict: two attribute reads cost three times as much.
  nb::object attributes = nb::steal(PyObject_GenericGetDict(self, nullptr));
  PyObject *found = nullptr;
  if (attributes.is_valid()) {
    PyObject *extensions = PyDict_GetItemWithError(attributes.ptr(), extensionsName);
    PyObject *launchers = PyDict_GetItemWithError(attributes.ptr(), launchersName);
    if (extensions && PyList_CheckExact(extensions) && PyList_GET_SIZE(extensions) == 0 &&
        launchers && PyDict_CheckExact(launchers))
      found = PyDict_GetItemWithError(launchers, configuration); // unhashable: an error
  }
  if (found)
    return Py_NewRef(found);
  PyErr_Clear(); // the Python method meets the same case and says what it has to
  return PyObject_CallFunctionObjArgs(pythonSubscript, self, configuration, nullptr);
}

/// configuredKernel as the class's __getitem__ too: with a Python function there, Python 3.11+
/// calls that function directly from a loop's `kernel[...]`, never the type's slot.
PyMethodDef configuredKernelMethod = {
    "__getitem__", configuredKernel, METH_O,
    "kernel[griddim, blockdim, stream, sharedmem]: the kernel's launcher of that configuration"};

/// `value` as a tuple with at least `length` items (a description's shape or strides).
nb::object checkedTuple(nb::handle value, int length, const char *what) {
  nb::object tuple = nb::steal(PyTuple_Check(value.ptr()) ? nb::handle(value).inc_ref().ptr()
                                                          : PySequence_Tuple(value.ptr()));
  if (!tuple.is_valid())
    throw nb::python_error();
  if (PyTuple_GET_SIZE(tuple.ptr()) < length)
    throw nb::value_error(
        (std::string("a kernel array argument's ") + what + " has too few dimensions").c_str());
  return tuple;
}

} // namespace

void defineCudaLaunchBindings(nb::module_ &module) {
  nb::class_<CudaLauncher>(module, "CudaLauncher", nb::type_slots(launcherSlots))
      .def(
          "__init__",
          [](CudaLauncher *self, nb::tuple grid, nb::tuple block, unsigned shared,
             nb::handle stream, nb::object fallback, bool debug, uintptr_t allocationStream) {
            new (self) CudaLauncher();
            for (int d = 0; d < 3; ++d) {
              self->grid[d] = nb::cast<unsigned>(grid[d]);
              self->block[d] = nb::cast<unsigned>(block[d]);
            }
            self->shared = shared;
            self->stream = streamHandle(stream);
            self->allocationStream = reinterpret_cast<void *>(allocationStream);
            self->debug = debug;
            self->fallback = std::move(fallback);
            self->preLaunchCallbacks = self->fallback.attr("pre_launch_callbacks");
            if (!PyList_Check(self->preLaunchCallbacks.ptr()))
              throw nb::type_error("pre_launch_callbacks must be a list");
            if (nb::handle object = nb::find(self); object.is_valid())
              enableVectorcall(object.ptr(), self);
          },
          nb::arg("grid"), nb::arg("block"), nb::arg("shared"), nb::arg("stream").none(),
          nb::arg("fallback"), nb::arg("debug") = false, nb::arg("allocation_stream") = 0)
      // Calls go through the type's slot (launcherCall), which runs this for all but the
      // common launch.
      .def("_general_launch", &CudaLauncher::call)
      // Pickled as the Python launcher pickles: the kernel and its configuration.
      .def("__reduce__", [](CudaLauncher &self) { return self.fallback.attr("__reduce__")(); })
      // numba-cuda's configured launch: griddim, blockdim, stream, sharedmem and the current
      // launch's args are the Python launcher's.
      .def("__getattr__",
           [](CudaLauncher &self, nb::str name) { return self.fallback.attr(name); });

  // CUDADispatcher's kernel[configuration] as configuredKernel, once the class exists.
  module.def("cuda_enable_configured_kernels", [](nb::handle dispatcherClass) {
    auto *type = reinterpret_cast<PyTypeObject *>(dispatcherClass.ptr());
    PyObject *method = PyDict_GetItemString(type->tp_dict, "__getitem__");
    if (!method || !type->tp_as_mapping)
      throw nb::type_error("cuda_enable_configured_kernels needs a class defining __getitem__");
    if (!PyFunction_Check(method))
      return; // enabled already
    nb::object descriptor = nb::steal(PyDescr_NewMethod(type, &configuredKernelMethod));
    if (!descriptor.is_valid())
      throw nb::python_error();
    Py_INCREF(method);
    Py_XDECREF(pythonSubscript);
    pythonSubscript = method;
    // Into the class's dict directly: setting the attribute would make Python recompute the
    // slot as a call of the attribute.
    if (PyDict_SetItemString(type->tp_dict, "__getitem__", descriptor.ptr()) < 0)
      throw nb::python_error();
    type->tp_as_mapping->mp_subscript = configuredKernel;
    PyType_Modified(type);
  });

  module.def("cuda_set_device_array_type", [](nb::handle type) {
    deviceArrayType = reinterpret_cast<PyTypeObject *>(type.inc_ref().ptr());
  });

  // What Python launches (kernels taipan writes, and the launcher's rare fallback): arrays
  // come described as (pointer, shape, strides), records as device addresses, tuples holding
  // either as sequences of their items so described, scalars as they are.
  module.def(
      "cuda_launch",
      [](nb::tuple handle, nb::tuple grid, nb::tuple block, size_t shared, nb::handle stream,
         nb::list arguments, nb::list argumentTypes, bool cooperative) {
        void *function = reinterpret_cast<void *>(nb::cast<uintptr_t>(handle[1]));
        size_t count = arguments.size();
        std::vector<const Type *> types(count);
        for (size_t i = 0; i < count; ++i)
          types[i] = nb::cast<TypeRef>(argumentTypes[i]).type;
        KernelArguments argumentBlock(types.data(), count);
        for (size_t i = 0; i < count; ++i) {
          nb::handle value = arguments[i];
          bool filled;
          if (types[i]->isArray()) {
            nb::tuple description = nb::cast<nb::tuple>(value);
            int ndim = types[i]->ndim();
            nb::object shape = checkedTuple(description[1], ndim, "shape");
            nb::object strides = checkedTuple(description[2], ndim, "strides");
            nb::int_ data(description[0]);
            filled = argumentBlock.setArray(i, data.ptr(), shape.ptr(), strides.ptr());
          } else if (types[i]->isRecord()) {
            // A record comes as the device address of its bytes (the launcher copied them).
            argumentBlock.setPointer(i, nb::cast<uint64_t>(value));
            filled = true;
          } else if (tupleNeedsDeviceLayout(types[i])) {
            filled = argumentBlock.setTuple(i, value.ptr());
          } else {
            filled = argumentBlock.setValue(i, value.ptr());
          }
          if (!filled)
            throw nb::python_error();
        }
        unsigned dimensions[2][3];
        for (int d = 0; d < 3; ++d) {
          dimensions[0][d] = nb::cast<unsigned>(grid[d]);
          dimensions[1][d] = nb::cast<unsigned>(block[d]);
        }
        launchFunction(function, dimensions[0], dimensions[1], static_cast<unsigned>(shared),
                       streamHandle(stream), cooperative, true, argumentBlock.pointers());
      },
      nb::arg("handle"), nb::arg("grid"), nb::arg("block"), nb::arg("shared"),
      nb::arg("stream").none(), nb::arg("arguments"), nb::arg("argument_types"),
      nb::arg("cooperative") = false);
}

} // namespace taipan::bindings
