"""Pickling jitted functions. A dispatcher that its module's name finds again pickles by
reference, as functions do; one defined in ``__main__`` (a script, a notebook, ``python -c``)
or not reachable by name pickles by value: the Python function (as bytes plain ``pickle``
reads back, cloudpickle's where it is installed, else ``dumps_by_value``'s: its code, the
globals it reads, its closure cells; so plain pickle carries it, as Numba's dispatchers are
carried), the dispatcher's options and the text of the function's source file, which the
receiving process registers with ``linecache`` so that the front end reads the very text the
function was compiled from. The specialisations compiled so far travel too, as object code
(CPU) or PTX (CUDA kernels), keyed by the text of their argument types: a receiver with the
same CPU features and taipan version types the function (to check the job hash) and loads the
code without running LLVM; elsewhere it compiles again."""

import builtins
import importlib
import io
import linecache
import marshal
import pickle
import sys
import threading
import types


def _reachable_by_name(obj):
    """Whether ``module.qualname`` finds ``obj`` itself in a module other than ``__main__``."""
    module_name = getattr(obj, "__module__", None)
    if not module_name or module_name == "__main__" or "<locals>" in obj.__qualname__:
        return False
    target = sys.modules.get(module_name)
    for part in obj.__qualname__.split("."):
        target = getattr(target, part, None)
        if target is None:
            return False
    return target is obj


class _ByValuePickler(pickle.Pickler):
    """A pickler that carries functions its name does not find by value (their code, the
    globals they read, closure cells, defaults) and modules by name, as cloudpickle does for
    them; everything else pickles as usual (a jitted function by its own ``__reduce__``)."""

    def reducer_override(self, obj):
        if isinstance(obj, types.FunctionType) and not _reachable_by_name(obj):
            return _reduce_function(obj)
        if isinstance(obj, types.ModuleType):
            return importlib.import_module, (obj.__name__,)
        return NotImplemented


_pickling = threading.local()


def dumps_by_value(obj):
    """``obj`` pickled with the functions its name does not find carried by value; plain
    ``pickle.loads`` reads it back (in a process of the same Python version: code objects
    travel as ``marshal`` writes them)."""
    buffer = io.BytesIO()
    _pickling.active = True
    try:
        _ByValuePickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    finally:
        _pickling.active = False
    return buffer.getvalue()


def _by_value(py_func):
    """A function as a pickled dispatcher's state holds it: bytes that plain ``pickle.loads``
    reads back, written by cloudpickle where it is installed (which also carries classes
    defined in ``__main__`` by value) and by dumps_by_value otherwise; the function itself
    while one of those pickles (its pickler carries it, and its memo ends cycles such as a
    recursive function reaching its own dispatcher)."""
    if getattr(_pickling, "active", False):
        return py_func
    try:
        import cloudpickle
    except ImportError:
        return dumps_by_value(py_func)
    _pickling.active = True
    try:
        return cloudpickle.dumps(py_func, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        _pickling.active = False


def _reduce_function(function):
    """A function as a skeleton (its code, empty globals and closure cells) made first, so
    that a function reaching itself through its globals or cells pickles without a cycle, and
    the state filling them in."""
    from taipan.caching import _global_names

    code = function.__code__
    scope = function.__globals__
    cells = function.__closure__ or ()
    state = {
        "globals": {name: scope[name] for name in _global_names(code) if name in scope},
        "cells": [_cell_value(cell) for cell in cells],
        "defaults": function.__defaults__,
        "kwdefaults": function.__kwdefaults__,
        "qualname": function.__qualname__,
        "doc": function.__doc__,
        "dict": dict(function.__dict__),
    }
    skeleton = (marshal.dumps(code), function.__name__, function.__module__, len(cells))
    return (_function_skeleton, skeleton, state, None, None, _fill_function)


class _EmptyCell:
    """Stands for a closure cell with no value yet (pickled by reference: ``is`` finds it)."""


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:  # a variable of the enclosing function not assigned yet
        return _EmptyCell


def _function_skeleton(code_bytes, name, module, cell_count):
    scope = {"__builtins__": builtins, "__name__": module}
    closure = tuple(types.CellType() for _ in range(cell_count)) or None
    return types.FunctionType(marshal.loads(code_bytes), scope, name, None, closure)


def _fill_function(function, state):
    function.__globals__.update(state["globals"])
    for cell, value in zip(function.__closure__ or (), state["cells"]):
        if value is not _EmptyCell:
            cell.cell_contents = value
    function.__defaults__ = state["defaults"]
    function.__kwdefaults__ = state["kwdefaults"]
    function.__qualname__ = state["qualname"]
    function.__doc__ = state["doc"]
    function.__dict__.update(state["dict"])


def function_state(py_func, options):
    """What travels with a function pickled by value: the Python function (as bytes of
    ``dumps_by_value`` when its name does not find it, so plain ``pickle`` carries a function
    defined in another function or in ``__main__``, as Numba's dispatchers pickle), its options,
    its file's name and the verified source text."""
    from taipan.frontend import source_lines

    return {
        "py_func": py_func if _reachable_by_name(py_func) else _by_value(py_func),
        "options": dict(options),
        "filename": py_func.__code__.co_filename,
        "source_lines": source_lines(py_func),
    }


def restore_function(state):
    """The Python function of a ``function_state``, with its source text registered with
    linecache under its file's name, so the front end reads the text it was compiled from."""
    py_func, filename = state["py_func"], state["filename"]
    if isinstance(py_func, bytes):
        py_func = pickle.loads(py_func)
    if py_func.__code__.co_filename != filename:
        # cloudpickle 3.1 sends code objects as "<dynamic-code>": give the function back its
        # file's name, under which its text is registered (and which errors name).
        py_func.__code__ = py_func.__code__.replace(co_filename=filename)
    if state["source_lines"]:
        lines = state["source_lines"]
        linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)
    return py_func


