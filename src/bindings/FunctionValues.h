// Functions as values passed from Python: a dispatcher given as an argument (first-class
// functions, `apply(f, x)`), typed per function as Numba's dispatcher types are.
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// The type of a taipan dispatcher passed as an argument: one type per function (its
/// FunctionSource), so each function passed gets its own specialisation of the callee, and the
/// value itself carries nothing at run time. A class or builtin compiled code knows by name
/// (`float`, `np.float64`, `math.sqrt`, a named tuple class) is typed as the resolver types
/// the global, carrying nothing either. nullptr for anything else.
const Type *typeOfFunctionValue(PyObject *value);

} // namespace taipan::bindings
