// NVPTX code generation, in the order GPUCompiler uses: device runtime, libdevice (linked only
// where needed), internalise all but the kernels, then optimise and emit PTX.
#include "cuda/CudaTarget.h"

#include "lower/FunctionLowering.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"
#include "target/CodeEmitter.h"
#include "target/PassPipeline.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>

namespace taipan {
namespace {

constexpr const char *Triple = "nvptx64-nvidia-cuda";

std::mutex libdeviceMutex;
std::string configuredLibdevice;
std::unique_ptr<llvm::MemoryBuffer> libdeviceBitcode;

void initializeNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// The PTX ISA version to use for an architecture (and LLVM 19's limits).
std::string ptxVersionFeature(int computeCapability) {
  // LLVM 19 knows PTX up to 8.5; sm_90 needs 7.8, and drivers accept older ISAs.
  if (computeCapability >= 90)
    return "+ptx80";
  if (computeCapability >= 80)
    return "+ptx70";
  return "+ptx64";
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(int computeCapability, const CompileOptions &compileOptions, int level) {
  initializeNvptx();
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(Triple, error);
  if (!nvptx)
    throw CompileError(CompileErrorKind::Internal, "NVPTX target missing: " + error, {});
  llvm::TargetOptions options;
  if (compileOptions.fastmathApproximate) {
    options.UnsafeFPMath = true;
    options.NoInfsFPMath = true;
    options.NoNaNsFPMath = true;
    options.NoSignedZerosFPMath = true;
    options.ApproxFuncFPMath = true;
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  }
  std::string cpu = "sm_" + std::to_string(computeCapability);
  return std::unique_ptr<llvm::TargetMachine>(nvptx->createTargetMachine(
      Triple, cpu, ptxVersionFeature(computeCapability), options, std::nullopt, std::nullopt,
      level >= 2   ? llvm::CodeGenOptLevel::Aggressive
      : level == 1 ? llvm::CodeGenOptLevel::Less
                   : llvm::CodeGenOptLevel::None));
}

/// fastmath=True for the whole module, as NVVM's -ftz=1 -prec-div=0 -prec-sqrt=0 -fma=1 are:
/// code generation reads these attributes per function (they override the TargetOptions), so
/// every function, libdevice's included, gets them, and inlining cannot drop them.
void applyApproximateMath(llvm::Module &module) {
  for (llvm::Function &function : module.functions()) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("unsafe-fp-math", "true");
    function.addFnAttr("no-nans-fp-math", "true");
    function.addFnAttr("no-infs-fp-math", "true");
    function.addFnAttr("no-signed-zeros-fp-math", "true");
    function.addFnAttr("approx-func-fp-math", "true");
    function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
}

/// Lazily loads libdevice from its bitcode: only the functions the module calls are read.
std::unique_ptr<llvm::Module> loadLibdevice(llvm::LLVMContext &context) {
  std::lock_guard<std::mutex> lock(libdeviceMutex);
  if (!libdeviceBitcode) {
    std::string path = cuda::libdevicePath();
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      throw CompileError(CompileErrorKind::Unsupported,
                         "libdevice was not found (looked for " + path +
                             "); install the CUDA toolkit or set CUDA_HOME",
                         {});
    libdeviceBitcode = std::move(*buffer);
  }
  auto module = llvm::getLazyBitcodeModule(libdeviceBitcode->getMemBufferRef(), context);
  if (!module)
    throw CompileError(CompileErrorKind::Internal,
                       "cannot read libdevice: " + llvm::toString(module.takeError()), {});
  return std::move(*module);
}

/// Device definitions of the runtime calls lowering emits: exceptions set a flag (read by the
/// host after a debug launch), reference counting has nothing to count (device arrays are
/// borrowed), allocation is refused.
void defineDeviceRuntime(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  // What the host reads after a debug launch: the exception id of the first raise (0: none),
  // then the raising thread's tid.xyz and ctaid.xyz and the address of its message.
  auto global = [&](llvm::Type *type, const char *name) {
    return new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage,
                                    llvm::Constant::getNullValue(type), name, nullptr,
                                    llvm::GlobalValue::NotThreadLocal, 1);
  };
  llvm::GlobalVariable *error = global(i32, "taipan_cuda_exception");
  llvm::GlobalVariable *where =
      global(llvm::ArrayType::get(i32, 6), "taipan_cuda_exception_thread");
  constexpr unsigned MessageBytes = 256;
  llvm::Type *i8 = llvm::Type::getInt8Ty(context);
  llvm::GlobalVariable *message =
      global(llvm::ArrayType::get(i8, MessageBytes), "taipan_cuda_exception_message");
  for (llvm::Function &function : module.functions()) {
    if (!function.isDeclaration())
      continue;
    llvm::StringRef name = function.getName();
    if (function.hasFnAttribute(ForeignFunctionAttribute))
      continue;
    if (name.starts_with("taipan_nrt_allocate"))
      throw CompileError(CompileErrorKind::Unsupported,
                         "arrays cannot be created inside a CUDA kernel or device function; "
                         "use cuda.local.array or cuda.shared.array",
                         {});
    if (!name.starts_with("taipan_"))
      continue;
    if (name == "taipan_nrt_incref" || name == "taipan_nrt_decref") {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
      llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
      builder.CreateRetVoid(); // device arrays are borrowed: nothing to count
      continue;
    }
    if (name == "taipan_raise" || name == "taipan_raise_index_error") {
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
      llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", &function);
      llvm::BasicBlock *record = llvm::BasicBlock::Create(context, "record", &function);
      llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "done", &function);
      llvm::IRBuilder<> builder(entry);
      bool isIndex = name == "taipan_raise_index_error";
      llvm::Value *code =
          isIndex ? static_cast<llvm::Value *>(builder.getInt32(IndexErrorId)) : function.getArg(0);
      // Only the first raise in the launch is recorded.
      llvm::Value *exchange = builder.CreateAtomicCmpXchg(
          error, builder.getInt32(0), code, llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic,
          llvm::AtomicOrdering::Monotonic);
      builder.CreateCondBr(builder.CreateExtractValue(exchange, 1), record, done);
      builder.SetInsertPoint(record);
      using namespace llvm::Intrinsic;
      llvm::Intrinsic::ID registers[] = {nvvm_read_ptx_sreg_tid_x,   nvvm_read_ptx_sreg_tid_y,
                                         nvvm_read_ptx_sreg_tid_z,   nvvm_read_ptx_sreg_ctaid_x,
                                         nvvm_read_ptx_sreg_ctaid_y, nvvm_read_ptx_sreg_ctaid_z};
      for (unsigned i = 0; i < 6; ++i)
        builder.CreateStore(builder.CreateIntrinsic(registers[i], {}, {}),
                            builder.CreateConstInBoundsGEP2_32(where->getValueType(), where, 0, i));
      if (isIndex) {
        builder.CreateBr(done);
      } else {
        // Copy the message (at most 255 bytes) where the host can read it whole.
        llvm::BasicBlock *copy = llvm::BasicBlock::Create(context, "copy", &function);
        builder.CreateBr(copy);
        builder.SetInsertPoint(copy);
        llvm::PHINode *index = builder.CreatePHI(i64, 2);
        index->addIncoming(builder.getInt64(0), record);
        llvm::Value *byte =
            builder.CreateLoad(i8, builder.CreateInBoundsGEP(i8, function.getArg(1), index));
        builder.CreateStore(byte, builder.CreateInBoundsGEP(message->getValueType(), message,
                                                            {builder.getInt64(0), index}));
        llvm::Value *next = builder.CreateAdd(index, builder.getInt64(1));
        index->addIncoming(next, copy);
        llvm::Value *finished =
            builder.CreateOr(builder.CreateICmpEQ(byte, builder.getInt8(0)),
                             builder.CreateICmpEQ(next, builder.getInt64(MessageBytes - 1)));
        builder.CreateCondBr(finished, done, copy);
      }
      builder.SetInsertPoint(done);
      builder.CreateRetVoid();
      continue;
    }
    throw CompileError(CompileErrorKind::Unsupported,
                       "this operation is not supported in CUDA kernels (it needs the host "
                       "runtime function " +
                           name.str() + ")",
                       {});
  }
}

/// Whether libdevice must define `function`: a declaration of a math function, by its C name
/// (renamed to libdevice's below) or by libdevice's own `__nv_` name.
bool needsLibdevice(const llvm::Function &function) {
  llvm::StringRef name = function.getName();
  return function.isDeclaration() && !function.isIntrinsic() &&
         !function.hasFnAttribute(ForeignFunctionAttribute) && !name.starts_with("taipan_") &&
         !name.starts_with("llvm.") && name != "vprintf";
}

/// libm names (sin, expf, ...) become the target's (libdevice's __nv_sin, __nv_expf, ...).
void renameToLibdevice(llvm::Module &module, llvm::Module &libdevice, const Target &target) {
  for (llvm::Function &function : llvm::make_early_inc_range(module.functions())) {
    if (!needsLibdevice(function) || function.getName().starts_with("__nv_"))
      continue;
    std::string name = target.mathFunctionName(function.getName().str());
    if (name.empty() || !libdevice.getFunction(name))
      throw CompileError(
          CompileErrorKind::Unsupported,
          "the function " + function.getName().str() + " is not available on CUDA devices", {});
    llvm::FunctionCallee replacement = module.getOrInsertFunction(name, function.getFunctionType());
    function.replaceAllUsesWith(replacement.getCallee());
    function.eraseFromParent();
  }
}

} // namespace

