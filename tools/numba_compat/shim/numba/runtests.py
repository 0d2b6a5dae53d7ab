"""``python -m numba.runtests <dotted test name>...``: Numba's test runner as far as its tests'
subprocesses call it (``support.TestCase.subprocess_test_runner``, which checks the exit status
and unittest's "OK"): the named tests, run by unittest."""

import sys
import unittest

if __name__ == "__main__":
    unittest.main(module=None, argv=[sys.argv[0], *sys.argv[1:]])
