// ForeignArrays.cpp - Kernel arguments from other libraries' device memory: the CUDA Array
// Interface read in C++, and PyTorch tensors read through their attributes, which costs less
// than PyTorch's Python-level interface property.
#include "ForeignArrays.h"

#include "CudaBindings.h"

#include <nanobind/nanobind.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {

namespace {

/// The array type of a launch argument, remembered: the same few recur launch after launch, and
/// types::array() builds a name and takes a lock.
const Type *kernelArrayType(const Type *element, int ndim, bool contiguous, bool readonly) {
  struct Entry {
    const Type *element;
    int ndim;
    bool contiguous, readonly;
    const Type *type;
  };
  thread_local Entry recent[8] = {};
  thread_local unsigned next = 0;
  for (const Entry &entry : recent)
    if (entry.type && entry.element == element && entry.ndim == ndim &&
        entry.contiguous == contiguous && entry.readonly == readonly)
      return entry.type;
  const Type *type = types::array(element, ndim, contiguous ? 'C' : 'A', readonly);
  recent[next++ % 8] = {element, ndim, contiguous, readonly, type};
  return type;
}

/// Whether a launch on `consumer` is already ordered after work the producer queued on
/// `producer` (a CUDA Array Interface stream: 1 is the legacy default stream, 2 the per-thread
/// one): the same stream, or both the legacy default.
bool orderedAfterProducer(uintptr_t producer, void *consumer) {
  uintptr_t handle = reinterpret_cast<uintptr_t>(consumer);
  return producer == handle || (producer == 1 && handle <= 1);
}

/// Python's wait for a producer's stream (setProducerWait), or null.
PyObject *producerWait = nullptr;

/// Synchronizes the producer's stream unless the launch on `consumer` is ordered after it
/// already: the rule of taipan.cuda.streams.wait_for_producer, through its wait when one is
/// set. Raises the driver's error (or the wait's).
void waitForProducer(uintptr_t producer, void *consumer) {
  if (orderedAfterProducer(producer, consumer))
    return;
  if (producerWait) {
    nb::handle wait(producerWait);
    wait(producer);
    return;
  }
  driverCall([&] {
    cuda::CudaDriver::get().streams().synchronizeStream(reinterpret_cast<void *>(producer));
  });
}

/// The element type named by a CUDA Array Interface typestr ("<f4", "|b1"), or null for
/// byte orders and kinds the launch path leaves to Python.
const Type *interfaceElementType(PyObject *typestr) {
  const char *text = PyUnicode_AsUTF8(typestr);
  if (!text || (text[0] != '<' && text[0] != '|') || !text[1]) {
    PyErr_Clear();
    return nullptr;
  }
  // A launch passes the same few dtypes again and again.
  thread_local char lastText[8] = {};
  thread_local const Type *lastType = nullptr;
  if (lastType && std::strncmp(lastText, text, sizeof lastText) == 0)
    return lastType;
  int bytes = std::atoi(text + 2);
  std::string name;
  switch (text[1]) {
  case 'f':
    name = "float" + std::to_string(8 * bytes);
    break;
  case 'i':
    name = "int" + std::to_string(8 * bytes);
    break;
  case 'u':
    name = "uint" + std::to_string(8 * bytes);
    break;
  case 'c':
    name = "complex" + std::to_string(8 * bytes);
    break;
  case 'b':
    name = bytes == 1 ? "bool" : "";
    break;
  default:
    return nullptr;
  }
  const Type *type = name.empty() ? nullptr : types::scalarByName(name);
  if (type && std::strlen(text) < sizeof lastText) {
    std::strncpy(lastText, text, sizeof lastText);
    lastType = type;
  }
  return type;
}

/// The byte strides of a C-order array of `shape` (a tuple of ints), as NumPy computes them.
std::vector<int64_t> cStrides(PyObject *shape, int64_t itemSize) {
  Py_ssize_t ndim = PyTuple_GET_SIZE(shape);
  std::vector<int64_t> strides(static_cast<size_t>(ndim));
  int64_t step = itemSize;
  for (Py_ssize_t d = ndim - 1; d >= 0; --d) {
    strides[static_cast<size_t>(d)] = step;
    step *= PyLong_AsLongLong(PyTuple_GET_ITEM(shape, d));
  }
  return strides;
}

/// A tuple of Python ints.
nb::object intTuple(const std::vector<int64_t> &values) {
  nb::object tuple = nb::steal(PyTuple_New(static_cast<Py_ssize_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i)
    PyTuple_SET_ITEM(tuple.ptr(), static_cast<Py_ssize_t>(i), PyLong_FromLongLong(values[i]));
  return tuple;
}

/// The byte strides of an array of `shape` given as a tuple, or C order when `strides` is null
/// or None (the CUDA Array Interface's way of saying so), and whether they are C strides, as
/// NumPy computes them: that decides the layout exactly as the Python path does. Null (no
/// error set) when `strides` does not fit `shape`.
nb::object interfaceStrides(PyObject *shape, PyObject *strides, int64_t itemSize,
                            bool *contiguous) {
  std::vector<int64_t> cOrder = cStrides(shape, itemSize);
  *contiguous = true;
  if (!strides || strides == Py_None)
    return intTuple(cOrder);
  Py_ssize_t ndim = PyTuple_GET_SIZE(shape);
  if (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != ndim)
    return nb::object();
  for (Py_ssize_t d = 0; d < ndim; ++d)
    *contiguous &= PyLong_AsLongLong(PyTuple_GET_ITEM(strides, d)) == cOrder[size_t(d)];
  return nb::borrow(strides);
}

/// Byte strides for a tensor of `shape` with `elementStrides` (in elements), and whether it is
/// contiguous as PyTorch says: extents of 1 may have any stride, and empty tensors are
/// contiguous. Contiguous tensors get C strides, which is what PyTorch's strides=None means.
bool torchStrides(PyObject *shape, PyObject *elementStrides, int64_t itemSize,
                  std::vector<int64_t> &byteStrides) {
  std::vector<int64_t> contiguousStrides = cStrides(shape, itemSize);
  byteStrides.resize(contiguousStrides.size());
  bool contiguous = true, empty = false;
  for (size_t d = 0; d < byteStrides.size(); ++d) {
    Py_ssize_t index = static_cast<Py_ssize_t>(d);
    int64_t extent = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, index));
    byteStrides[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(elementStrides, index)) * itemSize;
    contiguous &= extent == 1 || byteStrides[d] == contiguousStrides[d];
    empty |= extent == 0;
  }
  if (contiguous || empty) {
    byteStrides = std::move(contiguousStrides);
    return true;
  }
  return false;
}

