// The compilation driver: a session types the requested function and every jitted function it
// calls (resolving recursion by repeating inference until nothing changes), lowers them into one
// LLVM module, optimises it and hands it to the CPU JIT.
#include "compiler/Compiler.h"

#include "compiler/JobHash.h"
#include "compiler/TieredCompilation.h"
#include "cpu/CfuncTarget.h"
#include "cpu/CpuJit.h"
#include "cpu/CpuTarget.h"
#include "cpu/GufuncLoopTarget.h"
#include "cpu/UfuncLoopTarget.h"
#include "cuda/CudaTarget.h"
#include "lower/FunctionLowering.h"
#include "types/NumericPromotion.h"
#include "typing/TypeInference.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace taipan {
namespace {

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

  /// Types a copy of `root` for other argument types (Target::entryVariants) and what it calls
  /// (the root itself for its own types). When the copy does not type, returns null and leaves
  /// the session as it was, so the root still compiles and the entry falls back on it.
  TypedFunction *typeVariant(FunctionSource *root, const std::vector<const Type *> &argumentTypes) {
    size_t typed = functions.size();
    int savedDepth = depth;
    try {
      return &typeRoot(root, argumentTypes);
    } catch (CompileError &) {
      while (functions.size() > typed) {
        instances.erase(std::make_pair(functions.back().source, functions.back().argumentTypes));
        functions.pop_back();
      }
      depth = savedDepth;
      return nullptr;
    }
  }

