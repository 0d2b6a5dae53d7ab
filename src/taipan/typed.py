"""``taipan.typed``: Numba's typed containers, ``List`` and ``Dict``.

Both are C++ objects over the memory blocks compiled code uses for its lists and dicts
(``_core.TypedList``, ``_core.TypedDict``): a compiled function receives the same block, so
changes made on either side are seen on the other, and a typed container made in compiled code
comes back as one of these objects. The item (key, value) types are fixed by the first store,
or given: ``List.empty_list(types.int64)``, ``Dict.empty(types.unicode_type, types.float64)``.
"""

from collections.abc import MutableMapping, MutableSequence

from taipan import _core

List = _core.TypedList
Dict = _core.TypedDict

MutableSequence.register(List)
MutableMapping.register(Dict)

__all__ = ["Dict", "List"]
