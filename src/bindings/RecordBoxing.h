// NumPy structured (record) dtypes across the boundary: the Record type of a dtype, record
// scalars (numpy.void) passed by reference, and records returned as numpy.void copies.
#pragma once

#include <Python.h>

#include "types/Type.h"

#include <string>

namespace taipan::bindings {

/// The Record type of a NumPy dtype object with fields, or nullptr (with `why` set when given)
/// when it has none or a field has a type compiled code cannot hold (strings, objects,
/// non-native byte order).
const Type *recordTypeOfDescr(PyObject *descr, std::string *why = nullptr);

/// The dtype object a Record type was made from (a borrowed reference, alive for the process).
PyObject *descrOfRecord(const Type *record);

/// The Record type of a numpy.void (or numpy.record) scalar, or nullptr.
const Type *typeOfRecordScalar(PyObject *value);

/// Stores the address of a record scalar's bytes: compiled code reads and writes the scalar
/// (and the array it is a view of) in place, as in Numba.
bool unboxRecord(PyObject *value, const Type *type, void *storage);

/// A numpy.void holding a copy of the record whose address is at `storage`.
PyObject *boxRecord(const Type *type, const void *storage);

} // namespace taipan::bindings