/// A class of another library, found once that library has been imported (taipan never imports
/// it), and the answer to "is this value one of them", remembered per type: the question comes
/// for every foreign argument of every launch. A type seen before the library was imported can
/// never become one of its classes, so "no" stays true; the types seen are kept alive so that
/// their addresses are not reused. The GIL guards the memo.
class ForeignClass {
public:
  /// `module.name` is the class; when `attribute` is given, a subclass counts only if it still
  /// inherits the class's own `attribute` (a subclass redefining the interface gets the
  /// general path).
  ForeignClass(const char *module, const char *name, const char *attribute = nullptr)
      : module(module), name(name), attribute(attribute) {}

  bool contains(PyObject *value) {
    PyTypeObject *type = Py_TYPE(value);
    for (const Entry &entry : seen)
      if (entry.type == type)
        return entry.member;
    bool member = isMember(type);
    Entry &slot = seen[next++ % std::size(seen)];
    Py_XDECREF(reinterpret_cast<PyObject *>(slot.type));
    Py_INCREF(reinterpret_cast<PyObject *>(type));
    slot = {type, member};
    return member;
  }

private:
  struct Entry {
    PyTypeObject *type;
    bool member;
  };
  const char *module, *name, *attribute;
  PyTypeObject *cls = nullptr; // kept for the process's life
  Entry seen[4] = {};
  unsigned next = 0;

