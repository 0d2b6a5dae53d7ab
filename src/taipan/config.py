"""Settings read from environment variables once, when taipan is imported.

``OPTIONS`` is the one table of them: each row names the attribute of this module that holds
the value, the ``TAIPAN_`` variable, the Numba variables accepted as aliases, how the text is
read and the default. A ``TAIPAN_`` variable that is set (to anything but the empty string) wins
over its Numba alias, even when it says ``0``. A value that cannot be read gives a
RuntimeWarning and the default. ``SOURCES`` says which variable set each attribute that is not
at its default; ``python -m taipan`` prints them, and docs/configuration.md describes them."""

import os
import sys
import warnings
from collections import namedtuple

from taipan import _core, compile_options

# One setting: its attribute here, its TAIPAN_ variable, Numba's names for it, `read` (the
# variable's text, stripped and not empty, to the value), its default and what it does.
# (collections.namedtuple, not typing.NamedTuple: typing imports re, which import taipan avoids.)
Option = namedtuple(
    "Option", ["attribute", "variable", "aliases", "read", "default", "description"]
)


def _flag(text: str) -> bool:
    return text.lower() not in ("0", "false", "no", "off")


def _optimisation_level(text: str) -> int:
    if text.lower() == "max":  # Numba's level above 3: taipan's 3 is its highest
        return 3
    if text not in ("0", "1", "2", "3"):
        raise ValueError("an optimisation level is 0, 1, 2, 3 or 'max'")
    return int(text)


def _thread_count(text: str) -> int:
    count = int(text)
    if count <= 0:
        raise ValueError("the number of threads must be positive")
    return count


def _path(text: str) -> str:
    # Made absolute now, so that a later os.chdir() does not move it (as Numba does).
    return os.path.abspath(os.path.expanduser(text))


def _milliseconds_or_off(text: str):
    if text.lower() in ("off", "no", "false"):
        return None
    value = float(text)
    if value < 0:
        raise ValueError("a time in milliseconds is not negative; 'off' turns it off")
    return value


def _call_count(text: str) -> int:
    count = int(text)
    if count < 0:
        raise ValueError("a number of calls is not negative; 0 turns it off")
    return count


def _count(text: str) -> int:
    count = int(text)
    if count < 0:
        raise ValueError("a count is not negative")
    return count


def _ratio(text: str) -> float:
    ratio = float(text)
    if not 0.0 <= ratio <= 1.0:
        raise ValueError("a ratio is 0 to 1")
    return ratio


def _diagnostics_level(text: str) -> int:
    level = int(text)
    if not 0 <= level <= 4:
        raise ValueError("the level is 0 to 4")
    return level


