"""NumPy functions implemented in Python and compiled by taipan, registered with
``taipan.extending.overload`` like a user's overloads, one module per topic.

Topic modules are imported lazily: the registry (``taipan.extending``) imports a topic the first
time a compiled function refers to one of its functions, methods or attributes, so that
``import taipan`` and first compiles that use none of them do not pay for the whole library
(importing NumPy's helpers, building typing functions).

Adding a function changes one file: write its overload in a topic module (a new ``<topic>.py``
here is a new topic). The manifest saying which topic registers which NumPy function (FUNCTIONS,
MEMBERS, TOPICS) is read off the topic modules' sources, without importing them, the first time
it is asked for: a line of the form ``@overload(np.<name>)`` or ``overload(np.<name>)(...)``
(``np.linalg.<name>`` for numpy.linalg) registers a function, ``@overload_method(types.Array,
"<name>")`` or ``@overload_attribute(types.Array, "<name>")`` an array member. The result is kept
in a small marshal file under ``__pycache__`` beside the modules (else in the user's taipan cache
directory), valid while every module's size and modification time are unchanged, so later
processes read one file instead of scanning ~160 kB of source. tests/python/
test_numpy_library_manifest.py fails when what this finds and what the topics register differ
(an overload written in another form)."""

import importlib
import marshal
import os
import sys
import types

_DIRECTORY = os.path.dirname(os.path.abspath(__file__))
# Bump when the scan or the cache file's layout changes.
_FORMAT = "taipan-numpy-library-manifest-1"
_CACHE_NAME = "taipan_manifest.marshal"

_manifest = None  # (TOPICS, FUNCTIONS, MEMBERS) once derived
_loaded = set()  # topics imported through load()
_by_object = None  # NumPy function object -> (topic, name), built from FUNCTIONS on first use
_unresolved = ()  # (name, topic) of FUNCTIONS whose NumPy submodule was not imported yet
_modules_seen = -1  # len(sys.modules) when _unresolved was last looked at


def __getattr__(name):
    """TOPICS (the topic modules, sorted), FUNCTIONS ({"numpy.<name>" or "numpy.linalg.<name>":
    topic}, the registry's and the resolver's names, including functions missing from the
    installed NumPy) and MEMBERS ({array method or attribute name: topic}), derived on first
    access and then kept as ordinary module attributes."""
    if name in ("TOPICS", "FUNCTIONS", "MEMBERS"):
        topics, functions, members = _derived_manifest()
        globals().update(TOPICS=topics, FUNCTIONS=functions, MEMBERS=members)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _module_stamps():
    """((file name, size, mtime_ns), ...) of every module that may be a topic, sorted: the key
    of the cached manifest (a file added, removed or edited changes it)."""
    stamps = []
    with os.scandir(_DIRECTORY) as entries:
        for entry in entries:
            if entry.name.endswith(".py") and not entry.name.startswith("__"):
                status = entry.stat()
                stamps.append((entry.name, status.st_size, status.st_mtime_ns))
    stamps.sort()
    return tuple(stamps)


def _derived_manifest():
    """(TOPICS, FUNCTIONS, MEMBERS): from the cache file when its key matches, else scanned."""
    global _manifest
    if _manifest is None:
        stamps = _module_stamps()
        key = (_FORMAT, _DIRECTORY, stamps)
        _manifest = _read_cached(key)
        if _manifest is None:
            _manifest = _scan(stamps)
            _write_cached(key, _manifest)
    return _manifest


def _read_cached(key):
    for path in _cache_paths():
        try:
            with open(path, "rb") as file:
                stored_key, manifest = marshal.load(file)
        except (OSError, EOFError, ValueError, TypeError):  # absent, unreadable or damaged
            continue
        if stored_key == key:
            return manifest
    return None


