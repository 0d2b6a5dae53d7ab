// jitclass instances in Python: the base class of every jitclass's box (a Python object holding
// an instance's type and block), and the typeof, unboxing and boxing of instances.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>

#include "types/ClassInstanceTypes.h"

namespace taipan::bindings {

/// The class instance type of a box (an object of a jitclass's box class), or nullptr.
const Type *typeOfJitClassInstance(PyObject *value);
/// Stores the block of the box `value` at `storage`, with a new reference (released after a
/// call by releaseUnboxed, or owned by the container it is stored into). A TypeError for
/// anything that is not an instance of that class.
bool unboxJitClassInstance(PyObject *value, const Type *type, void *storage);
/// A box of the class's box class over the block at `storage`, whose reference it takes over.
PyObject *boxJitClassInstance(const Type *type, const void *storage);

/// Registers `_core.JitClassInstance` (the boxes' base class) and the functions taipan.jitclass
/// makes its types and boxes with.
void defineJitClasses(nanobind::module_ &module);

} // namespace taipan::bindings