  /// Names every function after its digest (the root's first: recursion is cut where the
  /// traversal from the root meets a function again), and returns the root's digest.
  std::string nameFunctions(TypedFunction &root) {
    FunctionDigests digests;
    std::string rootDigest = digests.of(root);
    for (TypedFunction &function : functions)
      function.symbolName = symbolFor(function.source->name, digests.of(function));
    return rootDigest;
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
  std::string hash; ///< the job hash
  std::vector<ParallelLoopReport> parallelLoops;
  std::string processSpecific;
};

/// The optimisation level of a CPU job: its opt (taipan.config.OPT, from TAIPAN_OPT, unless the
/// options give one), 3 when none is given.
int optimizationLevel(const CompileJob &job) {
  int asked = job.options().optimizationLevel;
  return asked >= 0 ? asked : 3;
}

/// The host-CPU target of a CPU job: plain, or entered as a NumPy (generalized) ufunc loop.
std::unique_ptr<CpuTarget> cpuTargetFor(const CompileJob &job) {
  int level = optimizationLevel(job);
  // Approximate functions allowed (fastmath=True or 'afn'): vectorised loops may use libmvec.
  bool vectorMath = job.options().fastmathFlags & FastmathApproximateFunctions;
  if (job.target == JobTarget::UfuncLoop)
    return std::make_unique<UfuncLoopTarget>(level, vectorMath);
  if (job.target == JobTarget::GufuncLoop)
    return std::make_unique<GufuncLoopTarget>(level, vectorMath, job.coreDimensions, job.coreSizes);
  if (job.target == JobTarget::Cfunc)
    return std::make_unique<CfuncTarget>(level, vectorMath);
  return std::make_unique<CpuTarget>(level, vectorMath);
}

/// The target a job compiles for: the one place that maps a JobTarget to its implementation.
std::unique_ptr<Target> targetFor(const CompileJob &job) {
  switch (job.target) {
  case JobTarget::Cpu:
  case JobTarget::UfuncLoop:
  case JobTarget::GufuncLoop:
  case JobTarget::Cfunc:
    return cpuTargetFor(job);
  case JobTarget::CudaKernel:
    return std::make_unique<CudaTarget>(job.computeCapability, job.options(),
                                        CudaTarget::Entry::Kernel);
  case JobTarget::CudaDevice:
    return std::make_unique<CudaTarget>(job.computeCapability, job.options(),
                                        CudaTarget::Entry::DeviceFunction);
  }
  throw CompileError(CompileErrorKind::Internal, "unknown compile target", {});
}

/// Types the job's functions and names them after their digests; returns the job hash. With
/// `variants`, also types the root's copies for the target's entryVariants into it (lowering
/// needs them; the hash does not: they follow from the root and the target's identity).
std::string typeJob(const CompileJob &job, const Target &target, CompileSession &session,
                    TypedFunction *&rootOut, std::vector<TypedFunction *> *variants = nullptr) {
  const std::shared_ptr<FunctionSource> &source = job.source;
  const std::vector<const Type *> &argumentTypes = job.argumentTypes;
  if (argumentTypes.size() != source->parameters.size())
    throwTypingError(source->name + "() takes " + std::to_string(source->parameters.size()) +
                         " arguments but " + std::to_string(argumentTypes.size()) + " were given",
                     source->definitionLocation);
  TypedFunction &root = session.typeRoot(source.get(), argumentTypes);
  const Type *declaredReturnType = job.declaredReturnType;
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
  // A slice object is kept unpacked (None bounds replaced), so it cannot be rebuilt for Python.
  std::function<bool(const Type *)> holdsSlice = [&](const Type *type) {
    if (type->kind() == TypeKind::Slice)
      return true;
    if (type->isOptional())
      return holdsSlice(type->optionalValue());
    return type->isTuple() &&
           std::any_of(type->elements().begin(), type->elements().end(), holdsSlice);
  };
  if (holdsSlice(root.returnType))
    throwUnsupported("returning a slice object from compiled code is not supported",
                     source->definitionLocation);
  rootOut = &root;
  if (variants)
    for (const std::vector<const Type *> &types : target.entryVariants(root))
      variants->push_back(session.typeVariant(source.get(), types));
  return jobHash(job, target, session.nameFunctions(root));
}

std::recursive_mutex compileMutex;
CompilerLock::BeforeWait beforeCompilerLockWait = nullptr;
CompilerLock::AfterWait afterCompilerLockWait = nullptr;

/// Entry symbols already in the JIT; guarded by the compiler lock.
std::set<std::string> &compiledEntryNames() {
  static std::set<std::string> names;
  return names;
}

/// The entry symbol for the JIT: its stable name, unless the process already has it (the same
/// code compiled again, by another dispatcher of the same function), then with a suffix.
std::string jitEntryName(const std::string &stableName) {
  std::string name = stableName;
  for (int copy = 2; compiledEntryNames().count(name); ++copy)
    name = stableName + "_" + std::to_string(copy);
  return name;
}

/// Types and lowers a job into a verified module, timing both stages into `times`.
LoweredModule lowerModule(const CompileJob &job, const Target &target, StageTimes *times) {
  const std::shared_ptr<FunctionSource> &source = job.source;
  CompileSession session;
  TypedFunction *rootPointer = nullptr;
  std::vector<TypedFunction *> variants;
  LoweredModule result;
  {
    StageTimes::Scope timing(times, "type inference");
    result.hash = typeJob(job, target, session, rootPointer, &variants);
  }
  StageTimes::Scope timing(times, "lowering");
  TypedFunction &root = *rootPointer;
  result.context = std::make_unique<llvm::LLVMContext>();
  result.module = std::make_unique<llvm::Module>(root.symbolName, *result.context);
  target.prepareModule(*result.module);
  target.checkEntry(root);
  ModuleLowering lowering(*result.module, target);
  for (TypedFunction &function : session.functions) {
    try {
      lowering.define(function);
    } catch (CompileError &error) {
      if (!error.function)
        error.function = function.source;
      throw;
    }
  }
  result.entryName = target.defineEntry(lowering, root, variants);
  lowering.finishDebugInfo();
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*result.module, &stream))
    throw CompileError(CompileErrorKind::Internal,
                       "taipan generated invalid LLVM IR (a compiler bug): " + problems,
                       source->definitionLocation, source.get());
  result.typeAnnotations = annotateTypes(root);
  result.returnType = root.returnType;
  result.parallelLoops = std::move(lowering.parallelLoops);
  result.processSpecific = std::move(lowering.processSpecific);
  return result;
}

} // namespace

void CompilerLock::acquire() {
  if (compileMutex.try_lock())
    return;
  void *state = beforeCompilerLockWait ? beforeCompilerLockWait() : nullptr;
  compileMutex.lock();
  if (afterCompilerLockWait)
    afterCompilerLockWait(state);
}

void CompilerLock::release() { compileMutex.unlock(); }

void CompilerLock::setWaitHooks(BeforeWait beforeWait, AfterWait afterWait) {
  beforeCompilerLockWait = beforeWait;
  afterCompilerLockWait = afterWait;
}

