// CUDA's memory spaces as arrays, one library entry per function (GPU only): cuda.shared.array
// (an addrspace(3) global), cuda.local.array (a stack array) and cuda.const.array_like.
#include "library/Families.h"

#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>

#include <algorithm>

namespace taipan {
namespace {

constexpr unsigned SharedAddressSpace = 3;

/// The array's storage: one addrspace(3) global per shared array (every dynamic, shape 0,
/// array is the same external array, whose size is the launch's dynamic shared memory), or a
/// stack array. `dynamicCount` gets the element count of a dynamic shared array.
llvm::Value *allocateStorage(LoweringApi &lowering, bool shared, const Type *dtype, int64_t count,
                             llvm::Value **dynamicCount) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  // A record's memory form is the address of its bytes (storageSize 8), not the bytes: an
  // array holds itemSize bytes per record, so its storage is bytes.
  llvm::Type *element = dtype->isRecord()
                            ? llvm::ArrayType::get(builder.getInt8Ty(), dtype->itemSize())
                            : memoryType(lowering.llvmContext(), dtype);
  if (!shared) {
    llvm::AllocaInst *storage =
        lowering.createEntryAlloca(llvm::ArrayType::get(element, count), "local.array");
    storage->setAlignment(
        std::max(storage->getAlign(), llvm::Align(std::max<size_t>(dtype->storageAlignment(), 1))));
    return storage;
  }
  bool dynamic = count == 0;
  llvm::Type *storage = llvm::ArrayType::get(element, dynamic ? 0 : count);
  auto *global = new llvm::GlobalVariable(
      lowering.module().module, storage, false,
      dynamic ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
      dynamic ? nullptr : llvm::UndefValue::get(storage),
      dynamic ? "taipan_dynamic_shared" : "taipan_shared", nullptr,
      llvm::GlobalValue::NotThreadLocal, SharedAddressSpace);
  global->setAlignment(llvm::Align(16));
  if (dynamic) {
    auto *type = llvm::FunctionType::get(builder.getInt32Ty(), false);
    llvm::Value *bytes = builder.CreateCall(
        llvm::InlineAsm::get(type, "mov.u32 $0, %dynamic_smem_size;", "=r", true), {});
    *dynamicCount = builder.CreateUDiv(builder.CreateZExt(bytes, builder.getInt64Ty()),
                                       builder.getInt64(dtype->itemSize()));
  }
  return builder.CreateAddrSpaceCast(global, builder.getPtrTy());
}

/// cuda.shared.array(shape, dtype) and cuda.local.array(shape, dtype): a C-contiguous array
/// whose shape is constant (typing evaluates it into the call's constants).
void addArray(Library &library, const std::string &name) {
  bool shared = name == "cuda.shared.array";
  LibraryFunction function;
  function.name = name;
  function.parameters = {{"shape", false}, {"dtype", false}};
  function.targets = OnGpu;
  function.constantArgument =
      LibraryConstantArgument{0, "(shape, dtype) needs a constant shape: an int or a tuple of "
                                 "ints (literals or global constants)"};
  function.lowersArguments = true; // the shape is constant and the dtype a type
  function.type = [shared](const LibraryCall &call) {
    const std::string &name = call.function->name;
    const Type *dtype = dtypeFromArgument(call.argumentTypes[1]);
    if (!dtype)
      throwTypingError(name + "(): the dtype must be a NumPy scalar type, such as np.float32",
                       call.location);
    const std::vector<int64_t> &extents = call.constants;
    for (int64_t extent : extents)
      if (extent < 0 || (extent == 0 && (!shared || extents.size() != 1)))
        throwTypingError(name + "(): invalid shape (a dynamic shared array has shape 0)",
                         call.location);
    return types::array(dtype, static_cast<int>(extents.size()), 'C', false);
  };
  function.lower = [shared](LoweringApi &lowering, const LibraryCall &call,
                            const std::vector<llvm::Value *> &) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *arrayType = call.resultType;
    const Type *dtype = arrayType->dtype();
    const std::vector<int64_t> &extents = call.constants;
    int64_t count = 1;
    for (int64_t extent : extents)
      count *= extent;
    llvm::Value *dynamicCount = nullptr;
    llvm::Value *data = allocateStorage(lowering, shared, dtype, count, &dynamicCount);
    llvm::Value *array = llvm::Constant::getNullValue(valueType(lowering.llvmContext(), arrayType));
    array = lowering.arrays().withArrayField(array, ArrayLayout::ItemSize,
                                             builder.getInt64(dtype->itemSize()));
    array = lowering.arrays().withArrayField(array, ArrayLayout::Data, data);
    array = lowering.arrays().withArrayField(array, ArrayLayout::ItemCount,
                                             dynamicCount ? dynamicCount : builder.getInt64(count));
    // The item size, not storageSize: the two differ for records (see allocateStorage).
    int64_t stride = static_cast<int64_t>(dtype->itemSize());
    for (size_t i = extents.size(); i-- > 0;) {
      llvm::Value *extent = dynamicCount ? dynamicCount : builder.getInt64(extents[i]);
      array =
          lowering.arrays().withArrayField(array, ArrayLayout::Shape, extent, static_cast<int>(i));
      array = lowering.arrays().withArrayField(array, ArrayLayout::Strides,
                                               builder.getInt64(stride), static_cast<int>(i));
      stride *= extents[i];
    }
    return array;
  };
  library.add(std::move(function));
}

} // namespace

void registerCudaArrays(Library &library) {
  addArray(library, "cuda.shared.array");
  addArray(library, "cuda.local.array");
  // The argument is a global array, which is already a constant of the module.
  LibraryFunction constant;
  constant.name = "cuda.const.array_like";
  constant.parameters = {{"ndarray", false}};
  constant.targets = OnGpu;
  constant.type = [](const LibraryCall &call) {
    const Type *argument = call.argumentTypes[0];
    if (!argument->isArray() || !argument->isReadonly())
      throwTypingError("cuda.const.array_like takes a global NumPy array", call.location);
    return argument;
  };
  constant.lower = [](LoweringApi &, const LibraryCall &,
                      const std::vector<llvm::Value *> &values) { return values[0]; };
  library.add(std::move(constant));
}

} // namespace taipan
