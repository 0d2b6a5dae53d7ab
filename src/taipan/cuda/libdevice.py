"""``cuda.libdevice``: libdevice's ``__nv_*`` functions by their names without the prefix
(``libdevice.sincos(x)``, ``libdevice.sad(x, y, z)``), for kernels and device functions, typed
as numba-cuda types them (taipan.cuda.api.libdevice_prototypes); outputs that libdevice writes
through pointers are returned after the return value, as a tuple. The compiler implements
them; called from Python, outside a kernel, they raise. With the simulator on, this module is
taipan.cuda.simulator.libdevice, which evaluates them in Python."""

from taipan.cuda import api
from taipan.cuda.intrinsics import _Builtin

for _name in api.libdevice_prototypes.PROTOTYPES:
    globals()[_name] = _Builtin(f"cuda.libdevice.{_name}", f"libdevice's __nv_{_name}.")

__all__ = list(api.libdevice_prototypes.PROTOTYPES)
