// Device definitions of the memory runtime's calls: blocks from the device heap (PTX malloc and
// free), reference counts changed with atomics, numba-cuda's statistics counters.
#include "cuda/DeviceMemoryRuntime.h"

#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <utility>

namespace taipan::cuda {
namespace {

/// Where a block's data starts: after the 40-byte MemInfo header, at the next 64 bytes (the
/// device's malloc gives 16-byte aligned memory, so the data is 16-byte aligned, enough for
/// every NumPy type).
constexpr int64_t DataOffset = 64;
static_assert(sizeof(runtime::MemInfo) <= DataOffset, "the header fits before the data");

/// The header's fields, as the host lays them out.
constexpr int64_t ReferencesOffset = offsetof(runtime::MemInfo, references);
constexpr int64_t DataPointerOffset = offsetof(runtime::MemInfo, data);
constexpr int64_t SizeOffset = offsetof(runtime::MemInfo, size);
constexpr int64_t DestructorOffset = offsetof(runtime::MemInfo, destructor);
constexpr int64_t PayloadOffset = offsetof(runtime::MemInfo, payload);

/// The statistics' counters, in DeviceMemoryStatistics order.
enum class Counter : int64_t {
  Alloc = offsetof(DeviceMemoryStatistics, alloc),
  Free = offsetof(DeviceMemoryStatistics, free),
  MiAlloc = offsetof(DeviceMemoryStatistics, miAlloc),
  MiFree = offsetof(DeviceMemoryStatistics, miFree),
};
constexpr int64_t EnabledOffset = offsetof(DeviceMemoryStatistics, enabled);

class Definitions {
public:
  explicit Definitions(llvm::Module &module)
      : module(module), context(module.getContext()), pointer(llvm::PointerType::get(context, 0)),
        i64(llvm::Type::getInt64Ty(context)), i32(llvm::Type::getInt32Ty(context)),
        voidType(llvm::Type::getVoidTy(context)) {}

  void define() {
    llvm::Function *allocate = module.getFunction("taipan_nrt_allocate");
    llvm::Function *withDestructor = module.getFunction("taipan_nrt_allocate_with_destructor");
    llvm::Function *allocateArray = module.getFunction("taipan_nrt_allocate_array");
    llvm::Function *increment = module.getFunction("taipan_nrt_incref");
    llvm::Function *decrement = module.getFunction("taipan_nrt_decref");
    // Blocks with destructors are made only by code of this module (a kernel's arguments are
    // borrowed, without blocks): without that allocation, the last decrement calls none.
    destructors = withDestructor && withDestructor->isDeclaration();
    if (allocate && allocate->isDeclaration())
      defineAllocate(*allocate, false);
    if (destructors)
      defineAllocate(*withDestructor, true);
    if (allocateArray && allocateArray->isDeclaration())
      defineAllocateArray(*allocateArray);
    if (increment && increment->isDeclaration())
      defineIncrement(*increment);
    if (decrement && decrement->isDeclaration())
      defineDecrement(*decrement);
  }

private:
  llvm::Module &module;
  llvm::LLVMContext &context;
  llvm::PointerType *pointer;
  llvm::Type *i64;
  llvm::Type *i32;
  llvm::Type *voidType;
  bool destructors = false;

  llvm::BasicBlock *block(llvm::Function &function, const char *name) {
    return llvm::BasicBlock::Create(context, name, &function);
  }

  /// A function of this module's runtime: internal (so that LLVM may specialise it) and out of
  /// line, the one copy every call of the module shares.
  llvm::Function *runtimeFunction(const char *name, llvm::FunctionType *type) {
    llvm::Function *function = module.getFunction(name);
    if (function)
      return function;
    function = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, module);
    function->addFnAttr(llvm::Attribute::NoInline);
    return function;
  }

