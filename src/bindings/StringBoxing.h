// Strings between Python and compiled code: unboxing a str argument into a string block (its
// code points copied in their kind), boxing a string result, and the runtime's hooks.
#pragma once

#include <Python.h>

#include "types/Type.h"

#include <cstddef>

namespace taipan::bindings {

/// Unboxes a str into a new string block stored at `storage`; false with TypeError otherwise.
bool unboxString(PyObject *value, void *storage);
/// The str of the string block at `storage`, whose reference it takes over (releases).
PyObject *boxString(const void *storage);
/// Releases the string blocks unboxing made for an argument of `type` at `storage`, once the
/// call is over (compiled code borrows its arguments).
void releaseUnboxed(const Type *type, void *storage);
/// Installs the string runtime's hooks: CPython's hash key and its str methods for non-ASCII
/// text.
void installStringHooks();

} // namespace taipan::bindings