namespace cuda {

void setLibdevicePath(const std::string &path) {
  std::lock_guard<std::mutex> lock(libdeviceMutex);
  configuredLibdevice = path;
  libdeviceBitcode.reset();
}

std::string libdevicePath() {
  if (!configuredLibdevice.empty())
    return configuredLibdevice;
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"}) {
    const char *root = std::getenv(variable);
    if (root && *root) {
      std::string candidate = std::string(root) + "/nvvm/libdevice/libdevice.10.bc";
      if (std::filesystem::exists(candidate))
        return candidate;
    }
  }
  return "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
}

} // namespace cuda

CudaTarget::CudaTarget(int computeCapability, const CompileOptions &options, Entry entry,
                       std::string cSymbol)
    : computeCapability(computeCapability), options(options), entry(entry),
      cSymbol(std::move(cSymbol)),
      machine(leaseTargetMachine(
          "nvptx sm_" + std::to_string(computeCapability) + " level " +
              std::to_string(optimizationLevel()) +
              (options.fastmathApproximate ? " approximate" : ""),
          [&] { return createTargetMachine(computeCapability, options, optimizationLevel()); })) {}

CudaTarget::~CudaTarget() = default;

int CudaTarget::optimizationLevel() const {
  return options.optimizationLevel < 0 ? 3 : options.optimizationLevel;
}

