// Dicts returned to Python: a compiled dict becomes a plain Python dict (Numba returns a
// typed.Dict, which taipan does not have yet). Dict arguments are refused by the dispatcher.
#pragma once

#include <Python.h>

#include "types/Type.h"

namespace taipan::bindings {

/// A Python dict of the entries, in order, of the compiled dict at `storage`, whose reference
/// it takes over.
PyObject *boxDict(const Type *type, const void *storage);

} // namespace taipan::bindings
