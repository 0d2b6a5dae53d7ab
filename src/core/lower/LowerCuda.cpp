// CUDA builtins in kernels and device functions: NVVM special registers, barriers, memory
// spaces (shared memory is an addrspace(3) global), atomics and warp intrinsics.
#include "lower/FunctionLowering.h"

#include "typing/CudaTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace taipan {
namespace {

constexpr unsigned SharedAddressSpace = 3;

llvm::Intrinsic::ID specialRegister(const std::string &name) {
  using namespace llvm::Intrinsic;
  static const std::map<std::string, ID> registers = {
      {"cuda.threadIdx.x", nvvm_read_ptx_sreg_tid_x},
      {"cuda.threadIdx.y", nvvm_read_ptx_sreg_tid_y},
      {"cuda.threadIdx.z", nvvm_read_ptx_sreg_tid_z},
      {"cuda.blockIdx.x", nvvm_read_ptx_sreg_ctaid_x},
      {"cuda.blockIdx.y", nvvm_read_ptx_sreg_ctaid_y},
      {"cuda.blockIdx.z", nvvm_read_ptx_sreg_ctaid_z},
      {"cuda.blockDim.x", nvvm_read_ptx_sreg_ntid_x},
      {"cuda.blockDim.y", nvvm_read_ptx_sreg_ntid_y},
      {"cuda.blockDim.z", nvvm_read_ptx_sreg_ntid_z},
      {"cuda.gridDim.x", nvvm_read_ptx_sreg_nctaid_x},
      {"cuda.gridDim.y", nvvm_read_ptx_sreg_nctaid_y},
      {"cuda.gridDim.z", nvvm_read_ptx_sreg_nctaid_z},
      {"cuda.laneid", nvvm_read_ptx_sreg_laneid},
      {"cuda.warpsize", nvvm_read_ptx_sreg_warpsize},
  };
  auto found = registers.find(name);
  return found == registers.end() ? not_intrinsic : found->second;
}

} // namespace

llvm::Value *FunctionLowering::lowerCudaValue(const std::string &name, SourceLocation location) {
  llvm::Intrinsic::ID id = specialRegister(name);
  if (id == llvm::Intrinsic::not_intrinsic)
    throwUnsupported(name + " is not supported", location);
  if (!moduleLowering.target.hasThreadHierarchy())
    throwUnsupported(name + " can only be used in CUDA kernels and device functions", location);
  return builder.CreateIntrinsic(id, {}, {});
}

