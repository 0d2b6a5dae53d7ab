// NVPTX code generation, in the order GPUCompiler uses: device runtime, libdevice (linked only
// where needed), internalise all but the kernels, then optimise and emit PTX.
#include "cuda/CudaTarget.h"

#include "cuda/DeviceLibrary.h"
#include "cuda/DeviceMemoryRuntime.h"

#include "lower/FunctionLowering.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"
#include "target/CodeEmitter.h"
#include "target/PassPipeline.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/InferAlignment.h>

#include <cmath>
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

/// The newest architecture LLVM 19's NVPTX back end knows at or below `computeCapability`.
/// PTX for it runs on the newer GPU (the driver compiles PTX for the device that loads it), as
/// numba-cuda compiles for the closest architecture NVVM supports. Unknown to LLVM, sm_100's
/// warp intrinsics found no instructions and aborted the process.
int knownComputeCapability(const llvm::Target &nvptx, int computeCapability) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtargets(
      nvptx.createMCSubtargetInfo(Triple, "sm_52", ""));
  int known = computeCapability;
  while (known > 20 && !subtargets->isCPUStringValid("sm_" + std::to_string(known)))
    --known;
  return known > 20 ? known : computeCapability;
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(int computeCapability, const CompileOptions &compileOptions, int level) {
  initializeNvptx();
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(Triple, error);
  if (!nvptx)
    throw CompileError(CompileErrorKind::Internal, "NVPTX target missing: " + error, {});
  llvm::TargetOptions options;
  // Optimised kernels and device functions contract x * y + z into fma.rn, with or without
  // fastmath, as NVVM and nvcc (-fmad=true) do: numba-cuda's results and PTX (add.f16, not
  // add.rn.f16, which the back end writes to forbid ptxas' own fusion) are those. opt=0 does
  // not contract, as NVVM's -opt=0; fastmath always does. The CPU target never contracts.
  if (level > 0 || compileOptions.fastmathApproximate)
    options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  if (compileOptions.fastmathApproximate) {
    options.UnsafeFPMath = true;
    options.NoInfsFPMath = true;
    options.NoNaNsFPMath = true;
    options.NoSignedZerosFPMath = true;
    options.ApproxFuncFPMath = true;
  }
  computeCapability = knownComputeCapability(*nvptx, computeCapability);
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

/// Answers libdevice's __nvvm_reflect("__CUDA_PREC_SQRT") as NVVM does (-prec-sqrt=1, 0 with
/// fastmath), before LLVM's NVVMReflect, which knows only __CUDA_FTZ and __CUDA_ARCH and answers
/// 0 for the rest: sqrtf, hypotf, normf, norm3df, norm4df and jnf then took sqrt.approx.f32, a
/// few ulps off.
void reflectSquareRootPrecision(llvm::Module &module, bool approximate) {
  llvm::Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(reflect->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->getCalledFunction() != reflect || call->arg_size() != 1)
      continue;
    auto *name = llvm::dyn_cast<llvm::GlobalVariable>(call->getArgOperand(0)->stripPointerCasts());
    auto *text = name && name->hasInitializer()
                     ? llvm::dyn_cast<llvm::ConstantDataSequential>(name->getInitializer())
                     : nullptr;
    if (!text || !text->isCString() || text->getAsCString() != "__CUDA_PREC_SQRT")
      continue;
    call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), approximate ? 0 : 1));
    call->eraseFromParent();
  }
}

