// Generators returned to Python: an iterator object over a generator block that resumes its
// coroutine on each next() and boxes what it yields.
#pragma once

#include <Python.h>

#include "types/Type.h"

#include <cstddef>

namespace taipan::bindings {

/// A Python iterator over the generator block at `storage`, whose reference it takes over.
PyObject *boxGenerator(const Type *type, const void *storage);
/// Keeps `arguments` (the call's) alive as long as the iterator `generator`: a generator may
/// read an array argument's memory, which compiled code borrows from its Python object.
void keepGeneratorArguments(PyObject *generator, PyObject *const *arguments, size_t count);

} // namespace taipan::bindings
