// TargetTest.cpp - Unit tests of target/Target.h through its two implementations: modules are
// prepared and lowered through CpuTarget and CudaTarget, checking the triple and data layout,
// the CPU entry wrapper and the CUDA kernel wrapper, and what each target answers lowering.

#include "../testing/SyntaxBuilder.h"

#include "cpu/CpuTarget.h"
#include "cpu/ExactVectorVariants.h"
#include "cpu/GlibcExp.h"
#include "cpu/GlibcExpf.h"
#include "cpu/HostInfo.h"
#include "cuda/CudaTarget.h"
#include "lower/FunctionLowering.h"
#include "typing/TypeInference.h"

#include <gtest/gtest.h>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <stdexcept>

using namespace taipan;
using namespace taipan::test;

namespace {

class ThrowingCalleeTyper : public CalleeTyper {
public:
  TypedFunction *typeCallee(FunctionSource *, const std::vector<const Type *> &, SourceLocation,
                            const ConstantParameters &) override {
    throw std::logic_error("unexpected call to a jitted function");
  }
};

/// `def name(a, b): return a + b`, or with `returns` false `x = a + b` (a kernel's body).
std::shared_ptr<FunctionSource> addFunction(const std::string &name, bool returns) {
  SyntaxBuilder b(name, {"a", "b"});
  Expr *sum = b.binary(BinaryOp::Add, b.name("a"), b.name("b"));
  b.body({returns ? b.ret(sum) : b.assign("x", sum)});
  return b.source;
}

/// One function typed for float64 arguments and lowered through `target` into a fresh module,
/// with the target's entry point: what Compiler.cpp does for a job, without the session.
struct LoweredJob {
  std::shared_ptr<FunctionSource> source;
  TypedFunction function;
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  std::string entryName;

  LoweredJob(const Target &target, bool returns) : source(addFunction("add", returns)) {
    function.source = source.get();
    function.argumentTypes = {types::float64(), types::float64()};
    ThrowingCalleeTyper callees;
    inferTypes(function, callees);
    inferTypesOnce(function, callees, true);
    function.symbolName = "taipan_add_test";
    module = std::make_unique<llvm::Module>("test", *context);
    target.prepareModule(*module);
    target.checkEntry(function);
    ModuleLowering lowering(*module, target);
    lowering.define(function);
    entryName = target.defineEntry(lowering, function, {});
    lowering.finishDebugInfo();
  }

  bool verifies() const {
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    bool broken = llvm::verifyModule(*module, &stream);
    EXPECT_EQ(problems, "");
    return !broken;
  }
};

bool haveLibdevice() { return std::filesystem::exists(cuda::libdevicePath()); }

TEST(TargetTest, CpuTargetPreparesAHostModule) {
  CpuTarget target;
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  target.prepareModule(module);
  EXPECT_EQ(module.getTargetTriple(), hostTargetTriple());
  EXPECT_FALSE(module.getDataLayoutStr().empty());
  EXPECT_EQ(module.getDataLayout().getPointerSizeInBits(), 64u);
  EXPECT_TRUE(module.getDataLayout().isLittleEndian());
}

TEST(TargetTest, CudaTargetPreparesAnNvptxModule) {
  CudaTarget target(90, CompileOptions{});
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  target.prepareModule(module);
  EXPECT_EQ(module.getTargetTriple(), "nvptx64-nvidia-cuda");
  EXPECT_EQ(module.getDataLayout().getPointerSizeInBits(), 64u);
  // NVPTX's layout: 64-bit pointers in every address space, native 16, 32 and 64-bit integers.
  EXPECT_EQ(module.getDataLayoutStr().rfind("e-", 0), 0u);
  EXPECT_NE(module.getDataLayoutStr().find("n16:32:64"), std::string::npos);
}

TEST(TargetTest, CpuEntryWrapperReadsArgumentsThroughPointersAndRuns) {
  CpuTarget target;
  LoweredJob job(target, true);
  EXPECT_EQ(job.entryName, "taipan_add_test_entry");
  llvm::Function *entry = job.module->getFunction(job.entryName);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->getLinkage(), llvm::GlobalValue::ExternalLinkage);
  // i32 entry(ptr arguments, ptr result)
  llvm::FunctionType *type = entry->getFunctionType();
  EXPECT_TRUE(type->getReturnType()->isIntegerTy(32));
  ASSERT_EQ(type->getNumParams(), 2u);
  EXPECT_TRUE(type->getParamType(0)->isPointerTy());
  EXPECT_TRUE(type->getParamType(1)->isPointerTy());
  EXPECT_TRUE(job.verifies());

