// First-class function values passed between Python and compiled code (Numba's FunctionType):
// their types, unboxing and boxing, and protocol objects and cfuncs used as globals.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>

#include "typing/GlobalResolver.h"

#include <string>

namespace taipan::bindings {

/// Notes the dispatcher that owns `source`, so that typing can compile it to a C entry when it
/// becomes a first-class function value (PythonGlobalResolver::firstClassEntry).
void rememberDispatcher(const FunctionSource *source, PyObject *dispatcher);
/// The live dispatcher rememberDispatcher noted for `source` (a new reference), or null.
PyObject *dispatcherOf(const FunctionSource *source);

/// The FunctionType of a WrapperAddressProtocol object, cfunc, or ctypes or cffi function
/// pointer passed as an argument; nullptr for other objects.
const Type *typeOfFirstClassObject(PyObject *value);

/// A tuple of function values as Numba types it: UniTuple of the one FunctionType its items
/// share (jitted functions of one explicit signature take that signature's; other jitted
/// functions are compiled for it), when they are not all of one type; nullptr otherwise.
const Type *firstClassTupleType(PyObject *tuple, const std::vector<const Type *> &elements);

/// Why a function object (a protocol object, ctypes or cffi function) passed as an argument
/// has no type, for the argument error; "" for other objects.
std::string describeFirstClassObject(PyObject *value);

/// Unboxes a function object as a value of FunctionType `type`: its C address (a jitted
/// function is compiled for the signature) and the object itself, kept alive for good.
bool unboxFirstClassFunction(PyObject *value, const Type *type, void *storage);

/// Boxes a function value: the object it came from, or a callable made from its address.
PyObject *boxFirstClassFunction(const Type *type, const void *storage);

/// Boxes a jitted function compiled code returned (its value carries nothing at run time):
/// its dispatcher, as Numba returns the dispatcher object; a TypeError once that is gone.
PyObject *boxJitFunction(const Type *type);

/// A WrapperAddressProtocol object or cfunc as a global of compiled code: an ExternalFunction
/// at its address (called directly), or Unsupported saying why. False for other objects.
bool classifyFirstClassGlobal(nanobind::handle object, GlobalValue &result);

} // namespace taipan::bindings
