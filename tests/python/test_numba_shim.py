"""The ``numba`` shim of tools/numba_compat maps Numba's API onto taipan (its runner, which runs
Numba's own test suite, is not part of CI: this only checks the mapping, in a subprocess, so
that the shim's ``numba`` never meets the real one)."""

import json
import os
import pathlib
import sys
import textwrap

import pytest
from child_processes import run_python

import taipan

SHIM = pathlib.Path(__file__).resolve().parents[2] / "tools" / "numba_compat" / "shim"


def run_with_shim(mode, code):
    # Not child_environment: the shim's numba must come before taipan's folder, which may be a
    # site-packages holding the real numba, and none of this process's paths may follow.
    environment = dict(os.environ)
    taipan_parent = pathlib.Path(taipan.__file__).resolve().parents[1]
    environment["PYTHONPATH"] = os.pathsep.join([str(SHIM), str(taipan_parent)])
    environment["NUMBA_SHIM_MODE"] = mode
    completed = run_python(["-c", textwrap.dedent(code)], env=environment, timeout=300)
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_taipan_mode_maps_onto_taipan():
    result = run_with_shim(
        "taipan",
        """
        import json
        import numba, taipan, taipan.dispatcher
        from numba import njit, jit, types
        from numba.core import errors
        from numba.core.errors import TypingError, NumbaValueError
        from numba.extending import overload
        from numba.core.ir_utils import nothing  # a module the shim does not provide

        def add(a, b):
            return a + b

        compiled = njit(add)
        with_signature = jit("int64(int64, int64)", nopython=True)(add)
        object_mode = jit(forceobj=True)(add)
        refusal = "object mode" if object_mode(1, 2) == 3 else ""
        print(json.dumps({
            "dispatcher": isinstance(compiled, taipan.dispatcher.Dispatcher),
            "result": compiled(2, 3),
            "signed": with_signature(4, 5),
            "refusal": refusal,
            "numba_types": types.int64 is taipan.types.int64,
            "typing_error": TypingError is taipan.TypingError,
            "value_error": issubclass(NumbaValueError, taipan.TypingError),
            "numba_error": errors.NumbaError is taipan.TaipanError,
            "overload": overload is taipan.extending.overload,
            "placeholder": repr(nothing),
            "file": numba.__file__,
        }))
        """,
    )
    assert result["dispatcher"] and result["result"] == 5 and result["signed"] == 9
    assert "object mode" in result["refusal"]
    assert result["numba_types"] and result["typing_error"] and result["value_error"]
    assert result["numba_error"] and result["overload"]
    assert "placeholder numba.core.ir_utils.nothing" in result["placeholder"]
    assert str(SHIM) in result["file"]


def test_plain_python_mode_returns_the_function():
    result = run_with_shim(
        "python",
        """
        import json
        from numba import njit, jit, types
        from numba.np.numpy_support import from_dtype
        import numpy as np

        def add(a, b):
            return a + b

        signature = types.int64(types.unicode_type, types.Optional(types.intp))
        record = from_dtype(np.dtype([("a", np.float64), ("b", np.int16)]))
        print(json.dumps({
            "identity": njit(add) is add and jit((types.int32,), forceobj=True)(add) is add,
            "py_func": njit(add).py_func is add,
            "standins": [str(signature), str(record)],
        }))
        """,
    )
    assert result["identity"] and result["py_func"]
    assert all(result["standins"])


@pytest.mark.parametrize("mode", ["python", "taipan"])
def test_numba_test_support_names(mode):
    """What Numba's tests.support imports from Numba's internals resolves."""
    result = run_with_shim(
        mode,
        """
        import json
        from numba import testing, types
        from numba.core import errors, typing, utils, config, cpu
        from numba.core.typing import cffi_utils
        from numba.core.compiler import (compile_extra, Flags, DEFAULT_FLAGS, CompilerBase,
                                         DefaultPassBuilder)
        from numba.core.runtime import rtsys
        from numba.core.runtime import _nrt_python as _nrt
        from numba.core.extending import overload_method, typeof_impl, register_model, unbox
        from numba.core.datamodel.models import OpaqueModel

        class Pipeline(CompilerBase):
            pass

        flags = Flags()
        flags.force_pyobject = True
        stats = rtsys.get_allocation_stats()
        print(json.dumps({
            "cffi": bool(cffi_utils.SUPPORTED),
            "stats": [stats.alloc - stats.free >= 0, stats.mi_alloc >= 0],
            "flags": [flags.force_pyobject, flags.copy().force_pyobject, Flags().nrt],
            "pyversion": list(utils.PYVERSION),
        }))
        """,
    )
    assert result["cffi"] is False
    assert result["stats"] == [True, True]
    assert result["flags"] == [True, True, False]
    assert tuple(result["pyversion"]) == sys.version_info[:2]


@pytest.mark.parametrize("mode", ["python", "taipan"])
def test_numba_types_is_numba_core_types(mode):
    """Libraries write ``from numba.types import Array`` (numba-stats): as in Numba,
    ``numba.types`` is the module ``numba.core.types``, not a placeholder."""
    result = run_with_shim(
        mode,
        """
        import json
        import numba, numba.core.types
        from numba.types import Array, float64
        print(json.dumps({
            "same": numba.types is numba.core.types and Array is numba.core.types.Array,
            "array": str(Array(float64, 1, "A", readonly=True)),
        }))
        """,
    )
    assert result["same"]
    assert "float64" in result["array"]


def test_decorators_with_options_only():
    """``vectorize(nopython=True)`` (quantecon) and ``jit(nopython=True)``: options and no
    signature give the lazy forms, as in Numba."""
    result = run_with_shim(
        "taipan",
        """
        import json
        import numpy as np
        from numba import vectorize, jit

        @vectorize(nopython=True)
        def fix(x):
            return np.floor(x) if x >= 0 else np.ceil(x)

        @jit(nopython=True)
        def twice(x):
            return 2 * x

        print(json.dumps({"fix": fix(np.array([-1.5, 2.5])).tolist(), "twice": twice(4)}))
        """,
    )
    assert result == {"fix": [-1.0, 2.0], "twice": 8}
