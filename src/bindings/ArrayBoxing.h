// NumPy arrays across the boundary: their taipan types, unboxing into the array layout without
// copying, and boxing arrays made by compiled code into ndarrays that own their memory block.
#pragma once

#include <Python.h>

#include "runtime/MemoryRuntime.h"
#include "types/Type.h"

namespace taipan::bindings {

/// Loads NumPy's C API once NumPy is imported; false while it is not.
bool ensureNumpyApi();

/// The array type of an ndarray, or nullptr when `value` is none or its dtype is unsupported.
/// Does not import NumPy: a process that never made an ndarray never pays for it.
const Type *typeOfArray(PyObject *value);

/// typeOfArray for the call path: nullptr at once when NumPy is not loaded yet or `value` is
/// not an ndarray.
const Type *typeOfArrayIfArray(PyObject *value);

/// numpy.ndarray once NumPy's C API is loaded (null before): the call path's test for an array.
extern PyTypeObject *ndarrayType;
/// typeOfArray of an ndarray (of ndarrayType or a subclass).
const Type *typeOfNdarray(PyObject *value);

/// The array type of a memoryview or bytearray argument: that of the ndarray NumPy makes of its
/// buffer (np.asarray: format, shape, strides; read-only when the buffer is), as Numba's
/// MemoryView and ByteArray are buffers of an array's model; nullptr for anything else.
const Type *typeOfBufferObject(PyObject *value);

/// Why an ndarray has no taipan type (its dtype, byte order...), for error messages.
std::string describeUnsupportedArray(PyObject *value);

/// Fills the array layout (types.h ArrayLayout) at `storage` from an ndarray, borrowing it.
bool unboxArray(PyObject *value, const Type *type, void *storage, bool verified);

/// A new ndarray for the array at `storage`, taking over its reference to the memory block.
/// An array whose block only keeps a Python array alive (blockOwningObject) and that views it
/// unchanged is that Python array.
PyObject *boxArray(const Type *type, const void *storage);

/// A new block (with no data) that holds a reference to `object` and releases it, under the
/// GIL, when the block's last reference goes: how a typed container keeps an array it was
/// given from Python.
runtime::MemInfo *blockOwningObject(PyObject *object);

} // namespace taipan::bindings
