"""numba-cuda's ``cuda.compile``, ``compile_all`` and ``compile_for_current_device`` in the CUDA
simulator: refused, as ``compile_ptx`` is (the simulator compiles no PTX)."""

from taipan.cuda.simulator.host import _no_ptx


def compile(pyfunc, sig, **options):
    """Refused: the simulator compiles no PTX."""
    _no_ptx()


def compile_all(pyfunc, sig, **options):
    """Refused: the simulator compiles no PTX."""
    _no_ptx()


def compile_for_current_device(pyfunc, sig, **options):
    """Refused: the simulator compiles no PTX."""
    _no_ptx()