  llvm::Value *field(llvm::IRBuilder<> &builder, llvm::Value *base, int64_t offset) {
    return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), base, offset);
  }

  /// The memsys pointer the host sets at load: external, so that LLVM assumes nothing of it.
  llvm::GlobalVariable *memsys() {
    if (llvm::GlobalVariable *existing = module.getGlobalVariable(DeviceMemorySystemGlobal))
      return existing;
    auto *global = new llvm::GlobalVariable(
        module, pointer, false, llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantPointerNull::get(pointer), DeviceMemorySystemGlobal, nullptr,
        llvm::GlobalValue::NotThreadLocal, 1, /*isExternallyInitialized=*/true);
    global->setAlignment(llvm::Align(8));
    return global;
  }

  /// Adds one to `counter` when the host has given a memsys and enabled its statistics; the
  /// builder continues in a new block after it.
  void count(llvm::IRBuilder<> &builder, Counter counter) {
    llvm::Function &function = *builder.GetInsertBlock()->getParent();
    llvm::Value *statistics = builder.CreateLoad(pointer, memsys(), "memsys");
    llvm::BasicBlock *given = block(function, "memsys.given");
    llvm::BasicBlock *enabled = block(function, "memsys.enabled");
    llvm::BasicBlock *done = block(function, "memsys.done");
    builder.CreateCondBr(builder.CreateIsNull(statistics), done, given);
    builder.SetInsertPoint(given);
    // Volatile: the host switches the statistics on and off between launches.
    llvm::Value *flag =
        builder.CreateLoad(i32, field(builder, statistics, EnabledOffset), /*isVolatile=*/true);
    builder.CreateCondBr(builder.CreateICmpEQ(flag, builder.getInt32(0)), done, enabled);
    builder.SetInsertPoint(enabled);
    builder.CreateAtomicRMW(
        llvm::AtomicRMWInst::Add, field(builder, statistics, static_cast<int64_t>(counter)),
        builder.getInt64(1), llvm::MaybeAlign(8), llvm::AtomicOrdering::Monotonic);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
  }

  /// NRT_Allocate(bytes): the device heap's memory, counted as an allocation, or null.
  llvm::Function *rawAllocate() {
    llvm::Function *function =
        runtimeFunction("NRT_Allocate", llvm::FunctionType::get(pointer, {i64}, false));
    if (!function->empty())
      return function;
    llvm::FunctionCallee malloc = module.getOrInsertFunction("malloc", pointer, i64);
    llvm::IRBuilder<> builder(block(*function, "entry"));
    llvm::Value *memory = builder.CreateCall(malloc, {function->getArg(0)});
    llvm::BasicBlock *counted = block(*function, "counted");
    llvm::BasicBlock *failed = block(*function, "failed");
    builder.CreateCondBr(builder.CreateIsNull(memory), failed, counted);
    builder.SetInsertPoint(failed);
    builder.CreateRet(memory);
    builder.SetInsertPoint(counted);
    count(builder, Counter::Alloc);
    builder.CreateRet(memory);
    return function;
  }

  /// NRT_Free(memory): back to the device heap, counted as a free.
  llvm::Function *rawFree() {
    llvm::Function *function =
        runtimeFunction("NRT_Free", llvm::FunctionType::get(voidType, {pointer}, false));
    if (!function->empty())
      return function;
    llvm::FunctionCallee free = module.getOrInsertFunction("free", voidType, pointer);
    llvm::IRBuilder<> builder(block(*function, "entry"));
    builder.CreateCall(free, {function->getArg(0)});
    count(builder, Counter::Free);
    builder.CreateRetVoid();
    return function;
  }

  /// NRT_MemInfo_alloc_aligned(bytes, destructor, payload): a block with one reference whose
  /// data is `bytes` long, or null when the heap has no room (or the size wraps).
  llvm::Function *blockAllocate() {
    llvm::Function *function =
        runtimeFunction("NRT_MemInfo_alloc_aligned",
                        llvm::FunctionType::get(pointer, {i64, pointer, pointer}, false));
    if (!function->empty())
      return function;
    llvm::IRBuilder<> builder(block(*function, "entry"));
    llvm::Value *bytes = function->getArg(0);
    llvm::Value *sum = builder.CreateBinaryIntrinsic(llvm::Intrinsic::uadd_with_overflow, bytes,
                                                     builder.getInt64(DataOffset));
    // A wrapped size asks for everything, which malloc refuses.
    llvm::Value *total =
        builder.CreateSelect(builder.CreateExtractValue(sum, 1), builder.getInt64(-1),
                             builder.CreateExtractValue(sum, 0));
    llvm::Value *memory = builder.CreateCall(rawAllocate(), {total});
    llvm::BasicBlock *made = block(*function, "made");
    llvm::BasicBlock *failed = block(*function, "failed");
    builder.CreateCondBr(builder.CreateIsNull(memory), failed, made);
    builder.SetInsertPoint(failed);
    builder.CreateRet(memory);
    builder.SetInsertPoint(made);
    builder.CreateStore(builder.getInt64(1), field(builder, memory, ReferencesOffset));
    builder.CreateStore(field(builder, memory, DataOffset),
                        field(builder, memory, DataPointerOffset));
    builder.CreateStore(bytes, field(builder, memory, SizeOffset));
    builder.CreateStore(function->getArg(1), field(builder, memory, DestructorOffset));
    builder.CreateStore(function->getArg(2), field(builder, memory, PayloadOffset));
    count(builder, Counter::MiAlloc);
    builder.CreateRet(memory);
    return function;
  }

  /// Records `exceptionId` with `message` through the device's taipan_raise.
  void raise(llvm::IRBuilder<> &builder, int exceptionId, const char *message) {
    llvm::FunctionCallee raise = module.getOrInsertFunction("taipan_raise", voidType, i32, pointer);
    builder.CreateCall(raise, {builder.getInt32(exceptionId),
                               builder.CreateGlobalStringPtr(message, "nrt.message", 0, &module)});
  }

  /// Allocation failed: MemoryError, as the host's allocation raises it.
  void raiseMemoryError(llvm::IRBuilder<> &builder) {
    raise(builder, MemoryErrorId,
          "Unable to allocate memory on the device: its malloc heap is full "
          "(cudaLimitMallocHeapSize)");
  }

  /// taipan_nrt_allocate(bytes) and taipan_nrt_allocate_with_destructor(bytes, destructor,
  /// payload): a block, or null with MemoryError recorded.
  void defineAllocate(llvm::Function &function, bool withDestructor) {
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> builder(block(function, "entry"));
    llvm::Value *null = llvm::ConstantPointerNull::get(pointer);
    llvm::Value *destructor = withDestructor ? function.getArg(1) : null;
    llvm::Value *payload = withDestructor ? function.getArg(2) : null;
    llvm::Value *made =
        builder.CreateCall(blockAllocate(), {function.getArg(0), destructor, payload});
    llvm::BasicBlock *failed = block(function, "failed");
    llvm::BasicBlock *done = block(function, "done");
    builder.CreateCondBr(builder.CreateIsNull(made), failed, done);
    builder.SetInsertPoint(failed);
    raiseMemoryError(builder);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRet(made);
  }

  /// taipan_nrt_allocate_array(shape, ndim, itemSize): the host's checks (MemoryRuntime.cpp),
  /// then a block: ValueError for a negative extent or a byte size past the largest intp (the
  /// item size times every non-zero extent, as NumPy computes it), MemoryError when the heap
  /// has no room.
  void defineAllocateArray(llvm::Function &function) {
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::Value *shape = function.getArg(0);
    llvm::Value *ndim = function.getArg(1);
    llvm::Value *itemSize = function.getArg(2);
    llvm::BasicBlock *entry = block(function, "entry");
    llvm::BasicBlock *loop = block(function, "extent");
    llvm::BasicBlock *step = block(function, "extent.step");
    llvm::BasicBlock *negative = block(function, "negative");
    llvm::BasicBlock *sized = block(function, "sized");
    llvm::BasicBlock *tooBig = block(function, "too.big");
    llvm::BasicBlock *allocate = block(function, "allocate");
    llvm::BasicBlock *failed = block(function, "failed");
    llvm::BasicBlock *done = block(function, "done");
    llvm::IRBuilder<> builder(entry);
    llvm::Value *null = llvm::ConstantPointerNull::get(pointer);
    builder.CreateBr(loop);

    builder.SetInsertPoint(loop);
    llvm::PHINode *index = builder.CreatePHI(i64, 2, "index");
    llvm::PHINode *bytes = builder.CreatePHI(i64, 2, "bytes");
    llvm::PHINode *overflow = builder.CreatePHI(builder.getInt1Ty(), 2, "overflow");
    llvm::PHINode *empty = builder.CreatePHI(builder.getInt1Ty(), 2, "empty");
    index->addIncoming(builder.getInt64(0), entry);
    bytes->addIncoming(itemSize, entry);
    overflow->addIncoming(builder.getFalse(), entry);
    empty->addIncoming(builder.getFalse(), entry);
    builder.CreateCondBr(builder.CreateICmpSLT(index, ndim), step, sized);

    builder.SetInsertPoint(step);
    llvm::Value *extent = builder.CreateLoad(i64, builder.CreateInBoundsGEP(i64, shape, index));
    llvm::BasicBlock *checked = block(function, "extent.checked");
    builder.CreateCondBr(builder.CreateICmpSLT(extent, builder.getInt64(0)), negative, checked);
    builder.SetInsertPoint(checked);
    llvm::Value *zero = builder.CreateICmpEQ(extent, builder.getInt64(0));
    llvm::Value *product =
        builder.CreateBinaryIntrinsic(llvm::Intrinsic::smul_with_overflow, bytes, extent);
    index->addIncoming(builder.CreateAdd(index, builder.getInt64(1)), checked);
    bytes->addIncoming(builder.CreateSelect(zero, bytes, builder.CreateExtractValue(product, 0)),
                       checked);
    overflow->addIncoming(
        builder.CreateOr(overflow, builder.CreateAnd(builder.CreateNot(zero),
                                                     builder.CreateExtractValue(product, 1))),
        checked);
    empty->addIncoming(builder.CreateOr(empty, zero), checked);
    builder.CreateBr(loop);

    builder.SetInsertPoint(negative);
    raise(builder, ValueErrorId, "negative dimensions are not allowed");
    builder.CreateRet(null);

    builder.SetInsertPoint(sized);
    builder.CreateCondBr(overflow, tooBig, allocate);
    builder.SetInsertPoint(tooBig);
    raise(builder, ValueErrorId,
          "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
          "size.");
    builder.CreateRet(null);

    builder.SetInsertPoint(allocate);
    llvm::Value *size = builder.CreateSelect(empty, builder.getInt64(0), bytes);
    llvm::Value *made = builder.CreateCall(blockAllocate(), {size, null, null});
    builder.CreateCondBr(builder.CreateIsNull(made), failed, done);
    builder.SetInsertPoint(failed);
    raiseMemoryError(builder);
    builder.CreateRet(null);
    builder.SetInsertPoint(done);
    builder.CreateRet(made);
  }

  /// taipan_nrt_incref: one more reference (null: an array borrowed from the host, nothing to
  /// count).
  void defineIncrement(llvm::Function &function) {
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::NoInline);
    llvm::IRBuilder<> builder(block(function, "entry"));
    llvm::BasicBlock *counted = block(function, "counted");
    llvm::BasicBlock *done = block(function, "done");
    llvm::Value *memInfo = function.getArg(0);
    builder.CreateCondBr(builder.CreateIsNull(memInfo), done, counted);
    builder.SetInsertPoint(counted);
    builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, field(builder, memInfo, ReferencesOffset),
                            builder.getInt64(1), llvm::MaybeAlign(8),
                            llvm::AtomicOrdering::Monotonic);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRetVoid();
  }

  /// taipan_nrt_decref: one reference less; the last one runs the block's destructor and frees
  /// it.
  void defineDecrement(llvm::Function &function) {
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::NoInline);
    llvm::IRBuilder<> builder(block(function, "entry"));
    llvm::BasicBlock *counted = block(function, "counted");
    llvm::BasicBlock *last = block(function, "last");
    llvm::BasicBlock *done = block(function, "done");
    llvm::Value *memInfo = function.getArg(0);
    builder.CreateCondBr(builder.CreateIsNull(memInfo), done, counted);
    builder.SetInsertPoint(counted);
    // Release and acquire: the last holder sees every write the others made before theirs.
    llvm::Value *before = builder.CreateAtomicRMW(
        llvm::AtomicRMWInst::Sub, field(builder, memInfo, ReferencesOffset), builder.getInt64(1),
        llvm::MaybeAlign(8), llvm::AtomicOrdering::AcquireRelease);
    builder.CreateCondBr(builder.CreateICmpEQ(before, builder.getInt64(1)), last, done);
    builder.SetInsertPoint(last);
    if (destructors) {
      llvm::Value *destructor =
          builder.CreateLoad(pointer, field(builder, memInfo, DestructorOffset));
      llvm::BasicBlock *destroy = block(function, "destroy");
      llvm::BasicBlock *release = block(function, "release");
      builder.CreateCondBr(builder.CreateIsNull(destructor), release, destroy);
      builder.SetInsertPoint(destroy);
      builder.CreateCall(llvm::FunctionType::get(voidType, {pointer, pointer}, false), destructor,
                         {builder.CreateLoad(pointer, field(builder, memInfo, DataPointerOffset)),
                          builder.CreateLoad(pointer, field(builder, memInfo, PayloadOffset))});
      builder.CreateBr(release);
      builder.SetInsertPoint(release);
    }
    count(builder, Counter::MiFree);
    builder.CreateCall(rawFree(), {memInfo});
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRetVoid();
  }
};

} // namespace

void defineDeviceMemoryRuntime(llvm::Module &module) { Definitions(module).define(); }

void finishDeviceMemoryRuntime(llvm::Module &module) {
  for (auto [ours, numbas] :
       {std::pair<const char *, const char *>{"taipan_nrt_incref", "NRT_incref"},
        {"taipan_nrt_decref", "NRT_decref"}})
    if (llvm::Function *function = module.getFunction(ours))
      if (!module.getFunction(numbas))
        function->setName(numbas);
  // Counting code that optimisation deleted (a kernel whose views of its borrowed arguments
  // folded away) leaves the global unused: the host then has nothing to set at load.
  llvm::GlobalVariable *memsys = module.getGlobalVariable(DeviceMemorySystemGlobal);
  if (memsys && memsys->use_empty())
    memsys->eraseFromParent();
}

} // namespace taipan::cuda
