"""The disk cache of ``cache=True``: each specialisation's object code (for a CUDA kernel, its PTX
and the cubin linked from it for each compute capability) in a file named after its compile
job's hash (source, argument types, options, the host CPU and its features, frozen
globals, every jitted callee's hash, taipan's version), under ``__pycache__`` beside the
function's file, or ``TAIPAN_CACHE_DIR`` (``NUMBA_CACHE_DIR``), or the user's cache directory when
neither is writable. A later process types the function again (for the hash, a millisecond or
two) and loads the code instead of running LLVM. Files are written to a temporary name and
renamed, so concurrent writers never leave a torn file; a file that does not read back is
ignored and written again. Values each process has its own of (a user exception class's id, a
ctypes function's address) are named in the code by load-time symbols each process resolves
when it loads it (an objmode block's call site: by the block's id and text, after typing the
function again); code that must still hold such a value (a jitclass, an exception class defined
in a function) is not cached, and a warning says why, once per
function. A TAIPAN_CACHE_DIR that cannot be written falls back, with a warning, to the user's
cache directory."""

import contextlib
import marshal
import os
import warnings
from collections import namedtuple

from taipan import _core, compile_options, config
from taipan.errors import TaipanError, TaipanWarning

# A cache file: _MAGIC, the header's length (8 bytes, little-endian), the header (a dict, as
# marshal writes it: a built-in module, so reading one imports nothing), then the blobs it lists.
_MAGIC = b"TAIPAN-CACHE-4\n"
_LENGTH_BYTES = 8
CacheStats = namedtuple("CacheStats", ["cache_hits", "cache_misses"])
# The prefix of the load-time symbols naming objmode call sites (runtime/LoadTimeSymbols.h).
_OBJMODE_SITE = b"taipan.load:objmode:"


def _user_cache_directory():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "taipan")


# TAIPAN_CACHE_DIR values already checked: the directory, or None when it cannot be written
# (warned about once).
_checked_configured = {}


def _configured_directory():
    """TAIPAN_CACHE_DIR (NUMBA_CACHE_DIR) when it is set and can be written; else None, with a
    warning the first time, and the user's cache directory is used instead (see
    cache_directories)."""
    configured = config.CACHE_DIR
    if not configured:
        return None
    if configured not in _checked_configured:
        problem = _unwritable_because(configured)
        _checked_configured[configured] = None if problem else configured
        if problem:
            warnings.warn(
                f"Cannot cache compiled code in TAIPAN_CACHE_DIR={configured!r} ({problem}): "
                f"using {_user_cache_directory()!r} instead",
                TaipanWarning,
                stacklevel=2,
            )
    return _checked_configured[configured]