namespace {

/// A CPU job between lowering and loading: its target, its module, and its result so far.
struct PendingCpuJob {
  std::unique_ptr<CpuTarget> target;
  LoweredModule lowered;
  CompiledFunction compiled;
  std::string entryName; ///< the entry wrapper's name, unique in the JIT
};

/// Types, lowers and finalises a CPU job, and names its entry uniquely in the JIT. Callers
/// hold compileMutex: typing reads the interpreter and the library.
PendingCpuJob lowerCpuJob(const CompileJob &job) {
  PendingCpuJob pending;
  pending.target = cpuTargetFor(job);
  pending.lowered = lowerModule(job, *pending.target, &pending.compiled.times);
  {
    StageTimes::Scope timing(&pending.compiled.times, "target finalization");
    pending.target->finalizeModule(*pending.lowered.module, pending.lowered.entryName);
  }
  pending.entryName = jitEntryName(pending.lowered.entryName);
  pending.lowered.module->getFunction(pending.lowered.entryName)->setName(pending.entryName);
  compiledEntryNames().insert(pending.entryName);
  return pending;
}

/// Optimises a lowered job and, with `emitObject` or a target that generates its code itself,
/// generates its object code. This touches nothing another job uses (with its target's own
/// target machine), so jobs may run it side by side on threads.
void generateCode(PendingCpuJob &pending, bool emitObject) {
  pending.target->optimize(*pending.lowered.module, &pending.compiled.times);
  if (emitObject || pending.target->generatesCodeItself()) {
    StageTimes::Scope timing(&pending.compiled.times, "code generation");
    pending.compiled.objectCode = pending.target->emitObject(*pending.lowered.module);
  }
}

/// Loads a job's code into the JIT (its object code, or else its module) and completes its
/// CompiledFunction; the object code stays only when the job asked for it.
CompiledFunction installCpuJob(PendingCpuJob &pending, const CompileJob &job) {
  CompiledFunction &compiled = pending.compiled;
  {
    // Without object code this includes the JIT's own code generation.
    StageTimes::Scope timing(
        &compiled.times, compiled.objectCode.empty() ? "code generation and loading" : "loading");
    void *entry = nullptr;
    if (!compiled.objectCode.empty())
      entry = CpuJit::get().addObjectAndLookup(compiled.objectCode, pending.entryName);
    else
      entry = pending.target->install(std::move(pending.lowered.module),
                                      std::move(pending.lowered.context), pending.entryName);
    compiled.entry = reinterpret_cast<CompiledFunction::EntryPoint>(entry);
  }
  if (job.keepObjectCode) {
    compiled.entryName = pending.entryName;
    compiled.processSpecific = pending.lowered.processSpecific;
  } else {
    compiled.objectCode.clear();
  }
  compiled.argumentTypes = job.argumentTypes;
  compiled.returnType = pending.lowered.returnType;
  compiled.typeAnnotations = std::move(pending.lowered.typeAnnotations);
  compiled.hash = std::move(pending.lowered.hash);
  compiled.parallelLoops = std::move(pending.lowered.parallelLoops);
  return std::move(compiled);
}

/// Switches a lowered job that asked for it and qualifies to a level-0 target: the first tier
/// of tiered compilation (TieredCompilation.h). Lowering does not depend on the level, so the
/// module is the one the job's own level would optimise.
void chooseFirstTier(PendingCpuJob &pending, const CompileJob &job) {
  if (!job.allowFirstTier || job.target != JobTarget::Cpu || optimizationLevel(job) < 3 ||
      job.options().fastmathFlags != 0 || !qualifiesForFirstTier(*pending.lowered.module))
    return;
  pending.target = std::make_unique<CpuTarget>(0, false);
  pending.compiled.firstTier = true;
}

} // namespace

CompiledFunction compileFunction(const CompileJob &job) {
  CompilerLock lock;
  PendingCpuJob pending = lowerCpuJob(job);
  chooseFirstTier(pending, job);
  generateCode(pending, job.keepObjectCode);
  return installCpuJob(pending, job);
}

