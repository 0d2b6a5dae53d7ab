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
/// A Generator value compiled code returns (the `bitgen_t *` at `storage`): the Generator
/// object it was unboxed from, as Numba returns the argument's object (a new reference).
PyObject *boxRandomGenerator(const void *storage);

} // namespace taipan::bindings