def _write_cached(key, manifest):
    data = marshal.dumps((key, manifest))
    for path in _cache_paths():
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(temporary, "wb") as file:
                file.write(data)
            os.replace(temporary, path)  # readers see the old file or the new one, never half
            return
        except OSError:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _cache_paths():
    """Where the derived manifest is kept, first choice first: beside the modules' bytecode, else
    (a read-only installation) in the user's taipan cache directory, one file per installation
    directory so that two checkouts or environments never share an entry."""
    yield os.path.join(_DIRECTORY, "__pycache__", _CACHE_NAME)
    import zlib  # built in; imported only when the first choice could not be used

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    tag = f"{zlib.crc32(_DIRECTORY.encode('utf-8', 'surrogateescape')):08x}"
    yield os.path.join(base, "taipan", f"numpy_library-{tag}-{_CACHE_NAME}")


def _scan(stamps):
    """(TOPICS, FUNCTIONS, MEMBERS) read off the modules' sources (see the module's docstring for
    the forms recognised); a module registering none of them is a helper, not a topic."""
    import re  # NumPy, imported before any lookup, has imported it already

    function = re.compile(
        r"^[ \t]*@?overload\(\s*(?:np|numpy)\.([A-Za-z_][\w.]*)\s*[,)]", re.MULTILINE
    )
    member = re.compile(
        r"^[ \t]*@?overload_(?:method|attribute)\(\s*types\.Array\s*,\s*[\"'](\w+)[\"']",
        re.MULTILINE,
    )
    topics, functions, members = [], {}, {}
    for file_name, _size, _mtime in stamps:
        with open(os.path.join(_DIRECTORY, file_name), encoding="utf-8") as file:
            source = file.read()
        topic = file_name[: -len(".py")]
        found = False
        for match in function.finditer(source):
            functions["numpy." + match.group(1)] = topic
            found = True
        for match in member.finditer(source):
            members[match.group(1)] = topic
            found = True
        if found:
            topics.append(topic)
    return tuple(topics), functions, members


def load(topic):
    """Imports one topic module (registering its overloads); later calls return at once."""
    if topic not in _loaded:
        if topic not in _derived_manifest()[0]:
            raise ValueError(f"taipan.numpy_library has no topic {topic!r}")
        importlib.import_module(f"{__name__}.{topic}")
        _loaded.add(topic)


def load_all():
    """Imports every topic module."""
    for topic in _derived_manifest()[0]:
        load(topic)


def numpy_object(name, importing=True):
    """The object a FUNCTIONS name stands for in the imported NumPy ("numpy.linalg.norm" is
    np.linalg.norm), or None when this NumPy lacks it. With `importing` False, None also while
    a NumPy submodule on the path is not imported yet: NumPy imports some (np.polynomial,
    np.ma...) when first read through its module __getattr__, which the listing below must not
    pay for (30 ms and more in a fresh process) when the program never touched them; a
    module's own attributes are then read from its __dict__, so its __getattr__ never runs."""
    value = sys.modules.get("numpy")
    for part in name.split(".")[1:]:
        if value is None:
            return None
        if not importing and isinstance(value, types.ModuleType):
            value = vars(value).get(part)
        else:
            value = getattr(value, part, None)
    return value


def _listing(function):
    """(topic, FUNCTIONS name) of the NumPy function object ``function``, else None."""
    global _by_object, _unresolved, _modules_seen
    if _by_object is None:
        _by_object, _unresolved = {}, list(_derived_manifest()[1].items())
    if _unresolved and _modules_seen != len(sys.modules):
        # Names whose NumPy submodule was not imported when last looked at: a function of it
        # can only reach the compiler once the program has imported that submodule.
        _modules_seen = len(sys.modules)
        pending = []
        for name, topic in _unresolved:
            value = numpy_object(name, importing=False)
            if value is None:
                pending.append((name, topic))
            else:
                _by_object[value] = (topic, name)
        _unresolved = pending
    try:
        return _by_object.get(function)
    except TypeError:  # unhashable
        return None


def topic_of(function):
    """The topic implementing the NumPy function object ``function``, else None. Needs NumPy
    imported (the caller checks)."""
    listing = _listing(function)
    return listing[0] if listing else None


def name_of(function):
    """The name the manifest lists the NumPy function object ``function`` under
    ("numpy.polynomial.polyutils.trimseq"), else None. Needs NumPy imported."""
    listing = _listing(function)
    return listing[1] if listing else None
