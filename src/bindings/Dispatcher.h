// The dispatcher object behind every @jit function: a C type with a vectorcall slot that picks
// the compiled specialisation for the argument types and calls it without running Python code.
#pragma once

#include <Python.h>

#include "compiler/Compiler.h"

#include <string>
#include <vector>

namespace taipan::bindings {

/// Creates the `DispatcherBase` type; Python's taipan.dispatcher.Dispatcher subclasses it.
PyTypeObject *createDispatcherType();

/// Sets the parameter names (Python's order: positional, `*args`, keyword-only), defaults (tuple
/// or None), keyword-only defaults (dict or None) and the nogil option of a dispatcher.
/// `starIndex` is the parameter `*args` binds as a tuple, or -1. A `generic` dispatcher (a
/// function with **kwargs) sends every call to Python's `_compile_for_args`, which reports what
/// it cannot compile.
void configureDispatcher(PyObject *dispatcher, const std::vector<std::string> &names,
                         PyObject *defaults, bool nogil, bool generic, Py_ssize_t starIndex = -1,
                         Py_ssize_t keywordOnlyCount = 0, PyObject *keywordDefaults = nullptr);

/// Makes calls with arguments of types `key` run `compiled`. A first tier
/// (CompiledFunction::firstTier) takes `tierUpAfter` > 0: after that many calls, counted over
/// every key that runs it, the dispatcher calls its Python `_tier_up(address)` once, before the
/// call that reached the count.
void addOverload(PyObject *dispatcher, const CompiledFunction &compiled,
                 const std::vector<const Type *> &key, int64_t tierUpAfter = 0);

/// Makes every key that ran `replaced` run `compiled` (the same job's level-3 code), and stops
/// counting its calls.
void replaceOverloads(PyObject *dispatcher, const CompiledFunction &replaced,
                      const CompiledFunction &compiled);

/// Gives a Python subclass of DispatcherBase the vectorcall protocol (inherited only from 3.12).
void enableVectorcall(PyObject *subclass);

} // namespace taipan::bindings