llvm::Value *FunctionLowering::lowerCudaCall(const std::string &name, Expr *expr,
                                             const std::vector<Expr *> &argumentExprs) {
  if (!moduleLowering.target.hasThreadHierarchy())
    throwUnsupported(name + "() can only be used in CUDA kernels and device functions",
                     expr->location);
  using namespace llvm::Intrinsic;
  const Type *result = typeOf(expr);
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::Type *i64 = builder.getInt64Ty();
  auto none = [&] { return llvm::UndefValue::get(valueType(context, types::none())); };
  auto intrinsic = [&](llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> values = {},
                       llvm::ArrayRef<llvm::Type *> overloads = {}) -> llvm::Value * {
    return builder.CreateIntrinsic(id, overloads, values);
  };
  if (name == "cuda.shared.array" || name == "cuda.local.array")
    return lowerCudaArray(name == "cuda.shared.array", expr, result);
  std::vector<llvm::Value *> values;
  std::vector<const Type *> types;
  for (Expr *argument : argumentExprs) {
    values.push_back(lowerExpr(argument));
    types.push_back(typeOf(argument));
  }
  auto asI32 = [&](size_t i) { return castValue(values[i], types[i], types::integer(32, false)); };
  if (name == "cuda.grid" || name == "cuda.gridsize") {
    static const llvm::Intrinsic::ID thread[] = {nvvm_read_ptx_sreg_tid_x, nvvm_read_ptx_sreg_tid_y,
                                                 nvvm_read_ptx_sreg_tid_z};
    static const llvm::Intrinsic::ID block[] = {
        nvvm_read_ptx_sreg_ctaid_x, nvvm_read_ptx_sreg_ctaid_y, nvvm_read_ptx_sreg_ctaid_z};
    static const llvm::Intrinsic::ID blockSize[] = {
        nvvm_read_ptx_sreg_ntid_x, nvvm_read_ptx_sreg_ntid_y, nvvm_read_ptx_sreg_ntid_z};
    static const llvm::Intrinsic::ID gridSize[] = {
        nvvm_read_ptx_sreg_nctaid_x, nvvm_read_ptx_sreg_nctaid_y, nvvm_read_ptx_sreg_nctaid_z};
    int dimensions = static_cast<int>(argumentExprs[0]->constant.intValue);
    std::vector<llvm::Value *> parts;
    for (int d = 0; d < dimensions; ++d) {
      llvm::Value *width = builder.CreateZExt(intrinsic(blockSize[d]), i64);
      if (name == "cuda.grid")
        parts.push_back(builder.CreateAdd(
            builder.CreateZExt(intrinsic(thread[d]), i64),
            builder.CreateMul(builder.CreateZExt(intrinsic(block[d]), i64), width)));
      else
        parts.push_back(builder.CreateMul(builder.CreateZExt(intrinsic(gridSize[d]), i64), width));
    }
    return dimensions == 1 ? parts[0] : lowerTuple(parts, result);
  }
  if (name == "cuda.syncthreads") {
    intrinsic(nvvm_barrier0);
    return none();
  }
  if (name == "cuda.syncthreads_count")
    return intrinsic(nvvm_barrier0_popc,
                     {builder.CreateZExt(truthValue(values[0], types[0]), i32)});
  if (name == "cuda.syncthreads_and" || name == "cuda.syncthreads_or")
    return intrinsic(name == "cuda.syncthreads_and" ? nvvm_barrier0_and : nvvm_barrier0_or,
                     {builder.CreateZExt(truthValue(values[0], types[0]), i32)});
  if (name == "cuda.syncwarp") {
    intrinsic(nvvm_bar_warp_sync, {values.empty() ? builder.getInt32(0xffffffff) : asI32(0)});
    return none();
  }
  if (name == "cuda.threadfence" || name == "cuda.threadfence_block" ||
      name == "cuda.threadfence_system") {
    intrinsic(name == "cuda.threadfence"         ? nvvm_membar_gl
              : name == "cuda.threadfence_block" ? nvvm_membar_cta
                                                 : nvvm_membar_sys);
    return none();
  }
  if (name == "cuda.cg.this_grid")
    return none();
  if (name == "cuda.const.array_like")
    return values[0];
  if (name == "cuda.cg.grid_group.sync") {
    lowerGridSync();
    return none();
  }
  if (name == "cuda.nanosleep") {
    intrinsic(nvvm_nanosleep, {asI32(0)});
    return none();
  }
  if (name.rfind("cuda.atomic.", 0) == 0)
    return lowerCudaAtomic(name.substr(12), values, types, expr->location);
  if (name == "cuda.shfl_sync" || name == "cuda.shfl_up_sync" || name == "cuda.shfl_down_sync" ||
      name == "cuda.shfl_xor_sync") {
    // 32-bit shuffles; 64-bit values go as two halves. The clamp is NVVM's c operand.
    llvm::Intrinsic::ID id = name == "cuda.shfl_sync"        ? nvvm_shfl_sync_idx_i32
                             : name == "cuda.shfl_up_sync"   ? nvvm_shfl_sync_up_i32
                             : name == "cuda.shfl_down_sync" ? nvvm_shfl_sync_down_i32
                                                             : nvvm_shfl_sync_bfly_i32;
    llvm::Value *clamp = builder.getInt32(name == "cuda.shfl_up_sync" ? 0 : 0x1f);
    llvm::Value *value = castValue(values[1], types[1], result);
    llvm::Type *type = value->getType();
    unsigned bits = type->getPrimitiveSizeInBits();
    llvm::Value *word = builder.CreateBitCast(value, builder.getIntNTy(bits));
    if (bits <= 32) {
      llvm::Value *widened = builder.CreateZExt(word, i32);
      llvm::Value *moved = intrinsic(id, {asI32(0), widened, asI32(2), clamp});
      return builder.CreateBitCast(builder.CreateTrunc(moved, builder.getIntNTy(bits)), type);
    }
    llvm::Value *low = builder.CreateTrunc(word, i32);
    llvm::Value *high = builder.CreateTrunc(builder.CreateLShr(word, 32), i32);
    low = builder.CreateZExt(intrinsic(id, {asI32(0), low, asI32(2), clamp}), i64);
    high = builder.CreateZExt(intrinsic(id, {asI32(0), high, asI32(2), clamp}), i64);
    return builder.CreateBitCast(builder.CreateOr(low, builder.CreateShl(high, 32)), type);
  }
  if (name == "cuda.ballot_sync")
    return intrinsic(nvvm_vote_ballot_sync, {asI32(0), truthValue(values[1], types[1])});
  if (name == "cuda.all_sync" || name == "cuda.any_sync" || name == "cuda.eq_sync") {
    llvm::Intrinsic::ID id = name == "cuda.all_sync"   ? nvvm_vote_all_sync
                             : name == "cuda.any_sync" ? nvvm_vote_any_sync
                                                       : nvvm_vote_uni_sync;
    return builder.CreateZExt(intrinsic(id, {asI32(0), truthValue(values[1], types[1])}), i32);
  }
  if (name == "cuda.match_any_sync") {
    bool wide = types[1]->bits() > 32;
    llvm::Value *value = castValue(values[1], types[1], types::integer(wide ? 64 : 32, false));
    return intrinsic(wide ? nvvm_match_any_sync_i64 : nvvm_match_any_sync_i32, {asI32(0), value});
  }
  if (name == "cuda.activemask") {
    auto *type = llvm::FunctionType::get(i32, false);
    return builder.CreateCall(llvm::InlineAsm::get(type, "activemask.b32 $0;", "=r", true), {});
  }
  if (name == "cuda.lanemask_lt")
    return intrinsic(nvvm_read_ptx_sreg_lanemask_lt);
  if (name == "cuda.popc")
    return builder.CreateIntCast(
        intrinsic(llvm::Intrinsic::ctpop, {values[0]}, {values[0]->getType()}), i32, false);
  if (name == "cuda.clz")
    return builder.CreateIntCast(
        intrinsic(llvm::Intrinsic::ctlz, {values[0], builder.getFalse()}, {values[0]->getType()}),
        i32, false);
  if (name == "cuda.ffs") {
    llvm::Value *value = values[0];
    llvm::Value *trailing = builder.CreateIntCast(
        intrinsic(llvm::Intrinsic::cttz, {value, builder.getFalse()}, {value->getType()}), i32,
        false);
    return builder.CreateSelect(
        builder.CreateICmpEQ(value, llvm::ConstantInt::get(value->getType(), 0)),
        builder.getInt32(0), builder.CreateAdd(trailing, builder.getInt32(1)));
  }
  if (name == "cuda.brev") {
    llvm::Value *value = castValue(values[0], types[0], result);
    return intrinsic(llvm::Intrinsic::bitreverse, {value}, {value->getType()});
  }
  if (name == "cuda.fma") {
    std::vector<llvm::Value *> operands;
    for (size_t i = 0; i < 3; ++i)
      operands.push_back(castValue(values[i], types[i], result));
    return intrinsic(llvm::Intrinsic::fma, operands, {operands[0]->getType()});
  }
  if (name == "cuda.cbrt")
    return callLibm("cbrt", {castValue(values[0], types[0], result)}, result);
  throwUnsupported(name + " is not supported yet", expr->location);
}

