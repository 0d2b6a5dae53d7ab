"""``numba.cuda._internal``: numba-cuda's generated bindings of cuda_bf16.h and cuda_fp8.h,
mapped onto taipan's ``cuda.bf16`` and ``cuda.fp8``."""