/// Gives libdevice's llvm.nvvm.tanh.approx.f32 (__nv_fast_tanhf, tanh with fastmath on sm_75
/// and later) its instruction: LLVM 19's NVPTX has no such intrinsic and would emit a call of an
/// undefined function, which ptxas refuses.
void defineApproximateTanh(llvm::Module &module) {
  llvm::Function *tanh = module.getFunction("llvm.nvvm.tanh.approx.f32");
  if (!tanh || tanh->getIntrinsicID() != llvm::Intrinsic::not_intrinsic || !tanh->isDeclaration())
    return;
  auto *instruction = llvm::InlineAsm::get(tanh->getFunctionType(), "tanh.approx.f32 $0, $1;",
                                           "=f,f", /*hasSideEffects=*/false);
  for (llvm::User *user : llvm::make_early_inc_range(tanh->users())) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->getCalledFunction() != tanh)
      continue;
    llvm::CallInst *replacement = llvm::CallInst::Create(
        tanh->getFunctionType(), instruction, {call->getArgOperand(0)}, "", call->getIterator());
    replacement->setDoesNotAccessMemory();
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
  if (tanh->use_empty())
    tanh->eraseFromParent();
}

/// Read-only arrays frozen into the module (global NumPy arrays, cuda.const.array_like) move to
/// constant memory, as numba-cuda places them: loads from them become ld.const, served by the
/// constant cache. A module has 64 KiB there; arrays beyond that stay in global memory.
void placeConstantArrays(llvm::Module &module) {
  constexpr unsigned ConstantSpace = 4;
  constexpr uint64_t ConstantBankBytes = 64 * 1024;
  const llvm::DataLayout &layout = module.getDataLayout();
  uint64_t used = 0;
  std::vector<llvm::GlobalVariable *> arrays;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() == ConstantSpace)
      used += layout.getTypeAllocSize(global.getValueType());
    else if (global.getAddressSpace() == 0 && global.isConstant() && global.hasInitializer() &&
             global.getName().starts_with("taipan_constant_array"))
      arrays.push_back(&global);
  }
  for (llvm::GlobalVariable *array : arrays) {
    uint64_t size = layout.getTypeAllocSize(array->getValueType());
    if (used + size > ConstantBankBytes)
      continue;
    used += size;
    auto *moved = new llvm::GlobalVariable(module, array->getValueType(), true, array->getLinkage(),
                                           array->getInitializer(), "", nullptr,
                                           llvm::GlobalValue::NotThreadLocal, ConstantSpace);
    moved->takeName(array);
    moved->setAlignment(array->getAlign());
    array->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(moved, array->getType()));
    array->eraseFromParent();
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

/// round(x, ndigits) on the device (taipan_round_ndigits, whose host definition prints and
/// reads decimal text): numba-cuda's algorithm, CPython's fallback double_round: x scaled by a
/// power of ten, rounded half to even, scaled back; x itself when it is not finite or the
/// scaled value overflows. The powers of ten come from libdevice's pow.
void defineRoundNdigits(llvm::Function &function) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Module &module = *function.getParent();
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::FunctionCallee pow = module.getOrInsertFunction("__nv_pow", f64, f64, f64);
  llvm::Value *x = function.getArg(0);
  llvm::Value *digits = function.getArg(1);
  auto constant = [&](double value) { return llvm::ConstantFP::get(f64, value); };
  auto power = [&](llvm::Value *exponent) {
    return builder.CreateCall(pow, {constant(10.0), builder.CreateSIToFP(exponent, f64)});
  };
  llvm::Value *finite = builder.CreateFCmpOLT(
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x), constant(INFINITY));
  llvm::Value *nonNegative = builder.CreateICmpSGE(digits, builder.getInt64(0));
  // ndigits >= 0: pow1 = 10**(n - 22) and pow2 = 1e22 beyond 22 digits (each safe from
  // overflow where their product is not), else 10**n and 1; ndigits < 0: pow1 = 10**-n.
  llvm::Value *large = builder.CreateICmpSGT(digits, builder.getInt64(22));
  llvm::Value *pow1 = builder.CreateSelect(
      nonNegative,
      power(builder.CreateSelect(large, builder.CreateSub(digits, builder.getInt64(22)), digits)),
      power(builder.CreateNeg(digits)));
  llvm::Value *pow2 = builder.CreateSelect(large, constant(1e22), constant(1.0));
  llvm::Value *y =
      builder.CreateSelect(nonNegative, builder.CreateFMul(builder.CreateFMul(x, pow1), pow2),
                           builder.CreateFDiv(x, pow1));
  llvm::Value *overflow = builder.CreateFCmpOEQ(
      builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y), constant(INFINITY));
  // rint rounds half to even, as Python's round(y) does.
  llvm::Value *z = builder.CreateUnaryIntrinsic(llvm::Intrinsic::rint, y);
  llvm::Value *scaled =
      builder.CreateSelect(nonNegative, builder.CreateFDiv(builder.CreateFDiv(z, pow2), pow1),
                           builder.CreateFMul(z, pow1));
  // Beyond CPython's limits every digit is kept (ndigits > 323) or none (< -308, where 10**-n
  // is infinite and the scaled value would be NaN).
  llvm::Value *keep = builder.CreateOr(
      builder.CreateOr(builder.CreateNot(finite), builder.CreateAnd(nonNegative, overflow)),
      builder.CreateICmpSGT(digits, builder.getInt64(323)));
  llvm::Value *none = builder.CreateICmpSLT(digits, builder.getInt64(-308));
  builder.CreateRet(builder.CreateSelect(
      keep, x, builder.CreateSelect(none, builder.CreateFMul(constant(0.0), x), scaled)));
}

