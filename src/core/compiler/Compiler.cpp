// The compilation driver: a session types the requested function and every jitted function it
// calls (resolving recursion by repeating inference until nothing changes), lowers them into one
// LLVM module, optimises it and hands it to the CPU JIT.
#include "compiler/Compiler.h"

#include "cpu/CpuJit.h"
#include "cuda/PtxCompiler.h"
#include "lower/FunctionLowering.h"
#include "types/NumericPromotion.h"
#include "typing/TypeInference.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <sstream>

namespace taipan {
namespace {

std::atomic<uint64_t> symbolCounter{0};

/// Makes a symbol name LLVM and the assembler accept, unique in the process.
std::string uniqueSymbol(const std::string &name) {
  std::string clean;
  for (char c : name)
    clean += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return "taipan_" + clean + "_" + std::to_string(symbolCounter++);
}

/// How many scalar leaves a type has, stopping early once it is large.
size_t typeSize(const Type *type) {
  if (!type->isTuple())
    return 1;
  size_t size = 0;
  for (const Type *element : type->elements()) {
    size += typeSize(element);
    if (size > 4096)
      break;
  }
  return size;
}

/// Owns the TypedFunctions of one compilation and types calls between them.
class CompileSession : public CalleeTyper {
public:
  TypedFunction *typeCallee(FunctionSource *callee, const std::vector<const Type *> &argumentTypes,
                            SourceLocation location) override {
    auto key = std::make_pair(callee, argumentTypes);
    auto found = instances.find(key);
    if (found != instances.end())
      return found->second;
    if (++depth > 200)
      throwTypingError("calls between jitted functions nest too deeply", location);
    // Recursion that builds ever larger argument types (f((x, x), n - 1)) never settles.
    for (const Type *argument : argumentTypes)
      if (typeSize(argument) > 1024)
        throwTypingError("the argument types of " + callee->name +
                             "() grow without bound through recursion (" +
                             argument->name().substr(0, 80) + "...)",
                         location);
    TypedFunction &function = functions.emplace_back();
    function.source = callee;
    function.argumentTypes = argumentTypes;
    function.symbolName = uniqueSymbol(callee->name);
    instances.emplace(key, &function);
    function.inProgress = true;
    try {
      inferTypes(function, *this);
    } catch (CompileError &error) {
      if (!error.function)
        error.function = callee;
      throw;
    }
    function.inProgress = false;
    --depth;
    return &function;
  }

  /// Types the root and everything it calls, until no function's types change.
  TypedFunction &typeRoot(FunctionSource *root, const std::vector<const Type *> &argumentTypes) {
    TypedFunction *function = typeCallee(root, argumentTypes, root->definitionLocation);
    for (int round = 0; round < 64; ++round) {
      bool changed = false;
      for (size_t i = 0; i < functions.size(); ++i)
        changed |= runAttributed(functions[i], false);
      if (!changed)
        break;
    }
    for (size_t i = 0; i < functions.size(); ++i)
      runAttributed(functions[i], true);
    return *function;
  }

  std::deque<TypedFunction> functions;

private:
  bool runAttributed(TypedFunction &function, bool reportUnknown) {
    try {
      return inferTypesOnce(function, *this, reportUnknown);
    } catch (CompileError &error) {
      if (!error.function)
        error.function = function.source;
      throw;
    }
  }

