// np.random.Generator arguments: recognised by their class (without importing NumPy), passed
// as the `bitgen_t *` NumPy's own Cython code draws through, so draws advance its state.
#include "RandomGeneratorBoxing.h"

#include "runtime/NumpyBitgen.h"
#include "types/RandomGeneratorType.h"

#include <cstdio>
#include <cstring>
#include <tuple>

namespace taipan::bindings {

namespace {
/// Whether the loaded NumPy is older than 2.3.4 (Generator.wald's older formula), read from
/// numpy.__version__ (NumPy is loaded: a Generator exists).
bool numpyBefore234() {
  PyObject *numpy = PyImport_AddModule("numpy"); // borrowed
  PyObject *version = numpy ? PyObject_GetAttrString(numpy, "__version__") : nullptr;
  const char *text = version ? PyUnicode_AsUTF8(version) : nullptr;
  int major = 0, minor = 0, patch = 0;
  bool before = text && std::sscanf(text, "%d.%d.%d", &major, &minor, &patch) >= 2 &&
                std::make_tuple(major, minor, patch) < std::make_tuple(2, 3, 4);
  Py_XDECREF(version);
  PyErr_Clear();
  return before;
}
} // namespace

const Type *typeOfRandomGenerator(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  if (std::strcmp(type->tp_name, "numpy.random._generator.Generator") != 0)
    return nullptr;
  static const bool chosen = [] {
    runtime::numpy_random::useWaldOfNumpyBefore234(numpyBefore234());
    return true;
  }();
  (void)chosen;
  return randomGeneratorType();
}

bool unboxRandomGenerator(PyObject *value, void *storage) {
  PyObject *bitGenerator = PyObject_GetAttrString(value, "bit_generator");
  if (!bitGenerator)
    return false;
  PyObject *capsule = PyObject_GetAttrString(bitGenerator, "capsule");
  Py_DECREF(bitGenerator);
  if (!capsule)
    return false;
  // The capsule's pointer lives in the bit generator, which the Generator holds.
  void *bitgen = PyCapsule_GetPointer(capsule, "BitGenerator");
  Py_DECREF(capsule);
  if (!bitgen)
    return false;
  std::memcpy(storage, &bitgen, sizeof(bitgen));
  return true;
}

PyObject *boxRandomGenerator() {
  PyErr_SetString(PyExc_TypeError,
                  "a numpy.random.Generator cannot be returned from compiled code: compiled code "
                  "holds its bit generator's state, not the Generator object");
  return nullptr;
}

} // namespace taipan::bindings