  target.finalizeModule(*job.module, job.entryName);
  target.optimize(*job.module, nullptr);
  EXPECT_NE(target.emitAssembly(*job.module).find("taipan_add_test_entry"), std::string::npos);
  // A symbol of its own: this module's functions must not meet the compiler's in the JIT.
  job.module->getFunction(job.entryName)->setName("taipan_target_test_entry");
  auto *call = reinterpret_cast<int32_t (*)(void **, void *)>(
      target.install(std::move(job.module), std::move(job.context), "taipan_target_test_entry"));
  ASSERT_NE(call, nullptr);
  double a = 1.5, b = 2.25, result = 0.0;
  void *arguments[] = {&a, &b};
  EXPECT_EQ(call(arguments, &result), 0);
  EXPECT_EQ(result, 3.75);
}

TEST(TargetTest, CudaKernelWrapperTakesArgumentsByValueAndIsAnnotated) {
  CudaTarget target(90, CompileOptions{});
  LoweredJob job(target, false);
  EXPECT_EQ(job.entryName, "taipan_add_test_kernel");
  llvm::Function *kernel = job.module->getFunction(job.entryName);
  ASSERT_NE(kernel, nullptr);
  // void kernel(double a, double b): one argument per parameter, in memory form.
  llvm::FunctionType *type = kernel->getFunctionType();
  EXPECT_TRUE(type->getReturnType()->isVoidTy());
  ASSERT_EQ(type->getNumParams(), 2u);
  EXPECT_TRUE(type->getParamType(0)->isDoubleTy());
  EXPECT_TRUE(type->getParamType(1)->isDoubleTy());
  EXPECT_TRUE(job.verifies());
  if (!haveLibdevice())
    GTEST_SKIP() << "libdevice not found: PTX emission needs the CUDA toolkit";

  target.finalizeModule(*job.module, job.entryName);
  llvm::NamedMDNode *annotations = job.module->getNamedMetadata("nvvm.annotations");
  ASSERT_NE(annotations, nullptr);
  ASSERT_EQ(annotations->getNumOperands(), 1u);
  // Everything but the kernel and what the host reads is internal after finalisation.
  EXPECT_TRUE(job.module->getFunction("taipan_add_test")->hasInternalLinkage());
  target.optimize(*job.module, nullptr);
  std::string ptx = target.emitAssembly(*job.module);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx.find(".entry taipan_add_test_kernel"), std::string::npos);
}

TEST(TargetTest, CudaDeviceFunctionStaysVisibleWithoutAWrapper) {
  if (!haveLibdevice())
    GTEST_SKIP() << "libdevice not found: PTX emission needs the CUDA toolkit";
  CudaTarget target(80, CompileOptions{}, CudaTarget::Entry::DeviceFunction);
  LoweredJob job(target, true);
  EXPECT_EQ(job.entryName, "taipan_add_test");
  EXPECT_EQ(job.module->getFunction("taipan_add_test_kernel"), nullptr);
  target.finalizeModule(*job.module, job.entryName);
  EXPECT_EQ(job.module->getNamedMetadata("nvvm.annotations")->getNumOperands(), 0u);
  target.optimize(*job.module, nullptr);
  std::string ptx = target.emitAssembly(*job.module);
  EXPECT_NE(ptx.find(".target sm_80"), std::string::npos);
  EXPECT_NE(ptx.find(".visible .func"), std::string::npos);
  EXPECT_EQ(ptx.find(".entry"), std::string::npos);
}

TEST(TargetTest, CudaKernelCannotReturnAValue) {
  CudaTarget target(90, CompileOptions{});
  try {
    LoweredJob job(target, true);
    FAIL() << "a kernel returning float64 was accepted";
  } catch (const CompileError &error) {
    EXPECT_NE(std::string(error.what())
                  .find("CUDA kernel must have void return type (it returns float64)"),
              std::string::npos)
        << error.what();
  }
}

TEST(TargetTest, MathLibraryMapping) {
  CpuTarget cpu;
  EXPECT_EQ(cpu.mathFunctionName("sin"), "sin");
  EXPECT_EQ(cpu.mathFunctionName("expf"), "expf");
  CudaTarget cuda(90, CompileOptions{});
  EXPECT_EQ(cuda.mathFunctionName("sin"), "__nv_sin");
  EXPECT_EQ(cuda.mathFunctionName("sinf"), "__nv_sinf");
  CompileOptions fast;
  fast.fastmathApproximate = true;
  CudaTarget approximate(90, fast);
  EXPECT_EQ(approximate.mathFunctionName("sinf"), "__nv_fast_sinf");
  EXPECT_EQ(approximate.mathFunctionName("sin"), "__nv_sin"); // no fast float64 variant
  EXPECT_EQ(approximate.mathFunctionName("atan2f"), "__nv_atan2f");
}

TEST(TargetTest, AnswersToLowering) {
  CpuTarget cpu;
  CudaTarget cuda(90, CompileOptions{});
  EXPECT_FALSE(cpu.hasThreadHierarchy());
  EXPECT_TRUE(cuda.hasThreadHierarchy());
  EXPECT_FALSE(cpu.canCallForeignFunctions());
  EXPECT_TRUE(cuda.canCallForeignFunctions());
  EXPECT_FALSE(cpu.printsThroughDevicePrintf());
  EXPECT_TRUE(cuda.printsThroughDevicePrintf());
  EXPECT_EQ(cpu.dwarfVersion(), 4u);
  EXPECT_EQ(cuda.dwarfVersion(), 2u);
}

TEST(TargetTest, IdentityNamesWhatDecidesTheCode) {
  EXPECT_EQ(CudaTarget(86, CompileOptions{}).identity(),
            (std::vector<std::string>{"nvptx64-nvidia-cuda", "86"}));
  std::string expf = hostExpfIsGlibcFma() ? "expf:glibc-fma" : "expf:libm";
  std::string exp = hostExpIsGlibcFma() ? "exp:glibc-fma" : "exp:libm";
  EXPECT_EQ(CpuTarget().identity(),
            (std::vector<std::string>{hostTargetTriple(), hostCpuName(), hostCpuFeatures(), "libm",
                                      expf, exp}));
  // fastmath's approximate functions may use libmvec where the host has it: another identity.
  EXPECT_EQ(CpuTarget(3, true).identity()[3], hostHasVectorMath() ? "libmvec" : "libm");
}

