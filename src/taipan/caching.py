"""The disk cache of ``cache=True``: each specialisation's object code (for a CUDA kernel, its PTX
and the cubin linked from it for each compute capability) in a file named after its compile
job's hash (source, argument types, options, the host CPU and its features, frozen
globals, every jitted callee's hash, taipan's version), under ``__pycache__`` beside the
function's file, or ``TAIPAN_CACHE_DIR`` (``NUMBA_CACHE_DIR``), or the user's cache directory when
neither is writable. A later process types the function again (for the hash, a millisecond or
two) and loads the code instead of running LLVM. Files are written to a temporary name and
renamed, so concurrent writers never leave a torn file; a file that does not read back is
ignored and written again. Code that holds per-process values (a user exception's registry id,
a ctypes function's address) is not cached."""

import contextlib
import json
import os
from collections import namedtuple

from taipan import _core
from taipan.errors import TaipanError

_MAGIC = b"TAIPAN-CACHE-2\n"
CacheStats = namedtuple("CacheStats", ["cache_hits", "cache_misses"])


def _user_cache_directory():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "taipan")


def _configured_directory():
    return os.environ.get("TAIPAN_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR")


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
        header_end = data.index(b"\n", len(_MAGIC))
        header = json.loads(data[len(_MAGIC) : header_end])
        if header.get("hash") != job_hash:
            return None
        blobs, offset = {}, header_end + 1
        for name, size in header["blobs"]:
            blobs[name] = data[offset : offset + size]
            offset += size
        if offset != len(data):
            return None
        return header, blobs
    except (ValueError, KeyError, TypeError):  # damaged: a miss, written again
        return None


def _write_record(paths, header, blobs):
    """Writes a cache file to the first writable of ``paths``: to a temporary name, then
    renamed over the final one, so a reader never sees a torn file."""
    import tempfile

    header = dict(header, blobs=[[name, len(blob)] for name, blob in blobs.items()])
    data = _MAGIC + json.dumps(header).encode() + b"\n" + b"".join(blobs.values())
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
        if compiled.process_specific or not compiled.object_code:
            return
        header = {"kind": "cpu", "hash": job_hash, "entry": compiled.entry_name}
        _write_record(self._paths(job_hash), header, {"object": compiled.object_code})

    def load_kernel(self, job_hash):
        """(header, blobs) of a cached CUDA kernel: its PTX, and cubins by compute capability
        (blobs named "cubin sm_90"); or None."""
        return self._find(job_hash)

    def save_kernel(self, kernel, cubins=None):
        """Writes a CUDA kernel's PTX, and the cubins linked from it so far."""
        header = {
            "kind": "cuda",
            "hash": kernel.hash,
            "name": kernel.name,
            "annotations": kernel.type_annotations,
        }
        blobs = {"ptx": kernel.ptx.encode()}
        for (major, minor), cubin in (cubins or {}).items():
            blobs[f"cubin sm_{major}{minor}"] = bytes(cubin)
        _write_record(self._paths(kernel.hash), header, blobs)

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


__all__ = ["CacheStats", "FunctionCache", "cache_directories", "clear_directory"]
