"""Finding which NumPy function the compiler was given must not import NumPy submodules that
NumPy loads only when first touched (np.polynomial: 30 ms and more of a fresh process's first
compile on the GPU host, paid by every program); a function of such a submodule is still
recognised once the program has imported it."""

import subprocess
import sys
import textwrap

from child_processes import child_python_path

SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    import taipan
    from taipan.runtime import live_blocks

    lazy = "numpy.polynomial" in sys.modules

    @taipan.njit
    def total(a):
        return np.sum(a) + np.cumsum(a)[-1]

    before = live_blocks()
    a = np.arange(4.0)
    assert total(a) == total.py_func(a) == 12.0
    assert live_blocks() == before
    if not lazy:
        assert "numpy.polynomial" not in sys.modules, "the compile imported np.polynomial"

    from numpy.polynomial import polynomial as P

    @taipan.njit
    def value(c, x):
        return P.polyval(x, c)

    c = np.array([1.0, 2.0, 3.0])
    assert value(c, 2.0) == value.py_func(c, 2.0) == 17.0
    assert live_blocks() == before
    print("ok")
    """
)


def test_compiles_leave_lazy_numpy_submodules_alone(tmp_path):
    script = tmp_path / "lazy.py"
    script.write_text(SCRIPT)
    env = {"PYTHONPATH": child_python_path(), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr
