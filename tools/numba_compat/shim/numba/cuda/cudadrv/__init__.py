"""``numba.cuda.cudadrv`` mapped onto taipan.cuda: ``devicearray`` (device arrays and their
layout helpers), ``devices`` (``get_context``, ``gpus``) and ``driver`` (streams, events,
contexts); what numba-cuda's driver has beyond those stays a placeholder."""

from numba._missing import fill_missing
from numba.cuda.cudadrv import (  # noqa: F401
    devicearray,
    devices,
    driver,
    error,
    linkable_code,
    nvrtc,
)

__getattr__ = fill_missing(globals(), __name__)
