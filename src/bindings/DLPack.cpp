// DLPack exchange for taipan._core: capsules made from device arrays (__dlpack__) and device
// memory taken from other libraries' capsules (cuda.from_dlpack), with DLPack's own structs.
#include "DLPack.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

// The unversioned (0.x) ABI, which every producer and consumer still speaks.
struct DLDevice {
  int32_t deviceType;
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void *managerContext;
  void (*deleter)(DLManagedTensor *self);
};

/// What an exported capsule owns: the shape and strides it points at, and a reference to the
/// exporting array so its memory outlives the consumer's use.
struct ExportContext {
  DLManagedTensor managed;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  PyObject *owner;
};

void deleteExport(DLManagedTensor *self) {
  auto *context = static_cast<ExportContext *>(self->managerContext);
  PyGILState_STATE state = PyGILState_Ensure();
  Py_XDECREF(context->owner);
  PyGILState_Release(state);
  delete context;
}

void destroyUnusedCapsule(PyObject *capsule) {
  // A capsule nobody consumed still owns its tensor; a consumed one was renamed.
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed && managed->deleter)
    managed->deleter(managed);
}

/// Another library's tensor taken from a capsule: calls its deleter when collected.
struct DLPackTensor {
  DLManagedTensor *managed = nullptr;
  ~DLPackTensor() {
    if (managed && managed->deleter)
      managed->deleter(managed);
  }
};

} // namespace

void defineDLPackBindings(nb::module_ &module) {
  nb::class_<DLPackTensor>(module, "DLPackTensor");

  module.def("dlpack_export", [](uint64_t pointer, std::vector<int64_t> shape,
                                 std::vector<int64_t> strides, int code, int bits, int deviceType,
                                 int deviceId, nb::object owner) {
    auto *context = new ExportContext{};
    context->shape = std::move(shape);
    context->strides = std::move(strides);
    context->owner = owner.release().ptr();
    DLTensor &tensor = context->managed.tensor;
    tensor.data = reinterpret_cast<void *>(pointer);
    tensor.device = {deviceType, deviceId};
    tensor.ndim = static_cast<int32_t>(context->shape.size());
    tensor.dtype = {static_cast<uint8_t>(code), static_cast<uint8_t>(bits), 1};
    tensor.shape = context->shape.data();
    tensor.strides = context->strides.data();
    tensor.byteOffset = 0;
    context->managed.managerContext = context;
    context->managed.deleter = deleteExport;
    PyObject *capsule = PyCapsule_New(&context->managed, "dltensor", destroyUnusedCapsule);
    if (!capsule) {
      deleteExport(&context->managed);
      throw nb::python_error();
    }
    return nb::steal(capsule);
  });

  // (holder, data address, shape, strides in elements or None, type code, bits, lanes,
  //  device type, device id); the capsule is marked used, as the protocol asks.
  module.def("dlpack_import", [](nb::object capsule) {
    PyObject *raw = capsule.ptr();
    if (!PyCapsule_IsValid(raw, "dltensor"))
      throw nb::value_error("not a DLPack capsule, or one already consumed");
    auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(raw, "dltensor"));
    if (PyCapsule_SetName(raw, "used_dltensor") != 0)
      throw nb::python_error();
    auto holder = std::make_unique<DLPackTensor>();
    holder->managed = managed;
    const DLTensor &tensor = managed->tensor;
    nb::list shape, strides;
    for (int32_t d = 0; d < tensor.ndim; ++d) {
      shape.append(tensor.shape[d]);
      if (tensor.strides)
        strides.append(tensor.strides[d]);
    }
    uint64_t data = reinterpret_cast<uint64_t>(tensor.data) + tensor.byteOffset;
    nb::object stridesOrNone = tensor.strides ? nb::object(strides) : nb::none();
    return nb::make_tuple(nb::cast(std::move(holder)), data, shape, stridesOrNone,
                          tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes,
                          tensor.device.deviceType, tensor.device.deviceId);
  });
}

} // namespace taipan::bindings
