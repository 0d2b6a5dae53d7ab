"""Device arrays' ``flags`` (numba-cuda's dict of C_CONTIGUOUS and F_CONTIGUOUS),
``device_array_like``/``pinned_array_like``/``mapped_array_like`` (the layout of the array) and
``is_c_contiguous``/``is_f_contiguous`` follow NumPy's rules: extents of 1 do not count, empty
arrays are contiguous both ways, broadcast ones neither. Checked against NumPy's own flags for
views of many layouts, and on device arrays in the simulator and on a GPU."""

import numpy as np
import pytest
from child_processes import run_in_simulator

from taipan.cuda.api.devicearray import contiguity, layout_like


def layouts():
    base = np.zeros((4, 6, 5), dtype=np.float64)
    return [
        base,
        base[:, :, 0],
        base[:, 0:1, :],
        base[1:2],
        base.T,
        base[::2],
        base[:, ::-1],
        np.asfortranarray(base),
        np.zeros((3, 0, 2)),
        np.zeros(()),
        np.zeros((1, 1)),
        np.broadcast_to(np.arange(3.0), (4, 3)),
        np.zeros((5, 1))[:, :1],
        np.zeros((1, 7), dtype=np.int8)[:, ::1],
        np.zeros((2, 3), dtype=np.complex64)[:, 1:2],
    ]


@pytest.mark.parametrize("array", layouts(), ids=lambda a: f"{a.shape}-{a.strides}")
def test_flags_are_numpys(array):
    flags = contiguity(array.shape, array.strides, array.itemsize)
    if 0 in array.strides and array.size > 1:
        assert flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": False}  # numba-cuda's rule
    else:
        assert flags == {
            "C_CONTIGUOUS": array.flags["C_CONTIGUOUS"],
            "F_CONTIGUOUS": array.flags["F_CONTIGUOUS"],
        }


@pytest.mark.parametrize("array", layouts(), ids=lambda a: f"{a.shape}-{a.strides}")
def test_layout_like_is_numpys_empty_like(array):
    """*_array_like keep a C or F array's order and pack other layouts in the order of their
    strides, as NumPy's empty_like (order 'K') does."""
    strides, order = layout_like(array)
    like = np.empty_like(array)
    if strides is None:
        made = np.empty(array.shape, array.dtype, order=order)
        assert made.flags.c_contiguous == like.flags.c_contiguous or array.ndim <= 1
        assert made.flags.f_contiguous == like.flags.f_contiguous or array.ndim <= 1
    elif all(stride > 0 for stride in array.strides):
        assert strides == like.strides
    elif 0 in array.strides:  # broadcast (4, 3): packed, the broadcast axis innermost
        assert strides == (8, 32)
    else:  # numba-cuda orders by the signed strides (NumPy by their sizes): base[:, ::-1]
        assert (array.shape, strides) == ((4, 6, 5), (240, 8, 48))


SIMULATED = """
import numpy as np
from taipan import cuda

for host in (np.arange(24.0).reshape(4, 6), np.asfortranarray(np.ones((3, 5))), np.ones((1, 4))):
    order = "F" if host.flags.f_contiguous and not host.flags.c_contiguous else "C"
    device = cuda.device_array(host.shape, order=order)
    flags = device.flags
    assert flags == {"C_CONTIGUOUS": host.flags.c_contiguous, "F_CONTIGUOUS": host.flags.f_contiguous}, (host.shape, flags)
    assert device.is_c_contiguous() == flags["C_CONTIGUOUS"]
    assert device.is_f_contiguous() == flags["F_CONTIGUOUS"]
    flags["C_CONTIGUOUS"] = None  # a copy: the array's flags do not change
    assert device.flags["C_CONTIGUOUS"] == host.flags.c_contiguous

fortran = np.asfortranarray(np.ones((3, 5), dtype=np.float32))
for like in (cuda.pinned_array_like(fortran), cuda.mapped_array_like(fortran)):
    assert like.shape == (3, 5) and like.dtype == np.float32 and like.strides == fortran.strides
device = cuda.device_array_like(fortran)
assert device.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True}, device.flags
gapped = np.zeros((4, 6))[:, ::2]
assert cuda.pinned_array_like(gapped).strides == np.empty_like(gapped).strides
print("ok")
"""


def test_device_arrays_in_the_simulator(tmp_path):
    run_in_simulator(tmp_path, SIMULATED)


@pytest.mark.cuda
def test_device_arrays_on_the_gpu():
    from taipan import cuda

    if not cuda.is_available():
        pytest.skip("no CUDA driver or GPU")
    device = cuda.device_array((3, 5), order="F")
    assert device.flags == {"C_CONTIGUOUS": False, "F_CONTIGUOUS": True}
    assert cuda.to_device(np.ones((1, 4))).flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": True}
