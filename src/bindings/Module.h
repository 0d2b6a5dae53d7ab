// State shared by the extension's parts: the Python exception classes compiled code and the
// compiler raise, and the translation of compiler errors into them.
#pragma once

#include <Python.h>

#include "support/CompileError.h"

namespace taipan::bindings {

/// The registry id of a Python exception class, registering it on first sight.
int exceptionIdFor(PyObject *exceptionClass);
/// The Python exception class registered under `id` (borrowed), or RuntimeError.
PyObject *exceptionClassFor(int id);

/// Sets the Python exception for a compile error: the user's file and line, the source line
/// and a caret under the column.
void setCompileError(const CompileError &error);

/// Raises the exception compiled code left pending on this thread.
void raisePendingException();

} // namespace taipan::bindings
