"""Settings read from TAIPAN_* environment variables when taipan is imported."""

import os

from taipan import _core


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("", "0", "false", "no", "off")


BOUNDSCHECK = _flag("TAIPAN_BOUNDSCHECK")
# Runs the Python functions themselves (for debugging): @jit and @njit return them unchanged.
DISABLE_JIT = _flag("TAIPAN_DISABLE_JIT") or _flag("NUMBA_DISABLE_JIT")
# Where cache=True keeps compiled code when set (else __pycache__ beside the source file).
CACHE_DIR = os.environ.get("TAIPAN_CACHE_DIR") or os.environ.get("NUMBA_CACHE_DIR") or ""
# Prints where each compilation spent its time (dispatcher.get_metadata(sig)["timers"]).
TIMING = _flag("TAIPAN_TIMING")
# The threads parallel code may use: TAIPAN_NUM_THREADS (or NUMBA_NUM_THREADS), else every
# hardware thread. set_num_threads() chooses how many of them run.
NUMBA_NUM_THREADS = NUM_THREADS = _core.maximum_threads()
