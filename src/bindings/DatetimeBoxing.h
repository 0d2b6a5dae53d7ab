// NumPy datetime64/timedelta64 across the boundary: the type of a scalar or of an M8/m8 dtype,
// scalars unboxed as their int64 count and boxed as NumPy scalars of the type's unit.
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// The datetime64[unit] or timedelta64[unit] type of a dtype object of kind M or m, or nullptr
/// (another kind, or a multiple of a unit such as M8[5s], which compiled code does not hold).
const Type *datetimeTypeOfDescr(PyObject *descr);

/// The dtype object of a datetime or timedelta type (a borrowed reference, alive for the
/// process).
PyObject *descrOfDatetime(const Type *type);

/// The type of a numpy.datetime64 or numpy.timedelta64 scalar, or nullptr.
const Type *typeOfDatetimeScalar(PyObject *value);

/// Stores the int64 count of a scalar of exactly `type`; a TypeError otherwise.
bool unboxDatetime(PyObject *value, const Type *type, void *storage);

/// A numpy.datetime64 or numpy.timedelta64 scalar of the type's unit.
PyObject *boxDatetime(const Type *type, const void *storage);

} // namespace taipan::bindings
