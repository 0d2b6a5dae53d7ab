// Named tuple classes (collections.namedtuple, typing.NamedTuple) between Python and compiled
// code: a registry id per class, the type of an instance, and boxing back into the class.
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// Whether `object` is a named tuple class: a subclass of tuple with a `_fields` tuple of
/// strings.
bool isNamedTupleClass(PyObject *object);

/// The class as compiled code names it: a namedTuple type with no items, whose field names,
/// qualified name and registry id are the class's (the class is kept alive for the process).
const Type *namedTupleClassType(PyObject *namedClass);

/// For an instance of a named tuple class, its type with items of `items`; null otherwise.
const Type *namedTupleInstanceType(PyObject *value, const std::vector<const Type *> &items);

/// The class of `type` (a named tuple type, or the class's template), borrowed; null for other
/// types.
PyObject *namedTupleClassObject(const Type *type);

/// A new instance of the class of `type` (a named tuple type) holding `items` (a new tuple,
/// whose reference this steals), or null with a Python exception set.
PyObject *boxNamedTuple(const Type *type, PyObject *items);

} // namespace taipan::bindings
