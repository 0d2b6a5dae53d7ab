"""``cuda.vectorize`` and ``cuda.guvectorize`` (numba-cuda's spellings of ``vectorize(...,
target='cuda')``): the same CUDA ufuncs and gufuncs, numba-cuda's option checks and call
messages, an output lacking loop dimensions of extent 1 (numba-cuda takes it), and a device
array that would need a cast. Results against NumPy in the simulator; the decorators' checks
and the gufunc schedule without it."""

import warnings

import pytest
from child_processes import run_in_simulator

import taipan
from taipan import cuda
from taipan.cuda.api.ufuncs import gufunc_schedule, parse_layout


def add(x, y):
    return x + y


def copy(a, b):
    for i in range(a.shape[0]):
        b[i] = a[i]


def test_the_names_are_exported_by_both_backends():
    assert "vectorize" in cuda.__all__ and "guvectorize" in cuda.__all__
    ufunc = cuda.vectorize(["float32(float32, float32)"])(add)
    assert type(ufunc) is type(taipan.vectorize(["float32(float32, float32)"], target="cuda")(add))
    assert ufunc.__name__ == "add"
    gufunc = cuda.guvectorize(["void(int32[:], int32[:])"], "(n)->(n)")(copy)
    assert gufunc.__name__ == "copy" and gufunc.signature == "(n)->(n)"


def test_vectorize_options_follow_numba_cuda():
    with pytest.raises(ValueError, match="Unsupported target: cpu"):
        cuda.vectorize(["float32(float32, float32)"], target="cpu")
    with pytest.raises(KeyError, match="Unrecognized options"):
        cuda.vectorize(["float32(float32, float32)"], nonexistent=2)(add)
    with pytest.raises(TypeError, match="caching is not supported"):
        cuda.vectorize(["float32(float32, float32)"], cache=True)(add)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cuda.vectorize(["float32(float32, float32)"], nopython=True)(add)
    assert [(w.category, str(w.message)) for w in caught] == [
        (RuntimeWarning, "nopython kwarg for cuda target is redundant")
    ]


def test_guvectorize_options_follow_numba_cuda():
    signature = ["void(float32[:], float32[:])"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cuda.guvectorize(signature, "(x)->(x)", nopython=True)(copy)  # no warning
    with pytest.raises(TypeError) as raised:
        cuda.guvectorize(signature, "(x)->(x)", nopython=False)(copy)
    assert str(raised.value) == "nopython flag must be True"
    with pytest.raises(TypeError) as raised:
        cuda.guvectorize(signature, "(x)->(x)", what1=True, ever2=False)(copy)
    assert str(raised.value) == ("The following target options are not supported: 'what1', 'ever2'")
    with pytest.raises(TypeError, match="one or two positional arguments"):
        cuda.guvectorize(signature, "(x)->(x)", "extra")
    with pytest.raises(TypeError, match="specifies int32 return type"):
        cuda.guvectorize(["int32(int32[:], int32[:])"], "(m)->(m)")(copy)


def test_an_output_may_lack_leading_loop_dimensions_of_extent_one():
    names = parse_layout("(n),()->(n)")[1]
    assert gufunc_schedule("(n),()->(n)", names, 2, [(4,), (1,), (4,)]) == ((1,), [(4,)])
    assert gufunc_schedule("(n),()->(n)", names, 2, [(4,), (1,), (1, 4)]) == ((1,), [(1, 4)])
    with pytest.raises(ValueError, match=r"has shape \(2, 4\), the call needs \(1, 4\)"):
        gufunc_schedule("(n),()->(n)", names, 2, [(4,), (1,), (2, 4)])
    names = parse_layout("()->()")[1]
    with pytest.raises(ValueError, match=r"output 0 has shape \(2,\), the call needs \(2, 2\)"):
        gufunc_schedule("()->()", names, 1, [(2, 2), (2,)])


def test_results_in_the_simulator(tmp_path):
    run_in_simulator(
        tmp_path,
        """
        import warnings
        import numpy as np
        from taipan import cuda, float64, int32, void
        from taipan.runtime import live_blocks

        before = live_blocks()

        @cuda.vectorize(["int32(int32, int32)", "float64(float64, float64)"])
        def vadd(a, b):
            return a + b

        x = np.arange(10, dtype=np.int32)
        assert vadd(x, x).dtype == np.int32 and (vadd(x, x) == x + x).all()
        assert vadd(1.5, 2.25) == 3.75
        d = cuda.to_device(np.arange(5.0))
        assert (vadd(1.0, d).copy_to_host() == np.arange(1.0, 6.0)).all()
        assert vadd.reduce(np.arange(7, dtype=np.int32)) == 21

        @cuda.vectorize
        def twice(a):
            return a * 2

        assert (twice(np.arange(4.0)) == np.arange(4.0) * 2).all()

        @cuda.guvectorize([void(int32[:], int32[:], int32[:])], "(n),()->(n)")
        def shift(x, y, res):
            for i in range(x.shape[0]):
                res[i] = x[i] + y[0]

        a = np.array([1, 2, 3, 4], dtype=np.int32)
        res = np.zeros(4, dtype=np.int32)
        shift(a, np.array([2], dtype=np.int32), out=res)
        assert (res == a + 2).all(), res
        a2 = np.arange(8, dtype=np.int32).reshape(2, 4)
        res2 = np.zeros((2, 4), dtype=np.int32)
        shift(a2, np.array([2, 10], dtype=np.int32), res2)
        assert (res2 == a2 + np.array([[2], [10]])).all(), res2

        try:
            shift(a)
        except TypeError as error:
            message = str(error)
        assert message == (
            "shift(): this gufunc accepts 2 positional arguments (when providing input only) "
            "or 3 positional arguments (when providing input and output). Got 1 positional "
            "argument."
        ), message

        @cuda.guvectorize([void(int32, int32[:], int32[:])], "(),(t)->(t)")
        def scale(k, b, out):
            for i in range(b.size):
                out[i] = k * b[i]

        b = np.arange(10, dtype=np.int32)
        assert (scale(np.int64(2), b) == 2 * b).all()
        try:
            scale(cuda.to_device(np.array(2, dtype=np.int64)), b)
        except TypeError as error:
            message = str(error)
        assert "a device array does not support .astype()" in message, message
        del d
        assert live_blocks() == before
        print("ok")
        """,
    )