  bool isMember(PyTypeObject *type) {
    if (!cls) {
      PyObject *library = PyDict_GetItemString(PyImport_GetModuleDict(), module);
      PyObject *found = library ? PyObject_GetAttrString(library, name) : nullptr;
      if (found && PyType_Check(found))
        cls = reinterpret_cast<PyTypeObject *>(found);
      else
        Py_XDECREF(found);
      PyErr_Clear();
      if (!cls)
        return false;
    }
    if (!PyType_IsSubtype(type, cls))
      return false;
    if (!attribute)
      return true;
    nb::object own =
        nb::steal(PyObject_GetAttrString(reinterpret_cast<PyObject *>(cls), attribute));
    nb::object inherited =
        nb::steal(PyObject_GetAttrString(reinterpret_cast<PyObject *>(type), attribute));
    PyErr_Clear();
    return own.is_valid() && own.ptr() == inherited.ptr();
  }
};

/// Whether `value` is a torch.Tensor (or a subclass).
bool isTorchTensor(PyObject *value) {
  static ForeignClass tensor("torch", "Tensor");
  return tensor.contains(value);
}

/// taipan's element type for a torch.dtype object; null for the ones the CUDA Array Interface
/// cannot describe (bfloat16, quantised types).
const Type *torchElementType(PyObject *dtype) {
  struct Entry {
    PyObject *dtype;
    const Type *type;
  };
  static std::vector<Entry> table = [] {
    std::vector<Entry> entries;
    PyObject *torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");
    for (const char *name : {"float32", "float64", "float16", "int8", "int16", "int32", "int64",
                             "uint8", "bool", "complex64", "complex128"}) {
      PyObject *object = torch ? PyObject_GetAttrString(torch, name) : nullptr;
      if (object) // torch's dtypes live as long as torch
        entries.push_back({object, types::scalarByName(name)});
      PyErr_Clear();
    }
    return entries;
  }();
  for (const Entry &entry : table)
    if (entry.dtype == dtype)
      return entry.type;
  return nullptr;
}

/// taipan's element type for a NumPy dtype object, through its typestr; remembered by object,
/// since NumPy's built-in dtypes are singletons. Null for dtypes the launch path leaves to
/// Python.
const Type *numpyElementType(PyObject *dtype) {
  struct Entry {
    PyObject *dtype;
    const Type *type;
  };
  static Entry seen[8] = {};
  static unsigned next = 0;
  for (const Entry &entry : seen)
    if (entry.dtype == dtype)
      return entry.type;
  static PyObject *strName = PyUnicode_InternFromString("str");
  nb::object typestr = nb::steal(PyObject_GetAttr(dtype, strName));
  const Type *type = typestr.is_valid() ? interfaceElementType(typestr.ptr()) : nullptr;
  PyErr_Clear();
  Entry &slot = seen[next++ % std::size(seen)];
  Py_XDECREF(slot.dtype);
  Py_INCREF(dtype); // kept so that the address is not reused by another dtype
  slot = {dtype, type};
  return type;
}

/// The stream CuPy's __cuda_array_interface__ names for its arrays now: CuPy's current stream,
/// or 1 (legacy default) for its null stream. Read through the C function CuPy's stream module
/// exports to other Cython modules, which costs nanoseconds where the property costs 0.4 us;
/// 0 when it cannot be found, so that the launch takes the general path.
uintptr_t cupyInterfaceStream() {
  using CurrentStream = intptr_t (*)();
  static CurrentStream current = nullptr;
  static bool searched = false;
  if (!searched) {
    // CuPy imports this module with itself, so once a CuPy array exists the answer is final:
    // a CuPy without the function is not searched again at every launch.
    PyObject *module = PyDict_GetItemString(PyImport_GetModuleDict(), "cupy_backends.cuda.stream");
    searched = module != nullptr;
    nb::object table = nb::steal(module ? PyObject_GetAttrString(module, "__pyx_capi__") : nullptr);
    PyObject *capsule = table.is_valid() && PyDict_Check(table.ptr())
                            ? PyDict_GetItemString(table.ptr(), "get_current_stream_ptr")
                            : nullptr;
    // The capsule's name is the C signature, so a changed signature is never called.
    if (capsule && PyCapsule_IsValid(capsule, "intptr_t (void)"))
      current = reinterpret_cast<CurrentStream>(PyCapsule_GetPointer(capsule, "intptr_t (void)"));
    PyErr_Clear();
  }
  if (!current)
    return 0;
  intptr_t stream = current();
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  return stream == 0 ? 1 : static_cast<uintptr_t>(stream);
}

} // namespace