def carried_code(compiled):
    """A compiled CPU specialisation as a pickle carries it, or None when it has no object code
    (a CUDA kernel, whose PTX its dispatcher carries itself) or holds per-process values (an
    objmode block, a jitclass, an exception class defined in a function, a ctypes callback: see
    taipan.caching), or is a first tier (level-0 code: the receiving process compiles its own
    tiers)."""
    if not getattr(compiled, "object_code", None):
        return None
    if compiled.process_specific or compiled.first_tier:
        return None
    return {"hash": compiled.hash, "entry": compiled.entry_name, "code": compiled.object_code}


def load_carried(carried, source, argument_types, **job):
    """``carried`` (a carried_code entry, or None) loaded for these argument types (``job``:
    return_type, ufunc_loop, core_dimensions or cfunc, as compiled), or None when there is none
    or its job hash differs here (another CPU, taipan version or callee): then it compiles."""
    if carried is None:
        return None
    from taipan.caching import load_object_code
    from taipan.errors import TaipanError

    try:
        return load_object_code(
            source, argument_types, carried["code"], carried["entry"], carried["hash"], **job
        )
    except (RuntimeError, ValueError, TaipanError):
        return None


def carried_key(argument_types):
    """How a pickle names a specialisation: the text of its argument types."""
    return tuple(str(t) for t in argument_types)


def reduce_dispatcher(dispatcher):
    """``__reduce__`` of a CPU dispatcher: by reference, or by value (see the module)."""
    if _reachable_by_name(dispatcher):
        return dispatcher.__qualname__
    state = function_state(dispatcher.py_func, dispatcher.targetoptions)
    compiled = {
        carried_key(key): carried_code(value)
        for key, value in getattr(dispatcher, "_overloads", {}).items()
    }
    state["compiled"] = {key: value for key, value in compiled.items() if value is not None}
    # The shell is made first and memoised, so a function that calls itself through its
    # global name (a recursive jitted function) pickles without an endless cycle.
    return (_dispatcher_shell, (type(dispatcher), pickle_id(dispatcher)), state)


# Every object pickled by value carries an id, and a process unpickles one id into one object:
# a Dask worker receiving the same function with each task (as Numba does with its dispatchers'
# uuids) compiles or loads it once, and a round trip in the sending process gives the object
# back. Dispatchers live until the process ends by design, so the table holds them strongly.
_by_pickle_id = {}


def pickle_id(obj):
    """The id ``obj`` travels under (made on its first pickling)."""
    identity = obj.__dict__.get("_pickle_id")
    if identity is None:
        import uuid

        identity = obj.__dict__["_pickle_id"] = uuid.uuid4().hex
        _by_pickle_id[identity] = obj
    return identity


def _dispatcher_shell(cls, identity=None):
    """The object for ``identity``: the one this process already has (whose ``__setstate__``
    then does nothing, see ``is_set_up``), else a new one to set up."""
    existing = _by_pickle_id.get(identity)
    if existing is not None and type(existing) is cls:
        return existing
    new = cls.__new__(cls)
    if identity is not None:
        new.__dict__["_pickle_id"] = identity
        _by_pickle_id[identity] = new
    return new


def is_set_up(obj):
    """Whether ``__setstate__`` meets an object this process already has (see _by_pickle_id)."""
    return "py_func" in obj.__dict__


