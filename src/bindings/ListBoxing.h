// Python lists across the boundary (Numba's reflected lists): typeof by the first item,
// unboxing into a compiled list, writing changes back into the caller's list, boxing results.
#pragma once

#include <Python.h>

#include <string>

#include "types/Type.h"

namespace taipan::bindings {

/// list(T) for a Python list whose first item has type T (nested lists recursively); nullptr
/// for an empty list or an untypable first item. Only the first item is looked at: the rest
/// are checked when the list is unboxed.
const Type *typeOfList(PyObject *value);
/// Why a Python list cannot be typed ("cannot type empty list"), or "" for other values.
std::string describeUnsupportedList(PyObject *value);
/// A new compiled list holding the Python list's items; a TypingError for an item of another
/// type (a heterogeneous list).
bool unboxList(PyObject *value, const Type *type, void *storage);
/// A Python list of the items of the compiled list at `storage`, whose reference it takes over.
PyObject *boxList(const Type *type, const void *storage);
/// After a call: writes the compiled list's items back into the caller's Python list `value`
/// when `reflect` (the function may have changed it), then releases the compiled list. Tuples
/// holding lists are walked. Returns false with a Python exception set on failure.
bool finishListArgument(PyObject *value, const Type *type, void *storage, bool reflect);
/// Raises taipan.errors.TypingError (TypeError if it cannot be had) with `message`.
void raiseTypingError(const std::string &message);
/// Whether an argument of `type` holds lists (or sets) that finishListArgument must release.
bool holdsLists(const Type *type);

} // namespace taipan::bindings