PyObject *optionalAttribute(PyObject *object, PyObject *name) {
#if PY_VERSION_HEX >= 0x030D0000
  PyObject *result = nullptr;
  if (PyObject_GetOptionalAttr(object, name, &result) < 0)
    PyErr_Clear();
  return result;
#else
  PyObject *result = nullptr;
  if (_PyObject_LookupAttr(object, name, &result) < 0)
    PyErr_Clear();
  return result;
#endif
}

PyObject *describeInterface(PyObject *interface, void *stream, const Type **type) {
  if (!PyDict_Check(interface))
    return nullptr;
  // Interned keys: PyDict_GetItemString would build a string per lookup, five per argument.
  static PyObject *maskKey = PyUnicode_InternFromString("mask");
  static PyObject *streamKey = PyUnicode_InternFromString("stream");
  static PyObject *typestrKey = PyUnicode_InternFromString("typestr");
  static PyObject *shapeKey = PyUnicode_InternFromString("shape");
  static PyObject *dataKey = PyUnicode_InternFromString("data");
  static PyObject *stridesKey = PyUnicode_InternFromString("strides");
  PyObject *mask = PyDict_GetItem(interface, maskKey);
  PyObject *producer = PyDict_GetItem(interface, streamKey);
  if (mask && mask != Py_None)
    return nullptr;
  uintptr_t producerHandle = 0;
  if (producer && producer != Py_None) {
    producerHandle = PyLong_AsUnsignedLongLong(producer);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return nullptr;
    }
  }
  PyObject *typestr = PyDict_GetItem(interface, typestrKey);
  PyObject *shape = PyDict_GetItem(interface, shapeKey);
  PyObject *data = PyDict_GetItem(interface, dataKey);
  PyObject *strides = PyDict_GetItem(interface, stridesKey);
  if (!typestr || !shape || !PyTuple_Check(shape) || !data || !PyTuple_Check(data) ||
      PyTuple_GET_SIZE(data) != 2)
    return nullptr;
  const Type *element = interfaceElementType(typestr);
  if (!element)
    return nullptr;
  bool isContiguous = false;
  nb::object strideTuple =
      interfaceStrides(shape, strides, static_cast<int64_t>(element->storageSize()), &isContiguous);
  if (!strideTuple.is_valid() || PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  bool readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1)) == 1;
  // Described: the launch waits for the producer now, as Python's path would.
  if (producerHandle)
    waitForProducer(producerHandle, stream);
  *type =
      kernelArrayType(element, static_cast<int>(PyTuple_GET_SIZE(shape)), isContiguous, readonly);
  return PyTuple_Pack(4, Py_None, PyTuple_GET_ITEM(data, 0), shape, strideTuple.ptr());
}