def restore_dispatcher(dispatcher, state):
    """``__setstate__``: the source text registered, then the dispatcher set up as new, with
    the code the pickle carried kept for its first calls (nothing for one already here)."""
    if is_set_up(dispatcher):
        return
    type(dispatcher).__init__(dispatcher, restore_function(state), state["options"])
    dispatcher._carried = dict(state.get("compiled") or {})


def compiler_state(compiler):
    """What travels with a vectorize or guvectorize ufunc pickled by value: its function state,
    its layout (gufuncs) and each loop's argument types, declared return type and object code."""
    state = function_state(compiler.py_func, compiler.options)
    state["compiler_class"] = type(compiler)  # taipan.ufuncs' loop or gufunc compiler
    state["layout"] = getattr(compiler, "layout", None)
    state["loops"] = [
        (arguments, compiler.declared.get(arguments), carried_code(compiled))
        for arguments, _, compiled in compiler.loops
    ]
    return state


def restore_compiler(state):
    """The loop compiler of a pickled ufunc, its loops loaded from the carried object code
    (compiled again where the job hash differs here)."""
    compiler = state["compiler_class"].restored(restore_function(state), state)
    compiler.carried = {arguments: code for arguments, _, code in state["loops"] if code}
    for arguments, declared, _ in state["loops"]:
        compiler.add(arguments, declared)
    return compiler


def reduce_dynamic_ufunc(ufunc):
    """``__reduce__`` of a DUFunc or GUFunc: by reference, or by value with its loops."""
    if _reachable_by_name(ufunc):
        return ufunc.__qualname__
    state = compiler_state(ufunc._compiler)
    state["frozen"] = ufunc._frozen
    return (_dispatcher_shell, (type(ufunc), pickle_id(ufunc)), state)


# numpy.ufunc objects built by @vectorize/@guvectorize with signatures, by id: NumPy pickles
# ufuncs by module and name, which fails for one defined in __main__; those go by value.
_built_ufuncs = {}
_numpy_reduce_ufunc = None


def remember_built_ufunc(ufunc, compiler, identity=None):
    """Records a numpy.ufunc taipan built, so that pickling it can carry it by value."""
    global _numpy_reduce_ufunc
    import copyreg

    import numpy

    if _numpy_reduce_ufunc is None:
        _numpy_reduce_ufunc = copyreg.dispatch_table.get(numpy.ufunc, numpy.ufunc.__reduce__)
        copyreg.pickle(numpy.ufunc, _reduce_numpy_ufunc)
    import uuid

    identity = identity or uuid.uuid4().hex
    _built_ufuncs[id(ufunc)] = (ufunc, compiler, identity)
    _by_pickle_id[identity] = ufunc


def _module_holding(ufunc):
    """The name of a module other than __main__ whose attribute ``ufunc.__name__`` is
    ``ufunc``, or None."""
    for name, module in list(sys.modules.items()):
        if name in ("__main__", "__mp_main__") or module is None:
            continue
        if getattr(module, ufunc.__name__, None) is ufunc:
            return name
    return None


def _reduce_numpy_ufunc(ufunc):
    built = _built_ufuncs.get(id(ufunc))
    if built is None or built[0] is not ufunc:
        return _numpy_reduce_ufunc(ufunc)  # NumPy's own ufuncs, by name
    module = _module_holding(ufunc)
    if module is not None:
        return _ufunc_from_module, (module, ufunc.__name__)
    state = compiler_state(built[1])
    state["pickle_id"] = built[2]
    return _rebuild_numpy_ufunc, (state,)


def _ufunc_from_module(module, name):
    import importlib

    return getattr(importlib.import_module(module), name)


def _rebuild_numpy_ufunc(state):
    existing = _by_pickle_id.get(state.get("pickle_id"))
    if existing is not None:
        return existing
    compiler = restore_compiler(state)
    ufunc = compiler.build()
    compiler.register_built_calls(ufunc)
    remember_built_ufunc(ufunc, compiler, state.get("pickle_id"))
    return ufunc


def reduce_cfunc(cfunc):
    """``__reduce__`` of a cfunc: by reference, or by value with its signature and object
    code."""
    if _reachable_by_name(cfunc):
        return cfunc.__qualname__
    state = function_state(cfunc.py_func, cfunc.targetoptions)
    state["argument_types"] = cfunc.argument_types
    state["return_type"] = cfunc.return_type
    state["compiled"] = carried_code(cfunc._compile())
    return (_dispatcher_shell, (type(cfunc), pickle_id(cfunc)), state)
