"""``numba.cuda.typing.cffi_utils``: ``SUPPORTED`` says whether cffi is installed, as
numba-cuda's does (its tests skip without it); taipan types cffi's FFI objects itself
(``taipan.cffi_buffers``: ``ffi.from_buffer``). The rest placeholders."""

import importlib.util

from numba._missing import fill_missing

SUPPORTED = importlib.util.find_spec("cffi") is not None

__getattr__ = fill_missing(globals(), __name__)