/// Checks that offering `variants` gives calls of `libmName` (of `valueType` to itself) without
/// 'afn' exact vector variants of `lanes` lanes (masked and not) and leaves them libm calls, leaves
/// 'afn' calls alone, that inlineExactVectorVariants inlines a vectorised call of the variant
/// and removes the variants and their table, and that the CPU target's finalizeModule offers
/// them where `hostMatches`.
void expectExactVariantsOffered(const char *libmName, llvm::Type *(*valueType)(llvm::LLVMContext &),
                                const ExactVectorVariants &variants, unsigned lanes,
                                bool hostMatches) {
  llvm::LLVMContext context;
  llvm::Module module(libmName, context);
  llvm::Type *realType = valueType(context);
  auto *type = llvm::FunctionType::get(realType, {realType}, false);
  llvm::FunctionCallee libm = module.getOrInsertFunction(libmName, type);
  auto *caller = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "f", module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", caller));
  llvm::CallInst *exact = builder.CreateCall(libm, {caller->getArg(0)});
  llvm::FastMathFlags approximate;
  approximate.setApproxFunc();
  builder.setFastMathFlags(approximate);
  llvm::CallInst *fast = builder.CreateCall(libm, {exact});
  builder.CreateRet(fast);
  offerExactVectorVariants(module, variants);
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  std::string variant = variantName(libmName, lanes);
  std::string mappings = exact->getFnAttr("vector-function-abi-variant").getValueAsString().str();
  EXPECT_NE(
      mappings.find("_ZGV_LLVM_N" + std::to_string(lanes) + "v_" + libmName + "(" + variant + ")"),
      std::string::npos)
      << mappings;
  EXPECT_NE(mappings.find("_ZGV_LLVM_M" + std::to_string(lanes) + "v_"), std::string::npos)
      << mappings;
  EXPECT_EQ(exact->getCalledFunction()->getName(), libmName);
  EXPECT_FALSE(fast->hasFnAttr("vector-function-abi-variant")); // libmvec's SIMD one may serve it
  llvm::Function *vectorVariant = module.getFunction(variant);
  ASSERT_NE(vectorVariant, nullptr);

  // What the vectoriser makes of a call: the variant's call, inlined after the pipeline.
  auto *vectorType = vectorVariant->getReturnType();
  auto *vectorised =
      llvm::Function::Create(llvm::FunctionType::get(vectorType, {vectorType}, false),
                             llvm::Function::ExternalLinkage, "v", module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", vectorised));
  builder.CreateRet(builder.CreateCall(vectorVariant, {vectorised->getArg(0)}));
  inlineExactVectorVariants(module, {&variants});
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  for (llvm::Function &function : module)
    EXPECT_FALSE(function.getName().starts_with("taipan_exact")) << function.getName().str();
  EXPECT_EQ(module.getNamedGlobal("llvm.compiler.used"), nullptr);
  EXPECT_FALSE(exact->hasFnAttr("vector-function-abi-variant")); // it names removed functions
  for (llvm::Instruction &instruction : vectorised->getEntryBlock())
    EXPECT_FALSE(llvm::isa<llvm::CallBase>(instruction) &&
                 !llvm::isa<llvm::IntrinsicInst>(instruction));

  // The CPU target offers them in finalizeModule where the host's libm is glibc's FMA variant.
  llvm::Module other("other", context);
  llvm::FunctionCallee otherLibm = other.getOrInsertFunction(libmName, type);
  auto *otherCaller = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "g", other);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", otherCaller));
  builder.clearFastMathFlags();
  llvm::CallInst *call = builder.CreateCall(otherLibm, {otherCaller->getArg(0)});
  builder.CreateRet(call);
  CpuTarget().finalizeModule(other, "g");
  EXPECT_FALSE(llvm::verifyModule(other, &llvm::errs()));
  EXPECT_EQ(call->getCalledFunction()->getName(), libmName);
  EXPECT_EQ(call->hasFnAttr("vector-function-abi-variant"), hostMatches);
  // Unused variants and their table are gone after optimisation.
  CpuTarget().optimize(other, nullptr);
  EXPECT_EQ(other.getFunction(variant), nullptr);
  EXPECT_EQ(other.global_size(), 0u);
}

TEST(TargetTest, ExpfCallsWithoutApproximateFunctionsGetGlibcsAlgorithmAsVectorVariants) {
  expectExactVariantsOffered("expf", llvm::Type::getFloatTy, glibcExpfVariants(), 8,
                             hostExpfIsGlibcFma());
}

TEST(TargetTest, ExpCallsWithoutApproximateFunctionsGetGlibcsAlgorithmAsVectorVariants) {
  expectExactVariantsOffered("exp", llvm::Type::getDoubleTy, glibcExpVariants(), 4,
                             hostExpIsGlibcFma());
}

TEST(TargetTest, OptimizationLevelOfCuda) {
  CompileOptions options;
  EXPECT_EQ(CudaTarget(90, options).optimizationLevel(), 3);
  options.optimizationLevel = 0;
  EXPECT_EQ(CudaTarget(90, options).optimizationLevel(), 0);
}

} // namespace
