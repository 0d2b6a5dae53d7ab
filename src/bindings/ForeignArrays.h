// ForeignArrays.h - Other libraries' device arrays described for a kernel launch without
// Python: any __cuda_array_interface__ dict, and PyTorch tensors read directly.
#pragma once

#include "types/Type.h"

#include <Python.h>

namespace taipan::bindings {

/// Looks up an attribute that may be missing without raising AttributeError, which costs more
/// than the rest of a launch. Returns a new reference or null (no error set when missing).
PyObject *optionalAttribute(PyObject *object, PyObject *name);

/// Reads another library's __cuda_array_interface__ for a launch on `stream`: the argument
/// type, and a (None, pointer, shape, strides) tuple as device arrays carry in `_launch`.
/// A producer stream the launch is not already ordered after is synchronized first (the rule
/// of taipan.cuda.streams.wait_for_producer; a driver error is raised). Null (no error set)
/// when Python must handle it: a mask, an unusual dtype.
PyObject *describeInterface(PyObject *interface, void *stream, const Type **type);

/// The same for a CuPy array, read through its attributes and CuPy's current stream: what its
/// __cuda_array_interface__ property would give, for half the cost, and the same wait. Null
/// (no error set) for anything else.
PyObject *describeCupyArray(PyObject *value, void *stream, const Type **type);

/// The same for a PyTorch CUDA tensor, read through its own attributes: what its
/// __cuda_array_interface__ property would give (no stream: PyTorch exports version 2), at a
/// fraction of the cost. Null (no error set) for anything else, and for tensors the property
/// refuses (requiring grad, sparse, bfloat16), so that the property raises its own error.
PyObject *describeTorchTensor(PyObject *value, const Type **type);

/// Makes the launch path's waits for a producer's stream call `wait(handle)` (a new reference
/// is kept for the process): taipan.cuda.streams' wait, which honours
/// CUDA_ARRAY_INTERFACE_SYNC and synchronizes through Stream.synchronize, as numba-cuda does.
void setProducerWait(PyObject *wait);

} // namespace taipan::bindings