def _unwritable_because(directory):
    """Why files cannot be written in ``directory`` (made if missing), or None when they can.
    A file is made and removed there: os.access says yes to root on a read-only mount."""
    import tempfile

    try:
        os.makedirs(directory, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def describe_cache_location():
    """Where cache=True puts compiled code, in words (for ``python -m taipan``)."""
    configured = _configured_directory()
    if configured:
        return f"{configured} ({config.SOURCES.get('CACHE_DIR', 'TAIPAN_CACHE_DIR')})"
    if config.CACHE_DIR:
        return f"{_user_cache_directory()} ({config.CACHE_DIR} cannot be written)"
    return (
        "__pycache__ beside each function's source file, else "
        f"{_user_cache_directory()} (TAIPAN_CACHE_DIR unset)"
    )


def _writable(directory):
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        return False
    return os.access(directory, os.W_OK)


def cache_directories(py_func):
    """Where ``py_func``'s cache files go, first choice first."""
    configured = _configured_directory()
    if configured:
        return [configured]
    if config.CACHE_DIR:  # set, but it cannot be written
        return [_user_cache_directory()]
    filename = py_func.__code__.co_filename
    directories = []
    if os.path.isfile(filename):
        directories.append(os.path.join(os.path.dirname(os.path.abspath(filename)), "__pycache__"))
    directories.append(_user_cache_directory())
    return directories


def _file_stem(py_func):
    filename = py_func.__code__.co_filename
    module = os.path.splitext(os.path.basename(filename))[0] if os.path.isfile(filename) else "main"
    qualname = py_func.__qualname__.replace("<locals>", "locals").replace("<", "").replace(">", "")
    return f"{module}.{qualname}"


def _read_record(path, job_hash):
    """(header, {blob name: bytes}) of a cache file for ``job_hash``, or None when it is
    missing, of another job, truncated or damaged."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        return None
    try:
        if not data.startswith(_MAGIC):
            return None
        header_start = len(_MAGIC) + _LENGTH_BYTES
        header_end = header_start + int.from_bytes(data[len(_MAGIC) : header_start], "little")
        if header_end > len(data):
            return None
        header = marshal.loads(data[header_start:header_end])
        if not isinstance(header, dict) or header.get("hash") != job_hash:
            return None
        if header.get("build") != list(_host_identity()):
            return None  # another build of the compiler made it: its code may differ
        blobs, offset = {}, header_end
        for name, size in header["blobs"]:
            blobs[name] = data[offset : offset + size]
            offset += size
        if offset != len(data):
            return None
        return header, blobs
    except (ValueError, KeyError, TypeError, EOFError, MemoryError, RecursionError):
        return None  # damaged: a miss, written again


def _write_record(paths, header, blobs):
    """Writes a cache file to the first writable of ``paths``: to a temporary name, then
    renamed over the final one, so a reader never sees a torn file."""
    import tempfile

    header = dict(
        header,
        build=list(_host_identity()),
        blobs=[[name, len(blob)] for name, blob in blobs.items()],
    )
    encoded = marshal.dumps(header)
    data = _MAGIC + len(encoded).to_bytes(_LENGTH_BYTES, "little") + encoded
    data += b"".join(blobs.values())
    for path in paths:
        directory = os.path.dirname(path)
        if not _writable(directory):
            continue
        temporary = None
        try:
            descriptor, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(descriptor, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
            return
        except OSError:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)


class FunctionCache:
    """The cache files of one dispatcher (CPU specialisations, or CUDA kernels)."""

    def __init__(self, dispatcher):
        self.dispatcher = dispatcher
        self.hits = 0
        self.misses = 0
        self._refused = False

    def cacheable(self, process_specific):
        """Whether code may be cached: not when it holds a value of this process only
        (``process_specific`` says which), which is warned about once per function, as Numba
        warns of what it cannot cache."""
        if not process_specific:
            return True
        if not self._refused:
            self._refused = True
            code = self.dispatcher.py_func.__code__
            warnings.warn_explicit(  # at the function's definition
                f'Cannot cache compiled function "{self.dispatcher.py_func.__qualname__}" as '
                f"{process_specific}",
                TaipanWarning,
                code.co_filename,
                code.co_firstlineno,
            )
        return False

    def _paths(self, job_hash):
        name = f"{_file_stem(self.dispatcher.py_func)}-{job_hash[:32]}.taipan"
        return [
            os.path.join(directory, name)
            for directory in cache_directories(self.dispatcher.py_func)
        ]

    def _find(self, job_hash):
        for path in self._paths(job_hash):
            record = _read_record(path, job_hash)
            if record is not None:
                self.hits += 1
                return record
        self.misses += 1
        return None

    def load_fast(self, argument_types):
        """The cached CompiledFunction for these types found by the function's code key (no
        front end, typing or LLVM), or None: and the code key, or None when the function's
        globals are not all plain values the key can cover."""
        key = code_key(self.dispatcher, argument_types)
        if key is None:
            return None, None
        for path in self._paths(key):
            record = _read_record(path, key)
            if record is None:
                continue
            header, blobs = record
            try:
                from taipan.types import type_from_spec

                compiled = _core.load_object(
                    list(argument_types),
                    type_from_spec(header["return_type"]),
                    blobs["object"],
                    header["entry"],
                    header["job_hash"],
                    header["annotations"],
                )
            except (KeyError, IndexError, TypeError, ValueError, RuntimeError, TaipanError):
                continue  # damaged: a miss, written again
            self.hits += 1
            return compiled, key
        return None, key

    def save_fast(self, compiled, key):
        """Writes the code-key record of a compiled specialisation (see ``code_key``)."""
        from taipan.types import type_spec

        if not self.cacheable(compiled.process_specific):
            return
        if _OBJMODE_SITE in (compiled.object_code or b""):
            return  # a process finds an objmode block's site by typing the function again
        return_type = type_spec(compiled.return_type)
        if key is None or return_type is None:
            return
        header = {
            "kind": "cpu by code",
            "hash": key,
            "job_hash": compiled.hash,
            "entry": compiled.entry_name,
            "return_type": return_type,
            "annotations": compiled.type_annotations,
        }
        _write_record(self._paths(key), header, {"object": compiled.object_code})

    def load(self, source, argument_types):
        """The cached CompiledFunction for these types, or None (a miss); and the job hash."""
        job_hash = _core.hash_job(source, list(argument_types))
        record = self._find(job_hash)
        if record is not None:
            header, blobs = record
            try:
                return load_object_code(
                    source, argument_types, blobs["object"], header["entry"], job_hash
                ), job_hash
            except (
                KeyError,
                ValueError,
                RuntimeError,
                TaipanError,
            ):  # damaged: a miss, written again
                self.hits -= 1
                self.misses += 1
        return None, job_hash

    def save(self, compiled, job_hash):
        """Writes a compiled specialisation, unless it holds per-process values."""
        if not self.cacheable(compiled.process_specific) or not compiled.object_code:
            return
        header = {"kind": "cpu", "hash": job_hash, "entry": compiled.entry_name}
        _write_record(self._paths(job_hash), header, {"object": compiled.object_code})

    def load_kernel(self, key):
        """(header, blobs) of a cached CUDA kernel: its PTX, and cubins by compute capability
        (blobs named "cubin sm_90"); or None. ``key``: the kernel's job hash and what else its
        code depends on (taipan.cuda.dispatcher's disk_key)."""
        return self._find(key)

    def save_kernel(self, key, kernel, cubins=None):
        """Writes a CUDA kernel's PTX, and the cubins linked from it so far, under ``key``."""
        header = {
            "kind": "cuda",
            "hash": key,
            "name": kernel.name,
            "annotations": kernel.type_annotations,
        }
        blobs = {"ptx": kernel.ptx.encode()}
        for (major, minor), cubin in (cubins or {}).items():
            blobs[f"cubin sm_{major}{minor}"] = bytes(cubin)
        _write_record(self._paths(key), header, blobs)

    def clear(self):
        """Removes this function's cache files (every specialisation)."""
        stem = _file_stem(self.dispatcher.py_func) + "-"
        for directory in cache_directories(self.dispatcher.py_func):
            try:
                names = os.listdir(directory)
            except OSError:
                continue
            for name in names:
                if name.startswith(stem) and name.endswith(".taipan"):
                    with contextlib.suppress(OSError):
                        os.unlink(os.path.join(directory, name))

    @property
    def stats(self):
        return CacheStats(self.hits, self.misses)


_PLAIN = (bool, int, float, complex, str, bytes, type(None))
_host = None


def _host_identity():
    """The CPU compiled for and its features (the host's unless taipan.config.CPU_NAME or
    CPU_FEATURES say), taipan's version and this build of the extension (its file's size and
    time), which a code key includes."""
    global _host
    if _host is None:
        info = _core.system_info()
        built = os.stat(_core.__file__)
        _host = (
            info["target_cpu_name"],
            info["target_cpu_features"],
            info["version"],
            built.st_size,
            built.st_mtime_ns,
        )
    return _host


def _code_parts(code, parts):
    """Everything that makes a code object the code it is, nested code objects included."""
    parts.append(
        (
            code.co_name,
            code.co_qualname if hasattr(code, "co_qualname") else "",
            code.co_filename,
            code.co_firstlineno,
            code.co_flags,
            code.co_argcount,
            code.co_posonlyargcount,
            code.co_kwonlyargcount,
            code.co_code,
            code.co_names,
            code.co_varnames,
            code.co_freevars,
            code.co_cellvars,
            getattr(code, "co_linetable", None) or code.co_lnotab,
        )
    )
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, type(code)):
            names |= _code_parts(constant, parts)
        else:
            parts.append((type(constant).__name__, repr(constant)))
    return names