void FunctionLowering::lowerDevicePrint(const std::vector<Expr *> &arguments) {
  // One vprintf per print(), so lines from different threads do not interleave mid-line:
  // a format string and a buffer of the values, each 8 bytes as C's varargs promote them.
  std::string format;
  std::vector<llvm::Value *> values;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i)
      format += " ";
    Expr *argument = arguments[i];
    const Type *type = typeOf(argument);
    if (type->kind() == TypeKind::StringLiteral) {
      for (char c : type->text())
        format += c == '%' ? std::string("%%") : std::string(1, c);
      continue;
    }
    llvm::Value *value = lowerExpr(argument);
    if (type->isFloat()) {
      format += "%f";
      values.push_back(castValue(value, type, types::float64()));
    } else if (type->isInteger() || type->isBoolean()) {
      format += type->isInteger() && !type->isSigned() ? "%llu" : "%lld";
      values.push_back(castValue(
          value, type, type->isBoolean() ? types::int64() : types::integer(64, type->isSigned())));
    } else if (type->isNone()) {
      format += "None";
    } else {
      throwUnsupported("print() in CUDA kernels takes numbers and constant strings, not " +
                           type->name(),
                       argument->location);
    }
  }
  format += "\n";
  std::vector<llvm::Type *> fields;
  for (llvm::Value *value : values)
    fields.push_back(value->getType());
  llvm::Value *buffer = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!values.empty()) {
    auto *layout = llvm::StructType::get(context, fields);
    llvm::AllocaInst *slot = createEntryAlloca(layout, "printf.arguments");
    for (size_t i = 0; i < values.size(); ++i)
      builder.CreateStore(values[i], builder.CreateStructGEP(layout, slot, i));
    buffer = slot;
  }
  builder.CreateCall(moduleLowering.runtimeFunction("vprintf", builder.getInt32Ty(),
                                                    {builder.getPtrTy(), builder.getPtrTy()}),
                     {moduleLowering.stringConstant(format), buffer});
}

