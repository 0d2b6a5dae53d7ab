// CUDA's memory spaces as arrays, one library entry per function (GPU only): cuda.shared.array
// (an addrspace(3) global), cuda.local.array (a stack array), cuda.const.array_like, and the
// loads and stores of one element with a cache operator (cuda.ldca ... cuda.stwt).
#include "library/Families.h"

#include "lower/ArrayLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "types/UserTypes.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/ImpreciseValues.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>

namespace taipan {
namespace {

constexpr unsigned SharedAddressSpace = 3;

/// The array's storage: one addrspace(3) global per shared array (every dynamic, shape 0,
/// array is the same external array, whose size is the launch's dynamic shared memory), or a
/// stack array. `dynamicCount` gets the element count of a dynamic shared array. `alignment`
/// is the caller's (`alignment=`), 0 when none was given: a shared array then has 16, a local
/// one its element's.
llvm::Value *allocateStorage(LoweringApi &lowering, bool shared, const Type *dtype, int64_t count,
                             uint64_t alignment, llvm::Value **dynamicCount) {
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
        std::max({storage->getAlign(), llvm::Align(std::max<size_t>(dtype->storageAlignment(), 1)),
                  llvm::Align(std::max<uint64_t>(alignment, 1))}));
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
  global->setAlignment(llvm::Align(alignment ? alignment : 16));
  // The block's shared memory is what the kernel asked for, even where the optimiser proves a
  // thread reads back only its own writes (numba-cuda's NVVM keeps it too): launches and
  // get_shared_mem_per_block count it.
  if (!dynamic)
    llvm::appendToCompilerUsed(lowering.module().module, {global});
  if (dynamic) {
    auto *type = llvm::FunctionType::get(builder.getInt32Ty(), false);
    llvm::Value *bytes = builder.CreateCall(
        llvm::InlineAsm::get(type, "mov.u32 $0, %dynamic_smem_size;", "=r", true), {});
    *dynamicCount = builder.CreateUDiv(builder.CreateZExt(bytes, builder.getInt64Ty()),
                                       builder.getInt64(dtype->itemSize()));
  }
  return builder.CreateAddrSpaceCast(global, builder.getPtrTy());
}

/// The dtype of an array in shared or local memory, as numba-cuda takes it: a number, a record,
/// or a type with a data model of its own (Numba's extension API), named by a NumPy scalar
/// class, a dtype object, a string or a Numba type. nullptr for anything else.
const Type *memoryArrayDtype(const Type *argument) {
  if (argument->kind() == TypeKind::DType && isUserType(argument->dtype()))
    return userTypeLayout(argument->dtype()) ? argument->dtype() : nullptr;
  return dtypeFromArgument(argument);
}

/// The `alignment=` of a shared or local array, checked as numba-cuda checks it: a constant
/// integer (an int variable is refused as a float is), positive, a power of two and a multiple
/// of a pointer's size. 0 when the argument is left out or None.
uint64_t checkedAlignment(const LibraryCall &call) {
  const Type *type = call.argumentTypes.size() > 2 ? call.argumentTypes[2] : nullptr;
  if (!type || type->isNone())
    return 0;
  const std::optional<int64_t> &value = call.integerLiterals[0];
  if (!value)
    throwTypingError(call.function->name +
                         "(): RequireLiteralValue: alignment must be a constant integer, not " +
                         type->name(),
                     call.location);
  auto refuse = [&](const std::string &reason) {
    throw CompileError(CompileErrorKind::Value, "Alignment must be " + reason, call.location);
  };
  if (*value <= 0)
    refuse("positive");
  if ((*value & (*value - 1)) != 0)
    refuse("a power of 2");
  if (*value % 8 != 0)
    refuse("a multiple of 8");
  return static_cast<uint64_t>(*value);
}

/// cuda.shared.array(shape, dtype, alignment=None) and cuda.local.array(...): a C-contiguous
/// array whose shape is constant (typing evaluates it into the call's constants), its data
/// aligned to `alignment` bytes when given.
void addArray(Library &library, const std::string &name) {
  bool shared = name == "cuda.shared.array";
  LibraryFunction function;
  function.name = name;
  function.parameters = {{"shape", false}, {"dtype", false}, {"alignment", true}};
  function.integerLiteralArguments = {2};
  function.targets = OnGpu;
  function.constantArgument =
      LibraryConstantArgument{0, "(shape, dtype) needs a constant shape: an int or a tuple of "
                                 "ints (literals or global constants)"};
  function.lowersArguments = true; // the shape is constant and the dtype a type
  function.type = [shared](const LibraryCall &call) {
    const std::string &name = call.function->name;
    const Type *dtype = memoryArrayDtype(call.argumentTypes[1]);
    // Numba types an array of Python objects, which no variable can hold (imprecise)
    if (!dtype && call.argumentTypes[1]->kind() == TypeKind::StringLiteral &&
        namesObjectDtype(call.argumentTypes[1]->text()))
      throw ImpreciseValue("array(pyobject, " + std::to_string(call.constants.size()) + "d, C)",
                           call.location);
    if (!dtype && call.argumentTypes[1]->kind() == TypeKind::StringLiteral)
      throwTypingError(name + "(): Invalid NumPy dtype specified: '" +
                           call.argumentTypes[1]->text() + "'",
                       call.location);
    if (!dtype)
      throwTypingError(name + "(): the dtype must be a NumPy scalar type, such as np.float32",
                       call.location);
    const std::vector<int64_t> &extents = call.constants;
    for (int64_t extent : extents)
      if (extent < 0 || (extent == 0 && (!shared || extents.size() != 1)))
        throwTypingError(name + "(): invalid shape (a dynamic shared array has shape 0)",
                         call.location);
    checkedAlignment(call);
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
    llvm::Value *data =
        allocateStorage(lowering, shared, dtype, count, checkedAlignment(call), &dynamicCount);
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

/// The PTX register constraint of a cache-operator load or store of `bits` bits (numba-cuda's:
/// a byte travels in a 32-bit register).
const char *cacheOperandConstraint(unsigned bits) {
  return bits == 16 ? "h" : bits == 64 ? "l" : "r";
}

/// cuda.ld<op>(array, i) / cuda.st<op>(array, i, value): arguments[0] an array (indexed by an
/// int, or a tuple of ints one per dimension) or a CPointer (indexed by an int) of an integer
/// or float dtype; numba-cuda's messages. Returns the dtype.
const Type *typeCacheOperand(const LibraryCall &call, const std::string &instruction) {
  const Type *target = call.argumentTypes[0];
  const Type *index = call.argumentTypes[1];
  if (!target->isArray() && !(target->isPointer() && target->pointee()))
    throwTypingError(instruction + " operates on arrays or pointers. Got type " + target->name(),
                     call.location);
  bool valid = false;
  if (index->isIntegerLike()) {
    if (target->isArray() && target->ndim() != 1)
      throwTypingError("Expected " + std::to_string(target->ndim()) + " indices, got a scalar",
                       call.location);
    valid = true;
  } else if (index->isTuple() && !index->elements().empty()) {
    if (target->isPointer())
      throwTypingError("Pointers only support scalar indexing, got tuple of " +
                           std::to_string(index->elements().size()),
                       call.location);
    if (static_cast<int>(index->elements().size()) != target->ndim())
      throwTypingError("Expected " + std::to_string(target->ndim()) + " indices, got " +
                           std::to_string(index->elements().size()),
                       call.location);
    valid = std::all_of(index->elements().begin(), index->elements().end(),
                        [](const Type *t) { return t->isIntegerLike(); });
  }
  if (!valid)
    throwTypingError(index->name() + " is not a valid index", call.location);
  const Type *dtype = target->isArray() ? target->dtype() : target->pointee();
  if (!dtype->isInteger() && !dtype->isFloat())
    throwTypingError(instruction + " requires array of integer or float type, got " + dtype->name(),
                     call.location);
  return dtype;
}

/// The global-memory address of the element a cache-operator load or store reads or writes
/// (array indices wrapped and bounds-checked as indexing does).
llvm::Value *cacheOperandAddress(LoweringApi &lowering, const LibraryCall &call,
                                 const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *target = call.argumentTypes[0];
  const Type *indexType = call.argumentTypes[1];
  llvm::Value *address;
  if (target->isPointer()) {
    llvm::Value *index = lowering.castValue(values[1], indexType, types::int64());
    address =
        builder.CreateGEP(memoryType(lowering.llvmContext(), target->pointee()), values[0], index);
  } else {
    std::vector<llvm::Value *> indices;
    size_t count = indexType->isTuple() ? indexType->elements().size() : 1;
    for (size_t i = 0; i < count; ++i) {
      llvm::Value *index = indexType->isTuple() ? lowering.tupleElement(values[1], indexType,
                                                                        static_cast<unsigned>(i))
                                                : values[1];
      const Type *type = indexType->isTuple() ? indexType->elements()[i] : indexType;
      indices.push_back(lowering.arrays().checkedIndex(
          index, type,
          lowering.arrays().arrayField(values[0], ArrayLayout::Shape, static_cast<int>(i)),
          static_cast<int>(i)));
    }
    address = lowering.arrays().elementAddress(values[0], target, indices);
  }
  // ld.global/st.global take a global address: the generic one converted (cvta.to.global).
  return builder.CreateAddrSpaceCast(address, llvm::PointerType::get(builder.getContext(), 1));
}

/// cuda.ld<op>(array, i): `ld.global.<op>.b<bits>` of the element, as numba-cuda emits it.
void addCacheLoad(Library &library, const std::string &op) {
  LibraryFunction function;
  function.name = "cuda.ld" + op;
  function.parameters = {{"", false}, {"", false}};
  function.targets = OnGpu;
  function.type = [op](const LibraryCall &call) { return typeCacheOperand(call, "ld" + op); };
  function.lower = [op](LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) -> llvm::Value * {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *dtype = call.resultType;
    unsigned bits = static_cast<unsigned>(dtype->bits());
    llvm::Value *address = cacheOperandAddress(lowering, call, values);
    llvm::Type *registerType = builder.getIntNTy(bits == 8 ? 32 : bits);
    auto *type = llvm::FunctionType::get(registerType, {address->getType()}, false);
    std::string text = "ld.global." + op + ".b" + std::to_string(bits) + " $0, [$1];";
    std::string constraints = std::string("=") + cacheOperandConstraint(bits) + ",l,~{memory}";
    llvm::Value *loaded =
        builder.CreateCall(llvm::InlineAsm::get(type, text, constraints, true), {address});
    if (bits == 8)
      loaded = builder.CreateTrunc(loaded, builder.getInt8Ty());
    return builder.CreateBitCast(loaded, valueType(lowering.llvmContext(), dtype));
  };
  library.add(std::move(function));
}

/// cuda.st<op>(array, i, value): `st.global.<op>.b<bits>` of the value cast to the dtype.
void addCacheStore(Library &library, const std::string &op) {
  LibraryFunction function;
  function.name = "cuda.st" + op;
  function.parameters = {{"", false}, {"", false}, {"", false}};
  function.targets = OnGpu;
  function.type = [op](const LibraryCall &call) {
    typeCacheOperand(call, "st" + op);
    if (!call.argumentTypes[2]->isNumber())
      throwTypingError("st" + op + " stores a number, not " + call.argumentTypes[2]->name(),
                       call.location);
    if (call.argumentTypes[0]->isArray() && call.argumentTypes[0]->isReadonly())
      throwTypingError("st" + op + " cannot write to a read-only array", call.location);
    return types::none();
  };
  function.lower = [op](LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) -> llvm::Value * {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *target = call.argumentTypes[0];
    const Type *dtype = target->isArray() ? target->dtype() : target->pointee();
    unsigned bits = static_cast<unsigned>(dtype->bits());
    llvm::Value *address = cacheOperandAddress(lowering, call, values);
    llvm::Value *value = builder.CreateBitCast(
        lowering.castValue(values[2], call.argumentTypes[2], dtype), builder.getIntNTy(bits));
    if (bits == 8)
      value = builder.CreateZExt(value, builder.getInt32Ty());
    auto *type =
        llvm::FunctionType::get(builder.getVoidTy(), {address->getType(), value->getType()}, false);
    std::string text = "st.global." + op + ".b" + std::to_string(bits) + " [$0], $1;";
    std::string constraints = std::string("l,") + cacheOperandConstraint(bits) + ",~{memory}";
    builder.CreateCall(llvm::InlineAsm::get(type, text, constraints, true), {address, value});
    return noneValue(lowering);
  };
  library.add(std::move(function));
}

} // namespace

void registerCudaArrays(Library &library) {
  for (const char *op : {"ca", "cg", "cs", "lu", "cv"})
    addCacheLoad(library, op);
  for (const char *op : {"cg", "cs", "wb", "wt"})
    addCacheStore(library, op);
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
