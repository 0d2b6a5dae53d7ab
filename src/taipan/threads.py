"""taipan's thread pool as Python sees it: prange, and the number of threads parallel code
uses. The functions are also library entries of compiled code (``taipan.<name>``), so their
``__module__`` is ``taipan``."""

from taipan import _core


def prange(*args):
    """``range`` for loops whose iterations may run on several threads: in a function compiled
    with ``parallel=True`` a ``for`` loop over ``prange`` is split over taipan's thread pool (with
    reductions and private variables, see ``parallel_diagnostics``); elsewhere, and in Python, it
    is ``range``."""
    return range(*args)


def set_num_threads(count):
    """Uses ``count`` threads for parallel code from now on (1 up to ``NUMBA_NUM_THREADS``)."""
    _core.set_num_threads(int(count))


def get_num_threads():
    """The number of threads parallel code uses."""
    return _core.get_num_threads()


def get_thread_id():
    """0 on the calling thread, 1.. on the pool's workers, inside parallel code."""
    return _core.get_thread_id()


def threading_layer():
    """The Numba threading layer whose guarantees taipan's pool gives, as
    ``numba.threading_layer()`` names the layer chosen: "tbb", the one that is both thread-safe
    and fork-safe (``taipan.config.THREADING_LAYER`` keeps the layer asked for)."""
    return "tbb"


for _function in (prange, set_num_threads, get_num_threads, get_thread_id, threading_layer):
    _function.__module__ = "taipan"