void FunctionLowering::lowerGridSync() {
  // A grid-wide barrier over a 64-bit arrival counter in global memory: thread 0 of each
  // block arrives and waits for the next multiple of the block count. Blocks must all be
  // resident, which the cooperative launch of kernels using this guarantees.
  using namespace llvm::Intrinsic;
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::GlobalVariable *counter = moduleLowering.module.getGlobalVariable("taipan_grid_barrier");
  if (!counter)
    counter = new llvm::GlobalVariable(moduleLowering.module, i64, false,
                                       llvm::GlobalValue::ExternalLinkage,
                                       llvm::ConstantInt::get(i64, 0), "taipan_grid_barrier",
                                       nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  llvm::Value *address = builder.CreateAddrSpaceCast(counter, builder.getPtrTy());
  builder.CreateIntrinsic(nvvm_barrier0, {}, {});
  llvm::Value *first = builder.CreateICmpEQ(
      builder.CreateOr(builder.CreateOr(builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_x, {}, {}),
                                        builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_y, {}, {})),
                       builder.CreateIntrinsic(nvvm_read_ptx_sreg_tid_z, {}, {})),
      builder.getInt32(0));
  llvm::BasicBlock *arrive = newBlock("grid.arrive");
  llvm::BasicBlock *wait = newBlock("grid.wait");
  llvm::BasicBlock *done = newBlock("grid.done");
  builder.CreateCondBr(first, arrive, done);
  builder.SetInsertPoint(arrive);
  builder.CreateIntrinsic(nvvm_membar_gl, {}, {});
  auto extent = [&](llvm::Intrinsic::ID id) {
    return builder.CreateZExt(builder.CreateIntrinsic(id, {}, {}), i64);
  };
  llvm::Value *blocks = builder.CreateMul(
      builder.CreateMul(extent(nvvm_read_ptx_sreg_nctaid_x), extent(nvvm_read_ptx_sreg_nctaid_y)),
      extent(nvvm_read_ptx_sreg_nctaid_z));
  llvm::Value *arrived =
      builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, address, builder.getInt64(1),
                              llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
  llvm::Value *target = builder.CreateMul(
      builder.CreateAdd(builder.CreateUDiv(arrived, blocks), builder.getInt64(1)), blocks);
  builder.CreateBr(wait);
  builder.SetInsertPoint(wait);
  auto *current = builder.CreateLoad(i64, address);
  current->setVolatile(true);
  builder.CreateCondBr(builder.CreateICmpULT(current, target), wait, done);
  builder.SetInsertPoint(done);
  builder.CreateIntrinsic(nvvm_membar_gl, {}, {});
  builder.CreateIntrinsic(nvvm_barrier0, {}, {});
}

