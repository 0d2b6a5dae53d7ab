"""A pytest plugin for ``tools/numba_compat/cuda_suite.py``'s runs of numba-cuda's test suite,
loaded on both sides (numba-cuda itself, and the shim on taipan):

- what numba-cuda 0.30.4 needs on NumPy 2.5: ``np.row_stack``, which NumPy removed (an alias of
  ``np.vstack``, as it was);
- what numba-cuda's repository gives its tests in a conftest.py its wheel leaves out: the class
  fixture ``initialize_from_pytest_config`` and the ``--dump-failed-filechecks`` option;
- ``numba.cuda`` and ``numba.cuda.tests`` imported before collection, so that pytest's
  importlib mode finds the test modules' parent packages (numba-cuda's, or the shim's);
- a per-test limit (``CUDA_SUITE_TEST_TIMEOUT`` seconds) in pytest-xdist's workers: a test that
  runs longer ends its worker, which xdist reports as a crash of that test and replaces.
"""

import os
import sys
import threading

import numpy as np
import pytest

if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack


def pytest_addoption(parser):
    parser.addoption(
        "--dump-failed-filechecks",
        action="store_true",
        help="Dump reproducers for FileCheck tests that fail (numba-cuda's option).",
    )


@pytest.fixture(scope="class")
def initialize_from_pytest_config(request):
    if request.cls is not None:
        request.cls._dump_failed_filechecks = request.config.getoption("dump_failed_filechecks")


def pytest_configure(config):
    import numba.cuda
    import numba.cuda.tests  # noqa: F401


def _expire(nodeid, seconds):
    sys.stderr.write(f"\ncuda_suite: {nodeid} ran past {seconds:.0f} s; ending this worker\n")
    sys.stderr.flush()
    os._exit(70)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    seconds = float(os.environ.get("CUDA_SUITE_TEST_TIMEOUT", "0") or 0)
    worker = hasattr(item.config, "workerinput")
    timer = None
    if seconds > 0 and worker:
        timer = threading.Timer(seconds, _expire, (item.nodeid, seconds))
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