OPTIONS = (
    Option(
        "DISABLE_JIT",
        "TAIPAN_DISABLE_JIT",
        ("NUMBA_DISABLE_JIT",),
        _flag,
        False,
        "@jit and @njit return the Python function unchanged (for debugging)",
    ),
    Option(
        "BOUNDSCHECK",
        "TAIPAN_BOUNDSCHECK",
        ("NUMBA_BOUNDSCHECK",),
        _flag,
        None,
        "0 or 1 turns index checks off or on for every CPU function, overriding boundscheck=; "
        "unset, each function's boundscheck= decides (default off)",
    ),
    Option(
        "OPT",
        "TAIPAN_OPT",
        ("NUMBA_OPT",),
        _optimisation_level,
        3,
        "LLVM optimisation level of CPU code, 0 to 3 ('max' is 3); loops vectorize from 2",
    ),
    Option(
        "CPU_NAME",
        "TAIPAN_CPU_NAME",
        ("NUMBA_CPU_NAME",),
        str,
        None,
        "the CPU that CPU code is compiled for, as LLVM names it (default: the host's); "
        "'generic' gives code for any CPU of the architecture, for caches shared between machines",
    ),
    Option(
        "CPU_FEATURES",
        "TAIPAN_CPU_FEATURES",
        ("NUMBA_CPU_FEATURES",),
        str,
        None,
        "the features of CPU_NAME as LLVM lists them ('+avx2,-avx512f'; default: the host's, "
        "none for 'generic'; set but empty: the named CPU's own)",
    ),
    Option(
        "CACHE_DIR",
        "TAIPAN_CACHE_DIR",
        ("NUMBA_CACHE_DIR",),
        _path,
        "",
        "where cache=True keeps compiled code (default: __pycache__ beside the source file, "
        "else the user's cache directory)",
    ),
    Option(
        "NUM_THREADS",
        "TAIPAN_NUM_THREADS",
        ("NUMBA_NUM_THREADS",),
        _thread_count,
        None,  # every hardware thread: the thread pool's own count, below
        "threads of taipan's thread pool for parallel code (default: every hardware thread); "
        "set_num_threads() chooses how many of them run",
    ),
    Option(
        "TIER_UP_CALLS",
        "TAIPAN_TIER_UP_CALLS",
        (),
        _call_count,
        100_000,
        "tiered compilation: a long function without loops or recursion runs level-0 code "
        "(compiled about 4x faster) until this many calls, then its level-3 code; 0 compiles "
        "at level 3 from the first call",
    ),
    Option(
        "TIMING",
        "TAIPAN_TIMING",
        (),
        _flag,
        False,
        "prints where each compilation spent its time to stderr",
    ),
    Option(
        "DUMP_ANNOTATION",
        "TAIPAN_DUMP_ANNOTATION",
        ("TAIPAN_DEBUG_TYPEINFER", "NUMBA_DUMP_ANNOTATION", "NUMBA_DEBUG_TYPEINFER"),
        _flag,
        False,
        "prints each compiled function's source with its variables' types to stderr "
        "(inspect_types) as it compiles",
    ),
    Option(
        "DUMP_LLVM",
        "TAIPAN_DUMP_LLVM",
        ("NUMBA_DUMP_LLVM",),
        _flag,
        False,
        "prints each compiled function's optimised LLVM IR (inspect_llvm) to stdout as it compiles",
    ),
    Option(
        "ANNOTATE_HTML",
        "TAIPAN_ANNOTATE_HTML",
        ("NUMBA_DUMP_HTML",),
        _path,
        "",
        "an HTML file rewritten after each compilation with every function compiled so far: "
        "the source, each line's types, its parallel and vectorized loops",
    ),
    Option(
        "PARALLEL_DIAGNOSTICS",
        "TAIPAN_PARALLEL_DIAGNOSTICS",
        ("NUMBA_PARALLEL_DIAGNOSTICS",),
        _diagnostics_level,
        0,
        "1 to 4: prints parallel_diagnostics(level=) of each parallel=True function to stderr "
        "as it compiles",
    ),
    Option(
        "ALWAYS_WARN_UNINIT_VAR",
        "TAIPAN_ALWAYS_WARN_UNINIT_VAR",
        ("NUMBA_ALWAYS_WARN_UNINIT_VAR",),
        _flag,
        False,
        "compiling a function that reads a local on a path where it may be unassigned warns "
        "'Detected uninitialized variable x' (NumbaWarning), as Numba does; such a read "
        "raises UnboundLocalError at run time either way",
    ),
    Option(
        "GUFUNC_SPECIALIZE_MS",
        "TAIPAN_GUFUNC_SPECIALIZE_MS",
        (),
        _milliseconds_or_off,
        20.0,
        "a @guvectorize loop compiles a copy for core sizes 1 to 16 once its generic loop has "
        "run this many milliseconds on them (the copy's loops have constant trip counts); "
        "'off' never does",
    ),
    Option(
        "CUDA_LOW_OCCUPANCY_WARNINGS",
        "TAIPAN_CUDA_LOW_OCCUPANCY_WARNINGS",
        ("NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS",),
        _flag,
        True,
        "a kernel launched on fewer than 128 blocks, which leaves most of a GPU idle, warns "
        "(NumbaPerformanceWarning), as numba-cuda does",
    ),
    Option(
        "CUDA_ARRAY_INTERFACE_SYNC",
        "TAIPAN_CUDA_ARRAY_INTERFACE_SYNC",
        ("NUMBA_CUDA_ARRAY_INTERFACE_SYNC",),
        _flag,
        True,
        "cuda.as_cuda_array and cuda.from_cuda_array_interface synchronize the stream the "
        "producer of an imported array names (kernel launches always order after it)",
    ),
    Option(
        "CUDA_WARN_ON_IMPLICIT_COPY",
        "TAIPAN_CUDA_WARN_ON_IMPLICIT_COPY",
        ("NUMBA_CUDA_WARN_ON_IMPLICIT_COPY",),
        _flag,
        False,
        "a kernel launch that copies a host (NumPy) array to the device and back warns "
        "(NumbaPerformanceWarning), as numba-cuda does by default",
    ),
    Option(
        "CUDA_DEALLOCS_COUNT",
        "TAIPAN_CUDA_DEALLOCS_COUNT",
        ("NUMBA_CUDA_DEALLOCS_COUNT",),
        _count,
        10,
        "freed device memory waits in numba-cuda's pending deallocations until more than this "
        "many blocks are pending (or CUDA_DEALLOCS_RATIO of the memory); cuda.defer_cleanup() "
        "keeps them",
    ),
    Option(
        "CUDA_DEALLOCS_RATIO",
        "TAIPAN_CUDA_DEALLOCS_RATIO",
        ("NUMBA_CUDA_DEALLOCS_RATIO",),
        _ratio,
        0.2,
        "the share of a device's memory that pending deallocations may hold before they are "
        "freed (numba-cuda's)",
    ),
    Option(
        "CUDA_NVRTC_EXTRA_SEARCH_PATHS",
        "TAIPAN_CUDA_NVRTC_EXTRA_SEARCH_PATHS",
        ("NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS",),
        str,
        "",
        "more folders (':'-separated, numba-cuda's) where NVRTC looks for the headers of the "
        "CUDA C++ given to link=; read at each compilation",
    ),
    Option(
        "CUDA_DEBUGINFO_DEFAULT",
        "TAIPAN_CUDA_DEBUGINFO_DEFAULT",
        ("NUMBA_CUDA_DEBUGINFO",),
        _flag,
        False,
        "the debug= of cuda.jit, cuda.compile and cuda.compile_all when not given "
        "(numba-cuda's default)",
    ),
    Option(
        "CUDA_NRT_STATS",
        "TAIPAN_CUDA_NRT_STATS",
        ("NUMBA_CUDA_NRT_STATS",),
        _flag,
        False,
        "the device memory runtime counts the blocks kernels allocate and free from the first "
        "use of cuda.nrt.rtsys on (numba-cuda's rtsys.get_allocation_stats())",
    ),
    Option(
        "DISABLE_CUDA",
        "TAIPAN_DISABLE_CUDA",
        ("NUMBA_DISABLE_CUDA",),
        _flag,
        False,
        "taipan.cuda acts as if there were no GPU: is_available() is False and every call "
        "that needs the driver raises CudaSupportError naming the variable",
    ),
    Option(
        "ENABLE_CUDASIM",
        "TAIPAN_ENABLE_CUDASIM",
        ("NUMBA_ENABLE_CUDASIM",),
        _flag,
        False,
        "taipan.cuda becomes the CUDA simulator: kernels run on the CPU in the Python "
        "interpreter, one Python thread per GPU thread of a block",
    ),
)

