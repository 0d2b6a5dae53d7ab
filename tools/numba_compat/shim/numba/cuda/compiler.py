"""``numba.cuda.compiler``: the compile entry points are taipan.cuda's (``compile``,
``compile_all``, ``compile_ptx``, ``compile_ptx_for_current_device``,
``compile_for_current_device``); numba-cuda's compiler internals are placeholders."""

from numba._missing import fill_missing
from taipan.cuda import (  # noqa: F401
    compile,
    compile_all,
    compile_for_current_device,
    compile_ptx,
    compile_ptx_for_current_device,
)

__getattr__ = fill_missing(globals(), __name__)