llvm::Value *FunctionLowering::lowerCudaArray(bool shared, Expr *expr, const Type *arrayType) {
  const std::vector<int64_t> &extents = function.constantArguments.at(expr->id);
  const Type *dtype = arrayType->dtype();
  llvm::Type *element = memoryType(context, dtype);
  int64_t count = 1;
  for (int64_t extent : extents)
    count *= extent;
  llvm::Value *data;
  llvm::Value *dynamicCount = nullptr;
  if (shared) {
    // One addrspace(3) global per call site; every dynamic (shape 0) array is the same
    // external array, whose size is the launch's dynamic shared memory.
    bool dynamic = count == 0;
    llvm::Type *storage = llvm::ArrayType::get(element, dynamic ? 0 : count);
    auto *global = new llvm::GlobalVariable(
        moduleLowering.module, storage, false,
        dynamic ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage,
        dynamic ? nullptr : llvm::UndefValue::get(storage),
        dynamic ? "taipan_dynamic_shared" : "taipan_shared", nullptr,
        llvm::GlobalValue::NotThreadLocal, SharedAddressSpace);
    global->setAlignment(llvm::Align(16));
    data = builder.CreateAddrSpaceCast(global, builder.getPtrTy());
    if (dynamic) {
      auto *type = llvm::FunctionType::get(builder.getInt32Ty(), false);
      llvm::Value *bytes = builder.CreateCall(
          llvm::InlineAsm::get(type, "mov.u32 $0, %dynamic_smem_size;", "=r", true), {});
      dynamicCount = builder.CreateUDiv(builder.CreateZExt(bytes, builder.getInt64Ty()),
                                        builder.getInt64(dtype->storageSize()));
    }
  } else {
    data = createEntryAlloca(llvm::ArrayType::get(element, count), "local.array");
  }
  llvm::Value *array = llvm::Constant::getNullValue(valueType(context, arrayType));
  array = withArrayField(array, ArrayLayout::ItemSize, builder.getInt64(dtype->storageSize()));
  array = withArrayField(array, ArrayLayout::Data, data);
  array = withArrayField(array, ArrayLayout::ItemCount,
                         dynamicCount ? dynamicCount : builder.getInt64(count));
  int64_t stride = static_cast<int64_t>(dtype->storageSize());
  for (size_t i = extents.size(); i-- > 0;) {
    llvm::Value *extent = dynamicCount ? dynamicCount : builder.getInt64(extents[i]);
    array = withArrayField(array, ArrayLayout::Shape, extent, static_cast<int>(i));
    array =
        withArrayField(array, ArrayLayout::Strides, builder.getInt64(stride), static_cast<int>(i));
    stride *= extents[i];
  }
  return array;
}

llvm::Value *FunctionLowering::lowerCudaAtomic(const std::string &operation,
                                               const std::vector<llvm::Value *> &values,
                                               const std::vector<const Type *> &types,
                                               SourceLocation location) {
  const Type *arrayType = types[0];
  const Type *dtype = arrayType->dtype();
  llvm::Value *array = values[0];
  std::vector<llvm::Value *> indices;
  if (types[1]->isTuple()) {
    for (size_t i = 0; i < types[1]->elements().size(); ++i)
      indices.push_back(checkedIndex(
          tupleElement(values[1], types[1], static_cast<unsigned>(i)), types[1]->elements()[i],
          arrayField(array, ArrayLayout::Shape, static_cast<int>(i)), static_cast<int>(i)));
  } else {
    indices.push_back(
        checkedIndex(values[1], types[1], arrayField(array, ArrayLayout::Shape, 0), 0));
  }
  if (static_cast<int>(indices.size()) != arrayType->ndim())
    throwTypingError("an atomic operation needs one index per dimension", location);
  llvm::Value *address = elementAddress(array, arrayType, indices);
  llvm::Value *operand = castValue(values[2], types[2], dtype);
  auto ordering = llvm::AtomicOrdering::Monotonic;
  if (operation == "cas") {
    llvm::Value *desired = castValue(values[3], types[3], dtype);
    llvm::Value *pair = builder.CreateAtomicCmpXchg(address, operand, desired, llvm::MaybeAlign(),
                                                    ordering, ordering);
    return builder.CreateExtractValue(pair, 0);
  }
  using Op = llvm::AtomicRMWInst::BinOp;
  Op op;
  bool isFloat = dtype->isFloat();
  bool isSigned = dtype->isSigned();
  if (operation == "add")
    op = isFloat ? Op::FAdd : Op::Add;
  else if (operation == "sub")
    op = isFloat ? Op::FSub : Op::Sub;
  else if (operation == "max")
    op = isFloat ? Op::FMax : isSigned ? Op::Max : Op::UMax;
  else if (operation == "min")
    op = isFloat ? Op::FMin : isSigned ? Op::Min : Op::UMin;
  else if (operation == "exch")
    op = Op::Xchg;
  else if (operation == "and_")
    op = Op::And;
  else if (operation == "or_")
    op = Op::Or;
  else if (operation == "xor")
    op = Op::Xor;
  else if (operation == "inc")
    op = Op::UIncWrap;
  else if (operation == "dec")
    op = Op::UDecWrap;
  else
    throwUnsupported("cuda.atomic." + operation + " is not supported", location);
  return builder.CreateAtomicRMW(op, address, operand, llvm::MaybeAlign(), ordering);
}

} // namespace taipan