/// complex ** complex on the device (taipan_complex_pow; the host's is C++ with std::hypot...):
/// the same order of cases, CPython's complex_pow: 1 for a zero exponent; for a zero base 0, or
/// status 1 (ZeroDivisionError) for a negative or complex exponent; repeated squaring (c_powu)
/// for integral real exponents up to 100 in magnitude, 1 / that for negative ones (_Py_c_quot);
/// else _Py_c_pow from libdevice's hypot, pow, atan2, exp, log, cos and sin.
void defineComplexPow(llvm::Function &function) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Module &module = *function.getParent();
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  auto block = [&](const char *name) { return llvm::BasicBlock::Create(context, name, &function); };
  llvm::BasicBlock *entry = block("entry");
  llvm::IRBuilder<> builder(entry);
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Type *i64 = builder.getInt64Ty();
  auto libdevice = [&](const char *name, std::vector<llvm::Value *> arguments) {
    std::vector<llvm::Type *> parameters(arguments.size(), f64);
    llvm::FunctionCallee callee =
        module.getOrInsertFunction(name, llvm::FunctionType::get(f64, parameters, false));
    return builder.CreateCall(callee, arguments);
  };
  auto constant = [&](double value) { return llvm::ConstantFP::get(f64, value); };
  llvm::Value *baseReal = function.getArg(0), *baseImag = function.getArg(1);
  llvm::Value *exponentReal = function.getArg(2), *exponentImag = function.getArg(3);
  llvm::Value *out = function.getArg(4);
  auto finish = [&](llvm::Value *real, llvm::Value *imag) {
    builder.CreateStore(real, out);
    builder.CreateStore(imag, builder.CreateConstInBoundsGEP1_64(f64, out, 1));
    builder.CreateRet(builder.getInt32(0));
  };
  auto isZero = [&](llvm::Value *value) { return builder.CreateFCmpOEQ(value, constant(0.0)); };

  llvm::BasicBlock *zeroExponent = block("zero.exponent"), *notZeroExponent = block("exponent");
  builder.CreateCondBr(builder.CreateAnd(isZero(exponentReal), isZero(exponentImag)), zeroExponent,
                       notZeroExponent);
  builder.SetInsertPoint(zeroExponent);
  finish(constant(1.0), constant(0.0));

  builder.SetInsertPoint(notZeroExponent);
  llvm::BasicBlock *zeroBase = block("zero.base"), *notZeroBase = block("base");
  builder.CreateCondBr(builder.CreateAnd(isZero(baseReal), isZero(baseImag)), zeroBase,
                       notZeroBase);
  builder.SetInsertPoint(zeroBase);
  llvm::BasicBlock *zeroResult = block("zero.result"), *divisionByZero = block("zero.division");
  builder.CreateCondBr(builder.CreateOr(builder.CreateFCmpUNE(exponentImag, constant(0.0)),
                                        builder.CreateFCmpOLT(exponentReal, constant(0.0))),
                       divisionByZero, zeroResult);
  builder.SetInsertPoint(divisionByZero);
  builder.CreateRet(builder.getInt32(1));
  builder.SetInsertPoint(zeroResult);
  finish(constant(0.0), constant(0.0));

  builder.SetInsertPoint(notZeroBase);
  llvm::BasicBlock *integral = block("integral"), *general = block("general");
  llvm::Value *floor = builder.CreateUnaryIntrinsic(llvm::Intrinsic::floor, exponentReal);
  llvm::Value *magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, exponentReal);
  builder.CreateCondBr(
      builder.CreateAnd(
          builder.CreateAnd(isZero(exponentImag), builder.CreateFCmpOEQ(exponentReal, floor)),
          builder.CreateFCmpOLE(magnitude, constant(100.0))),
      integral, general);

  // c_powu: result *= power where the exponent's bit is set; power squared for each bit.
  builder.SetInsertPoint(integral);
  llvm::Value *n = builder.CreateFPToSI(exponentReal, i64);
  llvm::Value *count = builder.CreateFPToSI(magnitude, i64);
  llvm::BasicBlock *loop = block("powu.loop"), *step = block("powu.step"), *done = block("powu");
  builder.CreateBr(loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *mask = builder.CreatePHI(i64, 2);
  llvm::PHINode *resultReal = builder.CreatePHI(f64, 2), *resultImag = builder.CreatePHI(f64, 2);
  llvm::PHINode *powerReal = builder.CreatePHI(f64, 2), *powerImag = builder.CreatePHI(f64, 2);
  mask->addIncoming(builder.getInt64(1), integral);
  resultReal->addIncoming(constant(1.0), integral);
  resultImag->addIncoming(constant(0.0), integral);
  powerReal->addIncoming(baseReal, integral);
  powerImag->addIncoming(baseImag, integral);
  builder.CreateCondBr(builder.CreateICmpSGE(count, mask), step, done);
  builder.SetInsertPoint(step);
  auto multiplyReal = [&](llvm::Value *ar, llvm::Value *ai, llvm::Value *br, llvm::Value *bi) {
    return builder.CreateFSub(builder.CreateFMul(ar, br), builder.CreateFMul(ai, bi));
  };
  auto multiplyImag = [&](llvm::Value *ar, llvm::Value *ai, llvm::Value *br, llvm::Value *bi) {
    return builder.CreateFAdd(builder.CreateFMul(ar, bi), builder.CreateFMul(ai, br));
  };
  llvm::Value *bitSet = builder.CreateICmpNE(builder.CreateAnd(count, mask), builder.getInt64(0));
  llvm::Value *nextReal = builder.CreateSelect(
      bitSet, multiplyReal(resultReal, resultImag, powerReal, powerImag), resultReal);
  llvm::Value *nextImag = builder.CreateSelect(
      bitSet, multiplyImag(resultReal, resultImag, powerReal, powerImag), resultImag);
  llvm::Value *squareReal = multiplyReal(powerReal, powerImag, powerReal, powerImag);
  llvm::Value *squareImag = multiplyImag(powerReal, powerImag, powerReal, powerImag);
  mask->addIncoming(builder.CreateShl(mask, 1), step);
  resultReal->addIncoming(nextReal, step);
  resultImag->addIncoming(nextImag, step);
  powerReal->addIncoming(squareReal, step);
  powerImag->addIncoming(squareImag, step);
  builder.CreateBr(loop);
  builder.SetInsertPoint(done);
  // A negative exponent: (1 + 0j) / result, by CPython's _Py_c_quot (Smith's method).
  llvm::Value *one = constant(1.0), *zero = constant(0.0);
  llvm::Value *absReal = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, resultReal);
  llvm::Value *absImag = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, resultImag);
  llvm::Value *ratio1 = builder.CreateFDiv(resultImag, resultReal);
  llvm::Value *denominator1 =
      builder.CreateFAdd(resultReal, builder.CreateFMul(resultImag, ratio1));
  llvm::Value *real1 =
      builder.CreateFDiv(builder.CreateFAdd(one, builder.CreateFMul(zero, ratio1)), denominator1);
  llvm::Value *imag1 =
      builder.CreateFDiv(builder.CreateFSub(zero, builder.CreateFMul(one, ratio1)), denominator1);
  llvm::Value *ratio2 = builder.CreateFDiv(resultReal, resultImag);
  llvm::Value *denominator2 =
      builder.CreateFAdd(builder.CreateFMul(resultReal, ratio2), resultImag);
  llvm::Value *real2 =
      builder.CreateFDiv(builder.CreateFAdd(builder.CreateFMul(one, ratio2), zero), denominator2);
  llvm::Value *imag2 =
      builder.CreateFDiv(builder.CreateFSub(builder.CreateFMul(zero, ratio2), one), denominator2);
  llvm::Value *nan = constant(NAN);
  llvm::Value *realLarger = builder.CreateFCmpOGE(absReal, absImag);
  llvm::Value *imagLarger = builder.CreateFCmpOGE(absImag, absReal);
  llvm::Value *bothZero = builder.CreateAnd(realLarger, isZero(absReal));
  auto quotient = [&](llvm::Value *first, llvm::Value *second) {
    return builder.CreateSelect(
        bothZero, nan,
        builder.CreateSelect(realLarger, first, builder.CreateSelect(imagLarger, second, nan)));
  };
  llvm::Value *negative = builder.CreateICmpSLT(n, builder.getInt64(0));
  finish(builder.CreateSelect(negative, quotient(real1, real2), resultReal),
         builder.CreateSelect(negative, quotient(imag1, imag2), resultImag));

  builder.SetInsertPoint(general);
  llvm::Value *modulus = libdevice("__nv_hypot", {baseReal, baseImag});
  llvm::Value *length = libdevice("__nv_pow", {modulus, exponentReal});
  llvm::Value *angle = libdevice("__nv_atan2", {baseImag, baseReal});
  llvm::Value *phase = builder.CreateFMul(angle, exponentReal);
  llvm::Value *complexExponent = builder.CreateFCmpUNE(exponentImag, constant(0.0));
  length = builder.CreateSelect(
      complexExponent,
      builder.CreateFDiv(length, libdevice("__nv_exp", {builder.CreateFMul(angle, exponentImag)})),
      length);
  phase = builder.CreateSelect(
      complexExponent,
      builder.CreateFAdd(phase, builder.CreateFMul(exponentImag, libdevice("__nv_log", {modulus}))),
      phase);
  finish(builder.CreateFMul(length, libdevice("__nv_cos", {phase})),
         builder.CreateFMul(length, libdevice("__nv_sin", {phase})));
}

/// complex64 ** complex64 of NumPy's loop on the device: the complex128 function
/// (defineComplexPow, defined here when the module has no definition of it yet) on widened
/// operands, its parts rounded to float.
void defineSingleComplexPow(llvm::Function &function) {
  llvm::LLVMContext &context = function.getContext();
  llvm::Module &module = *function.getParent();
  llvm::Type *f64 = llvm::Type::getDoubleTy(context);
  llvm::Type *f32 = llvm::Type::getFloatTy(context);
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  llvm::FunctionType *wideType = llvm::FunctionType::get(llvm::Type::getInt32Ty(context),
                                                         {f64, f64, f64, f64, pointer}, false);
  llvm::Function *wide = module.getFunction("taipan_numpy_complex_pow");
  if (!wide)
    wide = llvm::Function::Create(wideType, llvm::GlobalValue::InternalLinkage,
                                  "taipan_numpy_complex_pow", module);
  if (wide->isDeclaration())
    defineComplexPow(*wide);
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  llvm::AllocaInst *parts = builder.CreateAlloca(llvm::ArrayType::get(f64, 2));
  std::vector<llvm::Value *> arguments;
  for (unsigned i = 0; i < 4; ++i)
    arguments.push_back(builder.CreateFPExt(function.getArg(i), f64));
  arguments.push_back(parts);
  llvm::Value *status = builder.CreateCall(wide, arguments);
  for (unsigned i = 0; i < 2; ++i) {
    llvm::Value *part = builder.CreateLoad(f64, builder.CreateConstInBoundsGEP1_64(f64, parts, i));
    builder.CreateStore(builder.CreateFPTrunc(part, f32),
                        builder.CreateConstInBoundsGEP1_64(f32, function.getArg(4), i));
  }
  builder.CreateRet(status);
}

/// Device definitions of the runtime calls lowering emits: exceptions set a flag (read by the
/// host after a debug launch); allocation and reference counting are the device's memory
/// runtime (DeviceMemoryRuntime.h), defined first, since its definitions call taipan_raise.
void defineDeviceRuntime(llvm::Module &module) {
  cuda::defineDeviceMemoryRuntime(module);
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
    if (!name.starts_with("taipan_"))
      continue;
    if (name == "taipan_round_ndigits") {
      defineRoundNdigits(function);
      continue;
    }
    // NumPy's power (ufunc loops) gets CPython's algorithm on the device; lowering selects
    // NumPy's values for a zero base around the call, and other bases agree to rounding.
    if (name == "taipan_complex_pow" || name == "taipan_numpy_complex_pow") {
      defineComplexPow(function);
      continue;
    }
    if (name == "taipan_numpy_complex_powf") {
      defineSingleComplexPow(function);
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
         !name.starts_with("llvm.") && name != "vprintf" && name != "malloc" && name != "free";
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
    // numba-cuda's words included: taipan.cuda.compiler raises this one as a TypeError too.
    throwTypingError("a CUDA kernel cannot return a value: CUDA kernel must have void return type "
                     "(it returns " +
                         root.returnType->name() + "); write results into an array argument",
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

/// An entry point's argument as the root receives it: arrays, alone or in tuples, are borrowed
/// from the caller (the host, or foreign code calling a C-ABI function) and have no block (a
/// null MemInfo, whatever the caller wrote there), so that the reference counting of the
/// arguments and of the views taken from them folds away. A kernel's arrays are also marked as
/// global memory (`global`, inGlobalMemory); a C-ABI caller may pass any memory.
llvm::Value *borrowedArgument(llvm::IRBuilder<> &builder, llvm::Value *argument, const Type *type,
                              bool global) {
  if (type->isArray()) {
    llvm::Value *memInfo = builder.CreateExtractValue(argument, {ArrayLayout::MemInfo});
    argument = builder.CreateInsertValue(argument, llvm::Constant::getNullValue(memInfo->getType()),
                                         {ArrayLayout::MemInfo});
    return global ? inGlobalMemory(builder, argument, type) : argument;
  }
  if (type->isTuple() && type->holdsReferences()) {
    for (size_t i = 0; i < type->elements().size(); ++i) {
      unsigned index = static_cast<unsigned>(i);
      argument = builder.CreateInsertValue(
          argument,
          borrowedArgument(builder, builder.CreateExtractValue(argument, index),
                           type->elements()[i], global),
          index);
    }
  }
  return argument;
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
      arguments.push_back(
          borrowedArgument(builder, &argument, root.argumentTypes[argument.getArgNo()], false));
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
      arguments.push_back(borrowedArgument(builder, &argument, argumentType, true));
  }
  builder.CreateCall(callee, arguments);
  builder.CreateRetVoid();
  return kernel->getName().str();
}

std::string CudaTarget::mathFunctionName(const std::string &libmName) const {
  static const std::set<std::string> fast = {"cosf",  "sinf",   "tanf", "tanhf", "expf",
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
    auto annotate = [&](const char *property, int value) {
      if (value <= 0) // not given
        return;
      llvm::Metadata *operands[] = {llvm::ValueAsMetadata::get(kernel),
                                    llvm::MDString::get(context, property),
                                    llvm::ValueAsMetadata::get(llvm::ConstantInt::get(
                                        llvm::Type::getInt32Ty(context), value))};
      annotations->addOperand(llvm::MDNode::get(context, operands));
    };
    annotate("kernel", 1);
    annotate("maxnreg", options.maxRegisters);
    // launch_bounds: PTX's .maxntid, .minnctapersm and .maxclusterrank (written for sm_90 on).
    annotate("maxntidx", options.launchMaxThreads);
    annotate("minctasm", options.launchMinBlocks);
    annotate("maxclusterrank", options.launchMaxClusterRank);
  }

  // Runtime calls written in Python are linked first: their adapters are definitions, which the
  // rest of the device runtime then leaves alone.
  cuda::defineDeviceLibraryFunctions(module, computeCapability);
  defineDeviceRuntime(module);
  if (entry != Entry::Kernel) {
    // A device function's PTX is linked into kernels (link=) that define the same exception
    // slots: weak definitions (PTX's .weak) let the linker keep one, which both then share.
    for (llvm::GlobalVariable &variable : module.globals())
      if (variable.getName().starts_with("taipan_cuda_exception"))
        variable.setLinkage(llvm::GlobalValue::WeakAnyLinkage);
  }
  // Reading libdevice's symbol table is most of this stage: a kernel calling no math skips it.
  if (llvm::any_of(module.functions(), needsLibdevice)) {
    std::unique_ptr<llvm::Module> libdevice = loadLibdevice(context);
    renameToLibdevice(module, *libdevice, *this);
    libdevice->setTargetTriple(Triple);
    libdevice->setDataLayout(module.getDataLayout());
    if (llvm::Linker::linkModules(module, std::move(libdevice), llvm::Linker::LinkOnlyNeeded))
      throw CompileError(CompileErrorKind::Internal, "linking libdevice failed", {});
    reflectSquareRootPrecision(module, approximate);
    defineApproximateTanh(module);
  }
  // Everything but the entry point (and the exception flag the host reads, the memsys pointer
  // it sets) is internal, so LLVM inlines and deletes freely.
  llvm::internalizeModule(module, [&](const llvm::GlobalValue &value) {
    return value.getName() == entryName || value.getName().starts_with("taipan_cuda_exception") ||
           value.getName() == "taipan_grid_barrier" ||
           value.getName() == cuda::DeviceMemorySystemGlobal;
  });
  placeConstantArrays(module);
  if (approximate)
    applyApproximateMath(module);

  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    throw CompileError(CompileErrorKind::Internal,
                       "taipan generated invalid NVPTX IR (a compiler bug): " + problems, {});
}

namespace {

/// PTX's own float16 instructions where LLVM 19's NVPTX back end takes a detour: it promotes
/// fabs of a half to float32 (cvt, abs.f32, cvt) and widens an 8-bit integer to 16 bits before
/// converting it to half; abs.f16 (PTX 6.5, sm_53) and cvt.rn.f16.s8/u8 give the same values
/// in one instruction, as numba-cuda's code does. Run after optimisation, so constants are
/// folded first (inline assembly is opaque to LLVM).
void useHalfInstructions(llvm::Module &module, int computeCapability) {
  if (computeCapability < 53)
    return;
  bool absAvailable = computeCapability >= 80; // taipan targets PTX 6.4 below sm_80
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *half = llvm::Type::getHalfTy(context);
  llvm::Type *bits16 = llvm::Type::getInt16Ty(context);
  llvm::Type *bits8 = llvm::Type::getInt8Ty(context);
  std::vector<llvm::Instruction *> replaced;
  llvm::SmallPtrSet<llvm::Value *, 8> fromIntegers; // integers converted to half by cvt.rn
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block) {
        const char *assembly = nullptr;
        const char *constraints = nullptr;
        llvm::Value *operand = nullptr;
        if (auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
          if (absAvailable && call->getIntrinsicID() == llvm::Intrinsic::fabs &&
              call->getType() == half) {
            assembly = "abs.f16 $0, $1;";
            constraints = "=h,h";
            operand = call->getArgOperand(0);
          }
        } else if (llvm::isa<llvm::SIToFPInst>(instruction) ||
                   llvm::isa<llvm::UIToFPInst>(instruction)) {
          if (instruction.getType() == half && instruction.getOperand(0)->getType() == bits8) {
            assembly = llvm::isa<llvm::SIToFPInst>(instruction) ? "cvt.rn.f16.s8 $0, $1;"
                                                                : "cvt.rn.f16.u8 $0, $1;";
            constraints = "=h,c";
            operand = instruction.getOperand(0);
          }
        }
        if (!assembly)
          continue;
        llvm::IRBuilder<> builder(&instruction);
        if (operand->getType() == half)
          operand = builder.CreateBitCast(operand, bits16);
        llvm::FunctionType *type = llvm::FunctionType::get(bits16, {operand->getType()}, false);
        llvm::Value *result =
            builder.CreateCall(llvm::InlineAsm::get(type, assembly, constraints, false), {operand});
        llvm::Value *converted = builder.CreateBitCast(result, half);
        instruction.replaceAllUsesWith(converted);
        replaced.push_back(&instruction);
        if (llvm::isa<llvm::CastInst>(instruction))
          fromIntegers.insert(converted);
      }
  for (llvm::Instruction *instruction : replaced)
    instruction->eraseFromParent();
  // InstCombine puts a converted operand first (`b < a` for `a > b`); the comparison reads as
  // written, and as numba-cuda's PTX reads (setp.gt.f16 a, b), with the integer second.
  std::vector<llvm::FCmpInst *> reversed;
  for (llvm::Value *converted : fromIntegers)
    for (llvm::User *user : converted->users())
      if (auto *compare = llvm::dyn_cast<llvm::FCmpInst>(user))
        if (compare->getOperand(0) == converted && !fromIntegers.count(compare->getOperand(1)))
          reversed.push_back(compare);
  for (llvm::FCmpInst *compare : reversed)
    compare->swapOperands();
}

} // namespace

void CudaTarget::optimize(llvm::Module &module, StageTimes *times) const {
  // Address spaces are inferred before the vectorizers (not only in code generation), so that
  // alignment is known through them: a load from an array in constant memory at a multiple of
  // 8 bytes from its 64-aligned start pairs with its neighbour (ld.const.v2.f32 of a complex64).
  optimizeModule(module, *machine, optimizationLevel(), llvm::PipelineTuningOptions(), times, false,
                 [](llvm::FunctionPassManager &passes) {
                   passes.addPass(llvm::InferAddressSpacesPass());
                   passes.addPass(llvm::InferAlignmentPass());
                 });
  useHalfInstructions(module, computeCapability);
  cuda::finishDeviceMemoryRuntime(module);
}

std::string CudaTarget::emitAssembly(llvm::Module &module) const {
  return emitCode(*machine, module, llvm::CodeGenFileType::AssemblyFile,
                  PipelineReuse::BuildPerModule);
}

} // namespace taipan