# The variable that set each attribute, for those not at their default.
SOURCES: dict = {}


def _read(option: Option, environ) -> tuple:
    """(the option's value, the variable it came from or None for the default)."""
    for name in (option.variable, *option.aliases):
        text = environ.get(name, "").strip()
        if not text:
            continue
        try:
            return option.read(text), name
        except ValueError as error:
            warnings.warn(
                f"taipan: {name}={text!r} is not understood ({error}); "
                f"{option.attribute} keeps its default, {option.default!r}",
                RuntimeWarning,
                stacklevel=2,
            )
            return option.default, None
    return option.default, None


for _option in OPTIONS:
    _value, _source = _read(_option, os.environ)
    globals()[_option.attribute] = _value
    if _source is not None:
        SOURCES[_option.attribute] = _source

# Numba's rules for the CPU: a features variable set to the empty string means the named CPU's
# own features, and the CPU 'generic' without features has none (code any CPU of the
# architecture runs). Compilations then use them; a CPU or feature LLVM does not know warns.
if globals()["CPU_FEATURES"] is None and (
    any(name in os.environ for name in ("TAIPAN_CPU_FEATURES", "NUMBA_CPU_FEATURES"))
    or str(globals()["CPU_NAME"]).lower() == "generic"
):
    CPU_FEATURES = ""