  std::map<std::pair<FunctionSource *, std::vector<const Type *>>, TypedFunction *> instances;
  int depth = 0;
};

std::string annotateTypes(const TypedFunction &function) {
  const FunctionSource &source = *function.source;
  std::ostringstream text;
  text << source.name << " (";
  for (size_t i = 0; i < function.argumentTypes.size(); ++i)
    text << (i ? ", " : "") << function.argumentTypes[i]->name();
  text << ") -> " << function.returnType->name() << "\n"
       << std::string(80, '-') << "\n# File: " << source.filename << "\n";
  for (size_t line = 1; line <= source.sourceLines.size(); ++line) {
    text << "# --- LINE " << source.fileLine(static_cast<int>(line)) << " --- \n";
    auto assigned = function.assignmentsByLine.find(static_cast<int>(line));
    if (line == static_cast<size_t>(source.definitionLocation.line))
      for (size_t i = 0; i < source.parameters.size(); ++i)
        text << "#   " << source.parameters[i].name << " = arg(" << i
             << ", name=" << source.parameters[i].name
             << ")  :: " << function.argumentTypes[i]->name() << "\n";
    bool isDefinition = line == static_cast<size_t>(source.definitionLocation.line);
    if (assigned != function.assignmentsByLine.end() && !isDefinition)
      for (const std::string &name : assigned->second)
        text << "#   " << name << "  :: " << function.variableTypes.at(name)->name() << "\n";
    text << "\n" << source.sourceLines[line - 1] << "\n\n";
  }
  text << std::string(80, '=') << "\n";
  return text.str();
}

/// Types, lowers and verifies; returns the module and the entry wrapper's name.
struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::string entryName;
  std::string typeAnnotations;
  const Type *returnType = nullptr;
};

LoweredModule lowerModule(const std::shared_ptr<FunctionSource> &source,
                          const std::vector<const Type *> &argumentTypes,
                          const Type *declaredReturnType, bool forCuda = false,
                          bool kernel = false) {
  if (argumentTypes.size() != source->parameters.size())
    throwTypingError(source->name + "() takes " + std::to_string(source->parameters.size()) +
                         " arguments but " + std::to_string(argumentTypes.size()) + " were given",
                     source->definitionLocation);
  CompileSession session;
  TypedFunction &root = session.typeRoot(source.get(), argumentTypes);
  if (declaredReturnType && declaredReturnType != root.returnType) {
    bool convertible = (declaredReturnType->isNumber() && root.returnType->isNumber()) ||
                       canConvertImplicitly(root.returnType, declaredReturnType) ||
                       declaredReturnType->isNone();
    if (!convertible)
      throwTypingError("the function returns " + root.returnType->name() +
                           ", which does not convert to the declared return type " +
                           declaredReturnType->name(),
                       source->definitionLocation);
    root.returnType = declaredReturnType;
  }
  if (!root.returnType->isRuntimeValue())
    throwTypingError("cannot return a value of type " + root.returnType->name(),
                     source->definitionLocation);

  LoweredModule result;
  result.context = std::make_unique<llvm::LLVMContext>();
  result.module = std::make_unique<llvm::Module>(root.symbolName, *result.context);
  if (forCuda)
    cuda::prepareModule(*result.module);
  else
    CpuJit::get().prepareModule(*result.module);
  if (kernel && !root.returnType->isNone())
    throwTypingError("a CUDA kernel cannot return a value (it returns " + root.returnType->name() +
                         "); write results into an array argument",
                     source->definitionLocation);
  ModuleLowering lowering(*result.module, forCuda);
  for (TypedFunction &function : session.functions) {
    try {
      lowering.define(function);
    } catch (CompileError &error) {
      if (!error.function)
        error.function = function.source;
      throw;
    }
  }
  if (kernel) {
    result.entryName = root.symbolName + "_kernel";
    lowering.defineKernelWrapper(root, result.entryName);
  } else if (!forCuda) {
    result.entryName = root.symbolName + "_entry";
    lowering.defineEntryWrapper(root, result.entryName);
  } else {
    // A device function compiled on its own (compile_ptx(device=True)): keep it visible.
    result.entryName = root.symbolName;
    result.module->getFunction(root.symbolName)->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
  lowering.finishDebugInfo();
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*result.module, &stream))
    throw CompileError(CompileErrorKind::Internal,
                       "taipan generated invalid LLVM IR (a compiler bug): " + problems,
                       source->definitionLocation, source.get());
  result.typeAnnotations = annotateTypes(root);
  result.returnType = root.returnType;
  return result;
}

std::mutex compileMutex;

/// The optimisation level: TAIPAN_OPT (0-3, like NUMBA_OPT), 3 by default.
int optimizationLevel() {
  static const int level = [] {
    const char *text = std::getenv("TAIPAN_OPT");
    return text && *text >= '0' && *text <= '3' ? *text - '0' : 3;
  }();
  return level;
}

} // namespace

CompiledFunction compileFunction(const std::shared_ptr<FunctionSource> &source,
                                 const std::vector<const Type *> &argumentTypes,
                                 const Type *declaredReturnType) {
  std::lock_guard<std::mutex> lock(compileMutex);
  LoweredModule lowered = lowerModule(source, argumentTypes, declaredReturnType);
  CpuJit &jit = CpuJit::get();
  jit.optimize(*lowered.module, optimizationLevel());
  CompiledFunction compiled;
  compiled.entry = reinterpret_cast<CompiledFunction::EntryPoint>(jit.addModuleAndLookup(
      std::move(lowered.module), std::move(lowered.context), lowered.entryName));
  compiled.argumentTypes = argumentTypes;
  compiled.returnType = lowered.returnType;
  compiled.typeAnnotations = std::move(lowered.typeAnnotations);
  return compiled;
}

CompiledKernel compileKernel(const std::shared_ptr<FunctionSource> &source,
                             const std::vector<const Type *> &argumentTypes,
                             const cuda::PtxTarget &target, bool device, bool keepIR) {
  std::lock_guard<std::mutex> lock(compileMutex);
  LoweredModule lowered = lowerModule(source, argumentTypes, nullptr, true, !device);
  CompiledKernel kernel;
  try {
    kernel.ptx = cuda::compileToPtx(*lowered.module, {lowered.entryName}, target, !device,
                                    keepIR ? &kernel.llvmIR : nullptr);
  } catch (CompileError &error) {
    if (!error.function) {
      error.function = source.get();
      error.location = source->definitionLocation;
    }
    throw;
  }
  kernel.name = lowered.entryName;
  kernel.returnType = lowered.returnType;
  kernel.typeAnnotations = std::move(lowered.typeAnnotations);
  return kernel;
}

std::string inspectFunction(const std::shared_ptr<FunctionSource> &source,
                            const std::vector<const Type *> &argumentTypes, InspectionKind kind) {
  std::lock_guard<std::mutex> lock(compileMutex);
  LoweredModule lowered = lowerModule(source, argumentTypes, nullptr);
  CpuJit &jit = CpuJit::get();
  if (kind != InspectionKind::UnoptimizedIR)
    jit.optimize(*lowered.module, optimizationLevel());
  if (kind == InspectionKind::Assembly)
    return jit.emitAssembly(*lowered.module);
  std::string text;
  llvm::raw_string_ostream stream(text);
  lowered.module->print(stream, nullptr);
  return text;
}

} // namespace taipan
