// Conversions between Python objects and the memory form of taipan values: typeof (the
// argument fingerprint), unboxing arguments for compiled code, boxing its results.
#pragma once

#include <Python.h>

#include "runtime/MemoryRuntime.h"
#include "types/Type.h"

#include <cstring>

namespace taipan::bindings {

/// The taipan type of a Python value, or nullptr when compiled code cannot take it. Cached per
/// Python type for scalars, so a call with known argument types does no allocation.
const Type *typeOfValue(PyObject *value);

/// Writes `value` converted to `type` into `storage` (Type::storageSize bytes). Returns false
/// with a Python exception set when it cannot. `verified` says the dispatcher already found
/// `value` to be exactly of `type`, so arrays skip their checks.
bool unboxValue(PyObject *value, const Type *type, void *storage, bool verified = false);

/// A new Python object for the value of `type` at `storage`, or nullptr with an exception set.
PyObject *boxValue(const Type *type, const void *storage);

/// The memory block a list, set, dict, string or jitclass value holds at `storage` (a pointer
/// in a value's memory form, which need not be aligned).
inline runtime::MemInfo *blockAt(const void *storage) {
  runtime::MemInfo *block;
  std::memcpy(&block, storage, sizeof(block));
  return block;
}

} // namespace taipan::bindings
