"""``numba.core.typing.npydecl``: ``supported_ufuncs``, the ufuncs Numba's ufunc tests loop over.
The shim lists every ufunc of NumPy's namespace (a superset of Numba's list, which is Numba's
and not copied here): a ufunc taipan lacks fails its tests."""

import numpy as np

from numba._missing import fill_missing

# By name, so that aliases (np.mod, np.remainder) are both there, as in Numba's list.
supported_ufuncs = [
    getattr(np, name) for name in sorted(dir(np)) if isinstance(getattr(np, name), np.ufunc)
]

__getattr__ = fill_missing(globals(), __name__)
