// Runtime functions of the device written in Python: each runtime call the library implements
// is an adapter over a C-ABI function compiled from taipan/cuda/device_runtime.py, whose module
// is linked into the kernel's before the rest of the device runtime is defined.
#include "cuda/DeviceLibrary.h"

#include "runtime/Runtime.h"
#include "support/CompileError.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>

namespace taipan::cuda {
namespace {

std::mutex sourceMutex;
DeviceLibrarySource librarySource;

/// A runtime call and the library function behind it: `runtimeName(parameters..., double *out)
/// -> i32 status`, from `librarySymbol(parameters...) -> {status, real, imag}` (three doubles).
struct LibraryFunction {
  const char *runtimeName;
  const char *librarySymbol;
};

constexpr LibraryFunction LibraryFunctions[] = {
    {"taipan_cmath_unary", "taipan_device_cmath_unary"},
    {"taipan_cmath_rect", "taipan_device_cmath_rect"},
};

/// The library's module for `symbol`, parsed into `module`'s context and made linkable: its
/// module flags dropped (the kernel's own say how to treat denormals), and the exception
/// record it defines (taipan_cuda_exception*, unused: the library returns statuses) removed,
/// since the kernel's module defines its own.
std::unique_ptr<llvm::Module> loadLibraryModule(llvm::Module &module, const char *symbol,
                                                int computeCapability) {
  DeviceLibrarySource source;
  {
    std::lock_guard<std::mutex> lock(sourceMutex);
    source = librarySource;
  }
  if (!source)
    throw CompileError(CompileErrorKind::Unsupported,
                       std::string("this operation needs the device library function ") + symbol +
                           ", which taipan.cuda provides once imported",
                       {});
  // Called without the lock: the source compiles Python, which may compile more.
  std::string text = source(symbol, computeCapability);
  if (text.empty())
    throw CompileError(CompileErrorKind::Internal,
                       std::string("the device library has no function ") + symbol, {});
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> library =
      llvm::parseAssemblyString(text, diagnostic, module.getContext());
  if (!library) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    diagnostic.print(symbol, stream);
    throw CompileError(CompileErrorKind::Internal,
                       "the device library's IR does not parse: " + message, {});
  }
  if (llvm::NamedMDNode *flags = library->getModuleFlagsMetadata())
    library->eraseNamedMetadata(flags);
  for (llvm::GlobalVariable &global : llvm::make_early_inc_range(library->globals())) {
    if (!global.getName().starts_with("taipan_cuda_exception"))
      continue;
    if (!global.use_empty())
      throw CompileError(CompileErrorKind::Internal,
                         std::string("the device library's ") + symbol +
                             " raises; it must return a status instead",
                         {});
    global.eraseFromParent();
  }
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  return library;
}

/// Gives `runtime` its body: the library function's result unpacked into the status taipan's
/// runtime returns and the two doubles written through its last parameter.
void defineAdapter(llvm::Function &runtime, llvm::Function &library) {
  llvm::LLVMContext &context = runtime.getContext();
  runtime.setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &runtime));
  std::vector<llvm::Value *> arguments;
  for (unsigned i = 0; i + 1 < runtime.arg_size(); ++i)
    arguments.push_back(runtime.getArg(i));
  if (arguments.size() != library.arg_size())
    throw CompileError(CompileErrorKind::Internal,
                       "the device library's " + library.getName().str() +
                           " takes other arguments than " + runtime.getName().str(),
                       {});
  llvm::Value *result = builder.CreateCall(&library, arguments);
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Value *out = runtime.getArg(runtime.arg_size() - 1);
  builder.CreateStore(builder.CreateExtractValue(result, {1}), out);
  builder.CreateStore(builder.CreateExtractValue(result, {2}),
                      builder.CreateConstInBoundsGEP1_64(f64, out, 1));
  llvm::Value *status = builder.CreateExtractValue(result, {0});
  auto is = [&](double value) {
    return builder.CreateFCmpOEQ(status, llvm::ConstantFP::get(f64, value));
  };
  builder.CreateRet(builder.CreateSelect(
      is(1.0), builder.getInt32(ValueErrorId),
      builder.CreateSelect(is(2.0), builder.getInt32(OverflowErrorId), builder.getInt32(0))));
}

} // namespace

void setDeviceLibrarySource(DeviceLibrarySource source) {
  std::lock_guard<std::mutex> lock(sourceMutex);
  librarySource = std::move(source);
}

void defineDeviceLibraryFunctions(llvm::Module &module, int computeCapability) {
  for (const LibraryFunction &entry : LibraryFunctions) {
    llvm::Function *runtime = module.getFunction(entry.runtimeName);
    if (!runtime || !runtime->isDeclaration())
      continue;
    std::unique_ptr<llvm::Module> library =
        loadLibraryModule(module, entry.librarySymbol, computeCapability);
    llvm::Function *defined = library->getFunction(entry.librarySymbol);
    if (!defined || defined->isDeclaration())
      throw CompileError(
          CompileErrorKind::Internal,
          std::string("the device library's IR does not define ") + entry.librarySymbol, {});
    // Declared in the kernel's module first, so that linking only what is needed takes it.
    llvm::Function *declared =
        llvm::Function::Create(defined->getFunctionType(), llvm::GlobalValue::ExternalLinkage,
                               entry.librarySymbol, module);
    defineAdapter(*runtime, *declared);
    if (llvm::Linker::linkModules(module, std::move(library), llvm::Linker::LinkOnlyNeeded))
      throw CompileError(
          CompileErrorKind::Internal,
          std::string("linking the device library's ") + entry.librarySymbol + " failed", {});
  }
}

} // namespace taipan::cuda
