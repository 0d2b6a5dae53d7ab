// np.random.Generator arguments: their type, and their value in compiled code (the address of
// the bit generator's `bitgen_t`, read from its "BitGenerator" capsule).
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// The Generator type (types/RandomGeneratorType.h) when `value` is a numpy.random.Generator,
/// else null.
const Type *typeOfRandomGenerator(PyObject *value);
/// Stores the `bitgen_t *` of the Generator `value` at `storage`; false with a Python error
/// set when it is not one. The caller's reference keeps the Generator alive for the call.
bool unboxRandomGenerator(PyObject *value, void *storage);
/// A Generator returned from compiled code: a TypeError (null), since compiled code holds only
/// the bit generator's address, not the Generator object.
PyObject *boxRandomGenerator();

} // namespace taipan::bindings
