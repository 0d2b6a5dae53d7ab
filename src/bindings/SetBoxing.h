// Python sets across the boundary (Numba's reflected sets): typeof by the first item, unboxing
// into a compiled set with CPython's exact table, writing changes back, boxing results.
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// reflected set(K) for a Python set whose first item has type K; nullptr for an empty set or
/// an item that does not hash in compiled code.
const Type *typeOfSet(PyObject *value);
/// A new compiled set holding the Python set's keys in the same table slots (so iteration and
/// pop() continue as CPython would); a TypingError for a key of another type.
bool unboxSet(PyObject *value, const Type *type, void *storage);
/// A Python set of the keys of the compiled set at `storage`, whose reference it takes over,
/// laid out in the same table slots.
PyObject *boxSet(const Type *type, const void *storage);
/// After a call: writes the compiled set's keys back into the caller's set when `reflect` and
/// they changed, then releases the compiled set. False with a Python exception set on failure.
bool finishSetArgument(PyObject *value, const Type *type, void *storage, bool reflect);

} // namespace taipan::bindings
