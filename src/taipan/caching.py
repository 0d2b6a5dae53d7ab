"""The disk cache of ``cache=True``: each specialisation's object code in a file named after its
compile job's hash (source, argument types, options, the host CPU and its features, frozen
globals, every jitted callee's hash, taipan's version), under ``__pycache__`` beside the
function's file, or ``TAIPAN_CACHE_DIR`` (``NUMBA_CACHE_DIR``), or the user's cache directory when
neither is writable. A later process types the function again (for the hash, a millisecond or
two) and loads the code instead of running LLVM. Files are written to a temporary name and
renamed, so concurrent writers never leave a torn file; a file that does not read back is
ignored and written again. Code that holds per-process values (a user exception's registry id,
a ctypes function's address) is not cached."""

import os
from collections import namedtuple

from taipan import _core, config
from taipan.errors import TaipanError

_MAGIC = b"TAIPAN-CACHE-1\n"
CacheStats = namedtuple("CacheStats", ["cache_hits", "cache_misses"])


def _user_cache_directory():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "taipan")


def _configured_directory():
    return config.CACHE_DIR


def describe_cache_location():
    """Where cache=True puts compiled code, in words (for ``python -m taipan``)."""
    configured = _configured_directory()
    if configured:
        return f"{configured} ({config.SOURCES.get('CACHE_DIR', 'TAIPAN_CACHE_DIR')})"
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


class FunctionCache:
    """The cache files of one dispatcher."""

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

    def load(self, source, argument_types):
        """The cached CompiledFunction for these types, or None (a miss); and the job hash."""
        job_hash = _core.hash_job(source, list(argument_types))
        for path in self._paths(job_hash):
            compiled = self._read(path, source, argument_types, job_hash)
            if compiled is not None:
                self.hits += 1
                return compiled, job_hash
        self.misses += 1
        return None, job_hash

    def _read(self, path, source, argument_types, job_hash):
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError:
            return None
        try:
            if not data.startswith(_MAGIC):
                return None
            header_end = data.index(b"\n", len(_MAGIC))
            stored_hash, entry, size = data[len(_MAGIC) : header_end].decode().split(" ")
            code = data[header_end + 1 :]
            if stored_hash != job_hash or len(code) != int(size):
                return None
            return _core.load_compiled(source, list(argument_types), code, entry, job_hash)
        except (ValueError, RuntimeError, TaipanError):  # damaged: a miss, written again
            return None

    def save(self, compiled, job_hash):
        """Writes a compiled specialisation (atomically), unless it holds per-process values."""
        if compiled.process_specific or not compiled.object_code:
            return
        import tempfile

        code = compiled.object_code
        header = f"{job_hash} {compiled.entry_name} {len(code)}"
        data = _MAGIC + header.encode() + b"\n" + code
        for path in self._paths(job_hash):
            directory = os.path.dirname(path)
            if not _writable(directory):
                continue
            try:
                descriptor, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
                with os.fdopen(descriptor, "wb") as file:
                    file.write(data)
                os.replace(temporary, path)
                return
            except OSError:
                try:
                    os.unlink(temporary)
                except (OSError, UnboundLocalError):
                    pass

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
                    try:
                        os.unlink(os.path.join(directory, name))
                    except OSError:
                        pass

    @property
    def stats(self):
        return CacheStats(self.hits, self.misses)


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