def _is_jitted(value):
    """Whether ``value`` is a jitted function, which the key covers by its options and code: its
    class (taipan.dispatcher.Dispatcher) says so, as this module sits below the dispatcher."""
    return getattr(type(value), "covered_by_code_key", False)


def _value_parts(value, parts, seen):
    """Appends what identifies a global's value to the compiled code; False when the value is
    not one a code key can cover (arrays, objects, classes...)."""
    import builtins
    import types

    if isinstance(value, _PLAIN):
        parts.append((type(value).__name__, repr(value)))
    elif isinstance(value, tuple):
        parts.append(("tuple", len(value)))
        return all(_value_parts(item, parts, seen) for item in value)
    elif isinstance(value, types.ModuleType):
        parts.append(("module", value.__name__))
    elif getattr(builtins, getattr(value, "__name__", ""), None) is value:
        parts.append(("builtin", value.__name__))
    elif _is_jitted(value):
        if id(value) in seen:
            parts.append(("recursion", value.__qualname__))
        else:
            seen.add(id(value))
            parts.append(("jitted", compile_options.cache_key_items(value.targetoptions)))
            return _function_parts(value.py_func, parts, seen)
    else:
        return False
    return True


def _function_parts(py_func, parts, seen):
    names = _code_parts(py_func.__code__, parts)
    scope = py_func.__globals__
    import builtins

    for name in sorted(names):
        if name in scope:
            value = scope[name]
        elif hasattr(builtins, name):
            value = getattr(builtins, name)
        else:
            continue  # an attribute name, or a global not defined yet
        parts.append(("global", name))
        if not _value_parts(value, parts, seen):
            # An attribute of something else may share a global's name: only a name the
            # function reads as a global must be coverable.
            if name in _global_names(py_func.__code__):
                return False
            parts.pop()
    if not _module_attribute_parts(names, scope, parts, seen):
        return False
    for cell in py_func.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            return False
        if not _value_parts(value, parts, seen):
            return False
    if not all(_value_parts(value, parts, seen) for value in py_func.__defaults__ or ()):
        return False
    # Keyword-only defaults are frozen into callers' code as the positional ones are.
    keyword_defaults = py_func.__kwdefaults__ or {}
    for name in sorted(keyword_defaults):
        parts.append(("keyword default", name))
        if not _value_parts(keyword_defaults[name], parts, seen):
            return False
    return True


