"""A kernel's exception names where it was raised, as numba-cuda's do ("In function 'f', file
..., line n, tid=[...] ctaid=[...]: message"): the device records the raise statement's site
after its message, and the host puts it first. Checked in the PTX and in the host's formatting
without a GPU, and end to end on a GPU where there is one."""

import inspect
import re

import pytest

from taipan import _core, cuda, int32, void
from taipan.cuda import launcher


class KernelError(Exception):
    pass


def raises(x):
    if x == 1:
        raise KernelError
    elif x == 2:
        raise KernelError("foo")


ASSERTION_ERROR = 4  # the exception id of AssertionError (launcher's default messages)
RAISE_LINE = inspect.getsourcelines(raises)[1] + 4  # `raise KernelError("foo")`
SITE = rf"In function 'raises', file {re.escape(__file__)}, line {RAISE_LINE}, "


def test_the_ptx_holds_each_raise_statements_site():
    ptx, _ = cuda.compile_ptx(raises, void(int32), debug=True, opt=False)
    # The message constants, as the bytes PTX writes them.
    text = bytes(
        int(b)
        for b in re.findall(
            r"\b(\d+)\b",
            " ".join(line for line in ptx.splitlines() if line.startswith(".global .align 1 .b8")),
        )
        if int(b) < 256
    ).decode("latin-1")
    assert re.search("foo\x1f" + SITE, text), text
    assert re.search(SITE.replace(str(RAISE_LINE), str(RAISE_LINE - 2)), text)


WHERE = "In function 'f', file /a/b.py, line 3, "
THREAD = "tid=[1, 0, 0] ctaid=[2, 0, 0]: "


@pytest.mark.parametrize(
    "message, expected",
    [
        ("foo\x1f" + WHERE, WHERE + THREAD + "foo"),
        ("\x1f" + WHERE, WHERE + THREAD + "assertion failed"),  # the class's default message
        ("index out of range", THREAD + "index out of range"),  # no site: not a raise statement
    ],
)
def test_the_host_puts_the_site_first(monkeypatch, message, expected):
    monkeypatch.setattr(
        _core,
        "cuda_take_exception",
        lambda handle: (ASSERTION_ERROR, (1, 0, 0), (2, 0, 0), message),
    )
    with pytest.raises(AssertionError) as raised:
        launcher.raise_kernel_exception(None)
    assert str(raised.value) == expected


@pytest.mark.cuda
@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA driver or GPU")
def test_raise_sites_on_the_gpu():
    kernel = cuda.jit(void(int32), debug=True, opt=False)(raises)
    kernel[1, 1](0)
    with pytest.raises(
        KernelError,
        match=r"In function 'raises', file .*, line \d+, tid=\[0, 0, 0\] "
        r"ctaid=\[0, 0, 0\]",
    ):
        kernel[1, 1](1)
    with pytest.raises(KernelError, match=re.escape("tid=[0, 0, 0] ctaid=[0, 0, 0]: foo")):
        kernel[1, 1](2)