std::vector<std::string> CudaTarget::identity() const {
  if (entry == Entry::CDeviceFunction)
    return {Triple, std::to_string(computeCapability), "c-abi " + cSymbol};
  return {Triple, std::to_string(computeCapability)};
}

void CudaTarget::prepareModule(llvm::Module &module) const {
  module.setTargetTriple(Triple);
  module.setDataLayout(machine->createDataLayout());
}

void CudaTarget::checkEntry(const TypedFunction &root) const {
  if (entry == Entry::Kernel && !root.returnType->isNone())
    throwTypingError("a CUDA kernel cannot return a value (it returns " + root.returnType->name() +
                         "); write results into an array argument",
                     root.source->definitionLocation);
}

namespace {

/// An array argument of a kernel whose data pointer is marked as global memory (where every
/// array a kernel is given lives: device, managed and mapped host memory alike), so that LLVM
/// infers the address space and its loads and stores become ld.global/st.global instead of
/// generic ones (no conversion of addresses, and cached loads), as numba-cuda's do. Other arguments
/// are returned as they are.
llvm::Value *inGlobalMemory(llvm::IRBuilder<> &builder, llvm::Value *argument, const Type *type) {
  if (!type->isArray())
    return argument;
  llvm::Value *data = builder.CreateExtractValue(argument, {ArrayLayout::Data});
  if (!data->getType()->isPointerTy() || data->getType()->getPointerAddressSpace() != 0)
    return argument;
  // The intrinsic, not a pair of casts, which InstCombine would fold away before the address
  // spaces are inferred.
  llvm::Value *global = builder.CreateIntrinsic(
      llvm::Intrinsic::nvvm_ptr_gen_to_global,
      {llvm::PointerType::get(builder.getContext(), 1), data->getType()}, {data});
  return builder.CreateInsertValue(argument, builder.CreateAddrSpaceCast(global, data->getType()),
                                   {ArrayLayout::Data});
}

/// A kernel parameter's type: the argument's memory form, or a byte for a value that holds no
/// data (an empty tuple, None, a tuple of those): NVPTX cannot declare an empty parameter, and
/// the launcher's argument block has a slot for every argument all the same.
llvm::Type *kernelParameterType(llvm::LLVMContext &context, const Type *argument) {
  if (argument->storageSize() == 0)
    return llvm::Type::getInt8Ty(context);
  return memoryType(context, argument);
}

} // namespace