std::vector<CompiledFunction> compileFunctions(const std::vector<CompileJob> &jobs) {
  CompilerLock lock;
  std::vector<PendingCpuJob> pending;
  pending.reserve(jobs.size());
  for (const CompileJob &job : jobs)
    pending.push_back(lowerCpuJob(job));
  // Optimisation and code generation are most of a compilation and need nothing shared:
  // each job gets a target machine of its own and the jobs run on up to one thread per core.
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  size_t workers = std::min(pending.size(), cores);
  if (workers > 1)
    for (PendingCpuJob &job : pending)
      job.target->useOwnTargetMachine();
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> failures(pending.size());
  auto work = [&] {
    for (size_t i; (i = next++) < pending.size();) {
      try {
        generateCode(pending[i], true);
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t worker = 1; worker < workers; ++worker)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  for (const std::exception_ptr &failure : failures)
    if (failure)
      std::rethrow_exception(failure);
  std::vector<CompiledFunction> compiled;
  for (size_t i = 0; i < pending.size(); ++i)
    compiled.push_back(installCpuJob(pending[i], jobs[i]));
  return compiled;
}

CompiledKernel compileKernel(const CompileJob &job, bool keepIR) {
  CompilerLock lock;
  std::unique_ptr<Target> target = targetFor(job);
  CompiledKernel kernel;
  LoweredModule lowered = lowerModule(job, *target, &kernel.times);
  try {
    {
      StageTimes::Scope timing(&kernel.times, "target finalization");
      target->finalizeModule(*lowered.module, lowered.entryName);
    }
    target->optimize(*lowered.module, &kernel.times);
    if (keepIR) {
      llvm::raw_string_ostream text(kernel.llvmIR);
      lowered.module->print(text, nullptr);
    }
    StageTimes::Scope timing(&kernel.times, "code generation (PTX)");
    kernel.ptx = target->emitAssembly(*lowered.module);
  } catch (CompileError &error) {
    if (!error.function) {
      error.function = job.source.get();
      error.location = job.source->definitionLocation;
    }
    throw;
  }
  kernel.name = lowered.entryName;
  kernel.returnType = lowered.returnType;
  kernel.typeAnnotations = std::move(lowered.typeAnnotations);
  kernel.hash = std::move(lowered.hash);
  kernel.processSpecific = std::move(lowered.processSpecific);
  return kernel;
}

std::string inspectFunction(const CompileJob &job, InspectionKind kind) {
  CompilerLock lock;
  std::unique_ptr<Target> target = targetFor(job);
  LoweredModule lowered = lowerModule(job, *target, nullptr);
  if (kind != InspectionKind::UnoptimizedIR) {
    target->finalizeModule(*lowered.module, lowered.entryName);
    target->optimize(*lowered.module, nullptr);
  }
  if (kind == InspectionKind::Assembly)
    return target->emitAssembly(*lowered.module);
  std::string text;
  llvm::raw_string_ostream stream(text);
  lowered.module->print(stream, nullptr);
  return text;
}

namespace {

/// Adds object code to the JIT (once per process: the same code loaded or compiled before is
/// in the JIT already) and sets `compiled`'s entry point, object code and entry name.
void installObjectCode(CompiledFunction &compiled, const std::string &objectCode,
                       const std::string &entryName) {
  StageTimes::Scope timing(&compiled.times, "loading cached code");
  void *entry = compiledEntryNames().count(entryName)
                    ? CpuJit::get().lookup(entryName)
                    : CpuJit::get().addObjectAndLookup(objectCode, entryName);
  compiledEntryNames().insert(entryName);
  compiled.entry = reinterpret_cast<CompiledFunction::EntryPoint>(entry);
  compiled.objectCode = objectCode;
  compiled.entryName = entryName;
}

} // namespace

CompiledFunction loadCompiledFunction(const CompileJob &job, const std::string &objectCode,
                                      const std::string &entryName,
                                      const std::string &expectedHash) {
  CompilerLock lock;
  CompiledFunction compiled;
  CompileSession session;
  TypedFunction *root = nullptr;
  {
    StageTimes::Scope timing(&compiled.times, "type inference");
    compiled.hash = typeJob(job, *targetFor(job), session, root);
  }
  if (compiled.hash != expectedHash)
    throw CompileError(CompileErrorKind::Internal,
                       "the cached code was compiled from another version of this function",
                       job.source->definitionLocation, job.source.get());
  installObjectCode(compiled, objectCode, entryName);
  compiled.argumentTypes = job.argumentTypes;
  compiled.returnType = root->returnType;
  compiled.typeAnnotations = annotateTypes(*root);
  return compiled;
}

CompiledFunction loadObjectCode(const std::vector<const Type *> &argumentTypes,
                                const Type *returnType, const std::string &objectCode,
                                const std::string &entryName, const std::string &hash,
                                const std::string &typeAnnotations) {
  CompilerLock lock;
  CompiledFunction compiled;
  installObjectCode(compiled, objectCode, entryName);
  compiled.argumentTypes = argumentTypes;
  compiled.returnType = returnType;
  compiled.hash = hash;
  compiled.typeAnnotations = typeAnnotations;
  return compiled;
}

std::string hashJob(const CompileJob &job) {
  CompilerLock lock;
  CompileSession session;
  TypedFunction *root = nullptr;
  return typeJob(job, *targetFor(job), session, root);
}

} // namespace taipan
