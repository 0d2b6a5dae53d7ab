"""The CUDA simulator: with TAIPAN_ENABLE_CUDASIM=1 (or NUMBA_ENABLE_CUDASIM=1) set before
taipan is imported, ``taipan.cuda`` exports these objects instead of the GPU path's, and
``cuda.jit`` kernels run on the CPU in the Python interpreter, one Python thread per GPU thread
of a block (launch.py). The names are those of the GPU path (taipan.cuda.api.exports), taken
by exports() from the simulator's modules; the fronts they share with the GPU path are in
taipan.cuda.api, and the simulator imports nothing else of taipan.cuda."""

import sys
import types

from taipan.cuda import api
from taipan.cuda.simulator import (
    atomics,
    compilation,
    devicearray,
    host,
    intrinsics,
    launch,
    libdevice,
    random,
    reduction,
)

# cuda.In/Out/InOut copy through the simulator's device arrays.
api.args.use_device_copies(devicearray.to_device, devicearray.device_array_like)


class _Placeholder:
    """What ``cuda.laneid`` reads outside a simulated kernel."""

    def __repr__(self):
        return "<cuda.laneid: only defined inside a kernel running in the CUDA simulator>"


_LANEID_OUTSIDE = _Placeholder()


class SimulatedCudaModule(types.ModuleType):
    """The class ``taipan.cuda`` takes while the simulator is on: ``cuda.laneid`` is the lane of
    the simulated thread that reads it."""

    @property
    def laneid(self):
        try:
            return intrinsics.current_laneid()
        except RuntimeError:
            return _LANEID_OUTSIDE


laneid = _LANEID_OUTSIDE  # read through the module's property (see install)


def install(module):
    """Makes `module` (taipan.cuda, which has imported these names) read ``laneid`` per
    simulated thread, and ``import taipan.cuda.random`` (and ``libdevice``) give the simulator's
    modules."""
    module.__class__ = SimulatedCudaModule
    sys.modules["taipan.cuda.random"] = random
    module.random = random
    sys.modules["taipan.cuda.libdevice"] = libdevice
    module.libdevice = libdevice
    from taipan.cuda import fp16  # ordinary Python: the simulator runs the same functions

    module.fp16 = fp16


def exports():
    """{name: object} of everything ``taipan.cuda`` exports, from the simulator's modules."""
    modules = (api.errors, api.args, api.vector_types, api.linkable_code, host, atomics)
    modules += (devicearray, intrinsics)
    modules += (launch, reduction)
    from taipan.cuda import vectorizers  # the same entry points, over the simulator's ufuncs

    modules += (vectorizers, compilation)
    return api.resolve("simulator", (sys.modules[__name__], *modules))