def _module_attribute_parts(names, scope, parts, seen):
    """Appends the attributes the code may read of the modules among its globals
    (``helpers.scale(x)``, ``settings.N``): a jitted function or a plain value there is covered as
    a global is, so that changing it in its own module changes the key. Functions and classes
    (the library's) are left out; False for other data (an array, a tuple the key cannot cover),
    which only the job hash, after typing, covers."""
    import types

    modules = [
        scope[name] for name in sorted(names) if isinstance(scope.get(name), types.ModuleType)
    ]
    visited = set()
    while modules:
        module = modules.pop()
        if id(module) in visited:
            continue
        visited.add(id(module))
        attributes = vars(module)  # not getattr: a module's __getattr__ may warn or import
        for name in sorted(names):
            value = attributes.get(name)
            if isinstance(value, types.ModuleType):
                modules.append(value)
            elif (_is_jitted(value) or isinstance(value, (tuple, *_PLAIN))) and value is not None:
                parts.append(("attribute", module.__name__, name))
                if not _value_parts(value, parts, seen):
                    return False
            elif value is not None and not callable(value):
                return False  # data the code may hold frozen (an array...): found by job hash
    return True


def _global_names(code):
    """The names ``code`` (and the code nested in it) reads as globals or builtins."""
    import dis

    names = {
        instruction.argval
        for instruction in dis.get_instructions(code)
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME")
    }
    for constant in code.co_consts:
        if isinstance(constant, type(code)):
            names |= _global_names(constant)
    return names


def code_key(dispatcher, argument_types):
    """A key of a specialisation computed without reading source text or typing: the
    function's code objects, the values of the globals, closure variables and defaults it uses
    (jitted callees recursively, by their code), its options, the argument types and the host
    (see ``_host_identity``). None when a value the code uses is not a plain constant, module,
    builtin or jitted function (an array, a class, a ufunc...): those functions are found by the
    job hash, after typing. parallel=True functions too, whose loop reports need typing."""
    if dispatcher.targetoptions.get("parallel"):
        return None
    parts = [
        _host_identity(),
        compile_options.cache_key_items(dispatcher.targetoptions),
        [str(t) for t in argument_types],
    ]
    if not _function_parts(dispatcher.py_func, parts, {id(dispatcher)}):
        return None
    # SHA-256 by the extension: importing CPython's _sha256 takes about 0.2 ms of a first call.
    return _core.sha256_hex(repr(parts).encode())


def load_object_code(source, argument_types, code, entry, job_hash, **target):
    """A CompiledFunction from object code compiled for ``job_hash`` (from the disk cache or a
    pickle): the job is typed again and must hash the same (same source, callees, options, CPU
    features and taipan version), else an error; no LLVM runs. ``target``: return_type,
    ufunc_loop or core_dimensions, as the compilation had them."""
    return _core.load_compiled(source, list(argument_types), code, entry, job_hash, **target)


def clear_directory(directory=None):
    """Removes every taipan cache file from ``directory`` (default: TAIPAN_CACHE_DIR, else the
    user cache directory)."""
    directory = directory or _configured_directory() or _user_cache_directory()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if name.endswith(".taipan"):
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


__all__ = [
    "CacheStats",
    "FunctionCache",
    "cache_directories",
    "clear_directory",
    "describe_cache_location",
]