if globals()["CPU_NAME"] is not None or globals()["CPU_FEATURES"] is not None:
    try:
        _core.set_cpu_target(globals()["CPU_NAME"], globals()["CPU_FEATURES"])
    except ValueError as _error:
        warnings.warn(
            f"taipan: the CPU {globals()['CPU_NAME']!r} with features "
            f"{globals()['CPU_FEATURES']!r} is not understood ({_error}); CPU code is compiled "
            "for the host",
            RuntimeWarning,
            stacklevel=2,
        )
        CPU_NAME = CPU_FEATURES = None
        SOURCES.pop("CPU_NAME", None)
        SOURCES.pop("CPU_FEATURES", None)

# The thread pool (C++) reads TAIPAN_NUM_THREADS / NUMBA_NUM_THREADS itself when it starts:
# this is the count it found, every hardware thread when neither is set. NUMBA_NUM_THREADS is
# Numba's name for this attribute.
NUM_THREADS = NUMBA_NUM_THREADS = _core.maximum_threads()
NUMBA_DEFAULT_NUM_THREADS = os.cpu_count() or 1
# taipan runs parallel code on its own thread pool, whatever layer is asked for. The pool is
# thread-safe (a loop started while another thread's runs takes the calling thread alone) and
# fork-safe (a child process starts a pool of its own), which Numba calls "safe": libraries
# that ask which layer is chosen, to avoid an unsafe one, take their parallel path. A layer
# asked for by name (NUMBA_THREADING_LAYER, or assigned here) is kept, as Numba keeps it.
THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")
THREADING_LAYER_PRIORITY = ["tbb", "omp", "workqueue"]
THREADING_LAYER = "safe"
for _name in ("TAIPAN_THREADING_LAYER", "NUMBA_THREADING_LAYER"):
    _layer = os.environ.get(_name, "").strip().lower()
    if _layer in THREADING_LAYERS and _layer != "default":
        THREADING_LAYER = _layer
        SOURCES["THREADING_LAYER"] = _name
        break
    if _layer and _layer != "default":
        warnings.warn(
            f"taipan: {_name}={_layer!r} is not a threading layer Numba knows "
            f"({', '.join(THREADING_LAYERS)}); THREADING_LAYER stays 'safe'",
            RuntimeWarning,
            stacklevel=2,
        )
        break
del _name, _layer

del _option, _value, _source

# The deallocation thresholds live in the extension, which frees device memory: setting them
# here (or through numba.cuda.core.config) tells it at once, as numba-cuda reads them per free.
_RELEASE_LIMITS = ("CUDA_DEALLOCS_COUNT", "CUDA_DEALLOCS_RATIO")


def _tell_release_limits():
    _core.cuda_set_release_limits(
        int(globals()["CUDA_DEALLOCS_COUNT"]), float(globals()["CUDA_DEALLOCS_RATIO"])
    )


class _Settings(type(os)):
    """This module, whose deallocation thresholds are passed on when set."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in _RELEASE_LIMITS:
            _tell_release_limits()


_tell_release_limits()
sys.modules[__name__].__class__ = _Settings


def annotating():
    """Whether compilations are recorded for an HTML annotation: TAIPAN_ANNOTATE_HTML, or
    ``python -m taipan annotate`` (taipan.annotate recording). Merely importing taipan.annotate
    records nothing, so it changes nothing here (eager signatures stay deferred). Checked before
    importing taipan.annotate, whose imports (re, threading) a plain compile does without."""
    import sys

    annotate = sys.modules.get("taipan.annotate")
    return bool(globals()["ANNOTATE_HTML"]) or bool(getattr(annotate, "_recording", False))


def cpu_compile_options(options):
    """A CPU function's options as the compiler gets them, with the settings above that the
    options table links to an option (its ``config`` column): an 'override' setting, when set,
    wins over the keyword (TAIPAN_BOUNDSCHECK over boundscheck=, as NUMBA_BOUNDSCHECK does); a
    'default' one gives the keyword's value when it is not given (TAIPAN_OPT for opt=)."""
    options = dict(options)
    for name, rule, attribute in compile_options.CONFIGURED:
        value = globals()[attribute]
        overrides = rule == "override" and value is not None
        if overrides or (rule == "default" and options.get(name) is None):
            options[name] = value
    return options
