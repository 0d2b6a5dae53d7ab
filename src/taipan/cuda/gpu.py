"""The GPU backend of ``taipan.cuda``: the modules its exported names (taipan.cuda.api.exports)
come from when the simulator is off. Kernels compile to PTX and run through the CUDA driver."""

from taipan.cuda import (
    api,
    compiler,
    decorators,
    devicearray,
    devices,
    dispatcher,
    driver,
    fp16,  # noqa: F401  (cuda.fp16, numba-cuda's half-precision intrinsics)
    hostmemory,
    interop,
    intrinsics,
    ipc,
    kernelgen,
    libdevice,  # noqa: F401  (cuda.libdevice, as numba-cuda's package imports it)
    library_kernels,
    linking,
    reduction,
    streams,
    vector_types,  # noqa: F401  (types cuda.float32x4 and friends in compiled code)
    vectorizers,
)

# Transposes copy on the device (library_kernels sits above devicearray in the import graph).
devicearray.use_layout_copy(library_kernels.copy)
# cuda.In/Out/InOut copy through the GPU path's device arrays.
api.args.use_device_copies(devicearray.to_device, devicearray.device_array_like)
# Kernels converting launch arguments to a signature are generated (kernelgen, above dispatcher).
dispatcher.use_converting_kernels(kernelgen.converting_kernel)
# IPC handles export and open device memory (ipc sits above devicearray and devices).
api.memory.use_ipc(ipc)


def exports():
    """{name: object} of everything ``taipan.cuda`` exports, from the GPU path's modules."""
    modules = (
        api.errors,
        api.args,
        api.vector_types,
        api.linkable_code,
        compiler,
        decorators,
        devicearray,
        devices,
        driver,
        hostmemory,
        interop,
        ipc,
    )
    return api.resolve("GPU", (*modules, intrinsics, linking, reduction, streams, vectorizers))
