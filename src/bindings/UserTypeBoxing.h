// User-defined types from Python (Numba's extension API): their typeof through typeof_impl and
// their boxing through the box/unbox functions taipan.extending compiles for each.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>

#include "types/UserTypes.h"

namespace taipan::bindings {

/// The user type `typeof_impl` registered for the class of `value` (or a base of it), or
/// nullptr; asks Python only for the classes registered.
const Type *typeOfUserValue(PyObject *value);
/// Unboxes `value` into `storage` through the type's compiled unbox function; false with a
/// Python exception set when it fails or the type has no unbox.
bool unboxUserValue(PyObject *value, const Type *type, void *storage);
/// Writes the constant of `value`, a global or closure value of user type `type`, into
/// `storage` by the type's lower_constant (Numba's; taipan.user_types): 1 when written, 0 when
/// the type registered none, -1 with a Python exception set when it failed.
int constantUserValue(PyObject *value, const Type *type, void *storage);
/// A new object for the value at `storage` through the type's compiled box function, or
/// nullptr with an exception set.
PyObject *boxUserValue(const Type *type, const void *storage);

/// Registers `_core.user_type`, `define_user_model`, `bind_user_type`, `set_user_type_hooks`.
void defineUserTypes(nanobind::module_ &module);

} // namespace taipan::bindings
