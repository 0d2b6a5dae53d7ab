"""``numba.core.cgutils``: taipan's (``taipan.core.cgutils``), the llvmlite helpers that
intrinsics' codegen functions call; Numba's names taipan lacks are placeholders."""

from numba._missing import fill_missing
from taipan.core.cgutils import *
from taipan.core.cgutils import (  # noqa: F401
    Loop,
    alloca_once,
    alloca_once_value,
    create_struct_proxy,
    for_range,
    get_item_pointer,
    get_item_pointer2,
    if_likely,
    if_unlikely,
    is_not_null,
    is_null,
    pack_array,
    printf,
    unpack_tuple,
)

__getattr__ = fill_missing(globals(), __name__)