PyObject *describeTorchTensor(PyObject *value, const Type **type) {
  if (!isTorchTensor(value))
    return nullptr;
  static PyObject *isCudaName = PyUnicode_InternFromString("is_cuda");
  static PyObject *requiresGradName = PyUnicode_InternFromString("requires_grad");
  static PyObject *isSparseName = PyUnicode_InternFromString("is_sparse");
  static PyObject *dtypeName = PyUnicode_InternFromString("dtype");
  static PyObject *shapeName = PyUnicode_InternFromString("shape");
  static PyObject *strideName = PyUnicode_InternFromString("stride");
  static PyObject *dataPointerName = PyUnicode_InternFromString("data_ptr");
  auto flag = [&](PyObject *name) {
    nb::object result = nb::steal(PyObject_GetAttr(value, name));
    return result.is_valid() && result.ptr() == Py_True;
  };
  if (!flag(isCudaName) || flag(requiresGradName) || flag(isSparseName)) {
    PyErr_Clear();
    return nullptr;
  }
  nb::object dtype = nb::steal(PyObject_GetAttr(value, dtypeName));
  const Type *element = dtype.is_valid() ? torchElementType(dtype.ptr()) : nullptr;
  nb::object shape = nb::steal(PyObject_GetAttr(value, shapeName));
  nb::object strides = nb::steal(PyObject_CallMethodNoArgs(value, strideName));
  nb::object data = nb::steal(PyObject_CallMethodNoArgs(value, dataPointerName));
  if (!element || !shape.is_valid() || !PyTuple_Check(shape.ptr()) || !strides.is_valid() ||
      !PyTuple_Check(strides.ptr()) ||
      PyTuple_GET_SIZE(strides.ptr()) != PyTuple_GET_SIZE(shape.ptr()) || !data.is_valid()) {
    PyErr_Clear();
    return nullptr;
  }
  std::vector<int64_t> byteStrides;
  bool contiguous = torchStrides(shape.ptr(), strides.ptr(),
                                 static_cast<int64_t>(element->storageSize()), byteStrides);
  Py_ssize_t ndim = PyTuple_GET_SIZE(shape.ptr());
  nb::object strideTuple = intTuple(byteStrides);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  *type = kernelArrayType(element, static_cast<int>(ndim), contiguous, false);
  return PyTuple_Pack(4, Py_None, data.ptr(), shape.ptr(), strideTuple.ptr());
}

PyObject *describeCupyArray(PyObject *value, void *stream, const Type **type) {
  static ForeignClass ndarray("cupy", "ndarray", "__cuda_array_interface__");
  if (!ndarray.contains(value))
    return nullptr;
  uintptr_t producer = cupyInterfaceStream();
  if (!producer)
    return nullptr;
  static PyObject *dtypeName = PyUnicode_InternFromString("dtype");
  static PyObject *shapeName = PyUnicode_InternFromString("shape");
  static PyObject *stridesName = PyUnicode_InternFromString("strides");
  static PyObject *contiguousName = PyUnicode_InternFromString("_c_contiguous");
  static PyObject *dataName = PyUnicode_InternFromString("data");
  static PyObject *pointerName = PyUnicode_InternFromString("ptr");
  nb::object dtype = nb::steal(PyObject_GetAttr(value, dtypeName));
  const Type *element = dtype.is_valid() ? numpyElementType(dtype.ptr()) : nullptr;
  nb::object shape = nb::steal(PyObject_GetAttr(value, shapeName));
  nb::object contiguousFlag = nb::steal(PyObject_GetAttr(value, contiguousName));
  nb::object data = nb::steal(PyObject_GetAttr(value, dataName));
  nb::object pointer =
      nb::steal(data.is_valid() ? PyObject_GetAttr(data.ptr(), pointerName) : nullptr);
  if (!element || !shape.is_valid() || !PyTuple_Check(shape.ptr()) || !contiguousFlag.is_valid() ||
      !pointer.is_valid() || !PyLong_Check(pointer.ptr())) {
    PyErr_Clear();
    return nullptr;
  }
  // The property reports strides=None for what CuPy flags C-contiguous, and the strides
  // otherwise; the same choice here gives the same layout.
  nb::object strides;
  if (contiguousFlag.ptr() != Py_True)
    strides = nb::steal(PyObject_GetAttr(value, stridesName));
  bool contiguous = false;
  nb::object strideTuple =
      interfaceStrides(shape.ptr(), strides.is_valid() ? strides.ptr() : nullptr,
                       static_cast<int64_t>(element->storageSize()), &contiguous);
  if (!strideTuple.is_valid() || PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  waitForProducer(producer, stream);
  *type =
      kernelArrayType(element, static_cast<int>(PyTuple_GET_SIZE(shape.ptr())), contiguous, false);
  return PyTuple_Pack(4, Py_None, pointer.ptr(), shape.ptr(), strideTuple.ptr());
}

void setProducerWait(PyObject *wait) {
  Py_XINCREF(wait);
  producerWait = wait;
}

} // namespace taipan::bindings
