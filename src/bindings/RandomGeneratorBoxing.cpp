// np.random.Generator arguments: recognised by their class (without importing NumPy), passed
// as the `bitgen_t *` NumPy's own Cython code draws through, so draws advance its state.
#include "RandomGeneratorBoxing.h"

#include "types/RandomGeneratorType.h"

#include <cstring>

namespace taipan::bindings {

const Type *typeOfRandomGenerator(PyObject *value) {
  PyTypeObject *type = Py_TYPE(value);
  if (std::strcmp(type->tp_name, "numpy.random._generator.Generator") != 0)
    return nullptr;
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
