"""``numba.cuda.descriptor``: numba-cuda's CUDA target descriptor as tests read it:
``cuda_target.typing_context`` is the typing context extensions' typing functions receive
(taipan.extending's: ``can_convert``, ``unify_types``, ``resolve_value_type``); the rest are
placeholders."""

from numba._missing import fill_missing
from taipan.extending import _TYPING_CONTEXT


class _CudaTarget:
    typing_context = _TYPING_CONTEXT


cuda_target = _CudaTarget()
__getattr__ = fill_missing(globals(), __name__)