std::string CudaTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                    const std::vector<TypedFunction *> &) const {
  llvm::Function *callee = lowering.declare(root);
  if (entry == Entry::DeviceFunction) {
    callee->setLinkage(llvm::GlobalValue::ExternalLinkage);
    return callee->getName().str();
  }
  llvm::LLVMContext &context = lowering.context;
  if (entry == Entry::CDeviceFunction) {
    std::vector<llvm::Type *> parameters;
    for (const Type *argument : root.argumentTypes)
      parameters.push_back(memoryType(context, argument));
    bool returnsNothing = root.returnType->isNone();
    llvm::Type *resultType =
        returnsNothing ? llvm::Type::getVoidTy(context) : memoryType(context, root.returnType);
    auto *type = llvm::FunctionType::get(resultType, parameters, false);
    auto *function =
        llvm::Function::Create(type, llvm::Function::ExternalLinkage, cSymbol, lowering.module);
    if (function->getName() != cSymbol)
      throw CompileError(CompileErrorKind::Unsupported,
                         "the C-ABI name " + cSymbol + " is taken by another symbol of the module",
                         root.source->definitionLocation);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", function));
    lowering.describeWrapper(function, callee, builder);
    llvm::Value *result = builder.CreateAlloca(memoryType(context, root.returnType));
    std::vector<llvm::Value *> arguments = {result};
    for (llvm::Argument &argument : function->args())
      arguments.push_back(&argument);
    builder.CreateCall(callee, arguments); // the status is dropped, as numba-cuda's C ABI does
    if (returnsNothing)
      builder.CreateRetVoid();
    else
      builder.CreateRet(builder.CreateLoad(resultType, result));
    return function->getName().str();
  }
  std::vector<llvm::Type *> parameters;
  for (const Type *argument : root.argumentTypes)
    parameters.push_back(kernelParameterType(context, argument));
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), parameters, false);
  auto *kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                        root.symbolName + "_kernel", lowering.module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", kernel));
  lowering.describeWrapper(kernel, callee, builder);
  llvm::Value *result = builder.CreateAlloca(memoryType(context, root.returnType));
  std::vector<llvm::Value *> arguments = {result};
  for (llvm::Argument &argument : kernel->args()) {
    const Type *argumentType = root.argumentTypes[argument.getArgNo()];
    if (argumentType->storageSize() == 0) // the placeholder byte: the value has no data
      arguments.push_back(llvm::Constant::getNullValue(memoryType(context, argumentType)));
    else
      arguments.push_back(inGlobalMemory(builder, &argument, argumentType));
  }
  builder.CreateCall(callee, arguments);
  builder.CreateRetVoid();
  return kernel->getName().str();
}

std::string CudaTarget::mathFunctionName(const std::string &libmName) const {
  static const std::set<std::string> fast = {"cosf",  "sinf",   "tanf", "expf",
                                             "log2f", "log10f", "logf", "powf"};
  if (options.fastmathApproximate && fast.count(libmName))
    return "__nv_fast_" + libmName;
  return "__nv_" + libmName;
}

void CudaTarget::finalizeModule(llvm::Module &module, const std::string &entryName) const {
  llvm::LLVMContext &context = module.getContext();
  bool approximate = options.fastmathApproximate;
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", approximate ? 1 : 0);

  // The kernel: an externally visible entry point, annotated as such.
  llvm::NamedMDNode *annotations = module.getOrInsertNamedMetadata("nvvm.annotations");
  llvm::Function *kernel = module.getFunction(entryName);
  if (!kernel)
    throw CompileError(CompileErrorKind::Internal, "kernel " + entryName + " was not lowered", {});
  if (entry == Entry::Kernel) {
    llvm::Metadata *operands[] = {
        llvm::ValueAsMetadata::get(kernel), llvm::MDString::get(context, "kernel"),
        llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1))};
    annotations->addOperand(llvm::MDNode::get(context, operands));
    if (options.maxRegisters > 0) {
      llvm::Metadata *limit[] = {llvm::ValueAsMetadata::get(kernel),
                                 llvm::MDString::get(context, "maxnreg"),
                                 llvm::ValueAsMetadata::get(llvm::ConstantInt::get(
                                     llvm::Type::getInt32Ty(context), options.maxRegisters))};
      annotations->addOperand(llvm::MDNode::get(context, limit));
    }
  }

  defineDeviceRuntime(module);
  // Reading libdevice's symbol table is most of this stage: a kernel calling no math skips it.
  if (llvm::any_of(module.functions(), needsLibdevice)) {
    std::unique_ptr<llvm::Module> libdevice = loadLibdevice(context);
    renameToLibdevice(module, *libdevice, *this);
    libdevice->setTargetTriple(Triple);
    libdevice->setDataLayout(module.getDataLayout());
    if (llvm::Linker::linkModules(module, std::move(libdevice), llvm::Linker::LinkOnlyNeeded))
      throw CompileError(CompileErrorKind::Internal, "linking libdevice failed", {});
  }
  // Everything but the entry point (and the exception flag the host reads) is internal, so
  // LLVM inlines and deletes freely.
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &value) {
    return value.getName() == entryName || value.getName().starts_with("taipan_cuda_exception") ||
           value.getName() == "taipan_grid_barrier";
  });
  if (approximate)
    applyApproximateMath(module);

  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    throw CompileError(CompileErrorKind::Internal,
                       "taipan generated invalid NVPTX IR (a compiler bug): " + problems, {});
}

void CudaTarget::optimize(llvm::Module &module, StageTimes *times) const {
  optimizeModule(module, *machine, optimizationLevel(), llvm::PipelineTuningOptions(), times);
}

std::string CudaTarget::emitAssembly(llvm::Module &module) const {
  return emitCode(*machine, module, llvm::CodeGenFileType::AssemblyFile,
                  PipelineReuse::BuildPerModule);
}

} // namespace taipan
