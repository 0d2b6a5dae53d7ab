"""``numba.cuda.vector_types``: numba-cuda's table of CUDA's vector types, which is taipan's
(taipan.cuda.vector_types: name -> VectorType with ``user_facing_object``, ``base_type``,
``num_elements``)."""

from taipan.cuda.vector_types import VectorType, vector_types  # noqa: F401
