// The compile pipeline: one sequence of stages for every job (a Python-callable function, a CUDA
// kernel, a ufunc loop, a cfunc, the text of any of them). Typing (JobTyping), lowering into one
// LLVM module with the target's entry point, finalisation, optimisation and delivery; the job's
// Platform and Target decide everything that differs between targets.
#include "compiler/Compiler.h"

#include "compiler/JobTyping.h"
#include "compiler/Platforms.h"
#include "compiler/TieredCompilation.h"
#include "lower/FunctionLowering.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace taipan {
namespace {

std::recursive_mutex compileMutex;
CompilerLock::BeforeWait beforeCompilerLockWait = nullptr;
CompilerLock::AfterWait afterCompilerLockWait = nullptr;

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

/// A job between its stages: its platform and target, its module, and its result so far.
struct PendingJob {
  const CompileJob *job = nullptr;
  const Platform *platform = nullptr;
  std::unique_ptr<Target> target;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  /// The entry's symbol; for a Callable job, free in the process's loader.
  std::string entryName;
  std::string processSpecific;
  CompiledFunction result;
};

/// The text of a module (LLVM IR).
std::string printModule(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  module.print(stream, nullptr);
  return text;
}

/// Runs a stage after lowering, attributing a CompileError it throws without a function to the
/// job's root (the target refusing what it cannot run: a CUDA call of an unknown device
/// function, an unsupported atomic).
template <typename Stage> void runAttributed(const CompileJob &job, Stage &&stage) {
  try {
    stage();
  } catch (CompileError &error) {
    if (!error.function) {
      error.function = job.source.get();
      error.location = job.source->definitionLocation;
    }
    throw;
  }
}

/// Stages 1 and 2: types the job (JobTyping) and lowers every typed function into one module
/// with the target's entry point, verified.
void typeAndLower(PendingJob &pending) {
  const CompileJob &job = *pending.job;
  const Target &target = *pending.target;
  StageTimes *times = &pending.result.times;
  CompileSession session;
  TypedFunction *rootPointer = nullptr;
  std::vector<TypedFunction *> variants;
  {
    StageTimes::Scope timing(times, "type inference");
    pending.result.hash = typeJob(job, target, session, rootPointer, &variants);
  }
  StageTimes::Scope timing(times, "lowering");
  TypedFunction &root = *rootPointer;
  pending.context = std::make_unique<llvm::LLVMContext>();
  pending.module = std::make_unique<llvm::Module>(root.symbolName, *pending.context);
  target.prepareModule(*pending.module);
  target.checkEntry(root);
  ModuleLowering lowering(*pending.module, target);
  for (TypedFunction &function : session.functions) {
    try {
      lowering.define(function);
    } catch (CompileError &error) {
      if (!error.function)
        error.function = function.source;
      throw;
    }
  }
  pending.entryName = target.defineEntry(lowering, root, variants);
  lowering.finishDebugInfo();
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*pending.module, &stream))
    throw CompileError(CompileErrorKind::Internal,
                       "taipan generated invalid LLVM IR (a compiler bug): " + problems,
                       job.source->definitionLocation, job.source.get());
  pending.result.typeAnnotations = annotateTypes(root);
  pending.result.variableTypes = root.variableTypes;
  for (const TypedFunction &function : session.functions)
    if (&function != &root)
      pending.result.calledFunctions.emplace_back(function.source, function.argumentTypes);
  pending.result.arrayVariables = arrayHoldingVariables(root);
  pending.result.returnType = root.returnType;
  pending.result.parallelLoops = std::move(lowering.parallelLoops);
  pending.processSpecific = std::move(lowering.processSpecific);
}

/// The stages that read shared state (the interpreter, the library, the loader's names), run
/// under the compiler lock: the target, typing and lowering, finalisation (runtime calls defined,
/// the math library linked, what the host does not see internalised: Target::finalizeModule),
/// and for a Callable job its entry's name in the process and its tier.
PendingJob startJob(const CompileJob &job) {
  PendingJob pending;
  pending.job = &job;
  pending.platform = &platformNamed(job.target.platform);
  if (job.product == Product::Callable && !pending.platform->loadsIntoProcess())
    throw CompileError(CompileErrorKind::Internal,
                       "code for the '" + job.target.platform +
                           "' platform cannot be loaded into this process; ask for its assembly",
                       job.source->definitionLocation, job.source.get());
  pending.target = pending.platform->makeTarget(job.target, job.options());
  typeAndLower(pending);
  if (job.product == Product::UnoptimizedIR)
    return pending;
  runAttributed(job, [&] {
    StageTimes::Scope timing(&pending.result.times, "target finalization");
    pending.target->finalizeModule(*pending.module, pending.entryName);
  });
  if (job.product != Product::Callable)
    return pending;
  pending.entryName = pending.platform->reserveEntryName(*pending.module, pending.entryName);
  // Lowering does not depend on the level, so the module is the one the job's own level would
  // optimise.
  if (job.allowFirstTier)
    if (std::unique_ptr<Target> quick =
            pending.platform->firstTierTarget(job.target, job.options()))
      if (qualifiesForFirstTier(*pending.module)) {
        pending.target = std::move(quick);
        pending.result.firstTier = true;
      }
  return pending;
}

/// Optimises a started job and produces its text or, for a Callable job with `emitObject` or a
/// platform that generates object code itself, its object code. This touches nothing another
/// job uses (with Platform::prepareForThreads), so jobs may run it side by side on threads.
void generateCode(PendingJob &pending, bool emitObject) {
  const CompileJob &job = *pending.job;
  CompiledFunction &result = pending.result;
  llvm::Module &module = *pending.module;
  if (job.product == Product::UnoptimizedIR) {
    result.text = printModule(module);
    return;
  }
  runAttributed(job, [&] {
    pending.target->optimize(module, &result.times);
    if (job.keepOptimizedIR)
      result.optimizedIR = printModule(module);
    switch (job.product) {
    case Product::Assembly: {
      StageTimes::Scope timing(&result.times,
                               "code generation (" + pending.platform->assemblyName() + ")");
      result.text = pending.target->emitAssembly(module);
      break;
    }
    case Product::OptimizedIR:
      result.text = printModule(module);
      break;
    case Product::Callable:
      if (emitObject ||
          pending.platform->generatesObjectCode(*pending.target, job.keepObjectCode)) {
        StageTimes::Scope timing(&result.times, "code generation");
        result.objectCode = pending.platform->emitObject(*pending.target, module);
      }
      break;
    case Product::UnoptimizedIR:
      break;
    }
  });
}

/// The last stage: a Callable job's code loaded into the process (its object code, or else its
/// module), and the result completed. The object code stays only when the job asked for it.
CompiledFunction finishJob(PendingJob &pending) {
  const CompileJob &job = *pending.job;
  CompiledFunction &result = pending.result;
  if (job.product == Product::Callable) {
    {
      // Without object code this includes the loader's own code generation.
      StageTimes::Scope timing(
          &result.times, result.objectCode.empty() ? "code generation and loading" : "loading");
      void *entry =
          pending.platform->load(*pending.target, std::move(pending.module),
                                 std::move(pending.context), result.objectCode, pending.entryName);
      result.entry = reinterpret_cast<CompiledFunction::EntryPoint>(entry);
    }
    if (!job.keepObjectCode)
      result.objectCode.clear();
  }
  if (job.product != Product::Callable || job.keepObjectCode) {
    result.entryName = pending.entryName;
    result.processSpecific = std::move(pending.processSpecific);
  }
  result.argumentTypes = job.argumentTypes;
  return std::move(result);
}

} // namespace

CompiledFunction compileFunction(const CompileJob &job) {
  CompilerLock lock;
  PendingJob pending = startJob(job);
  generateCode(pending, false);
  return finishJob(pending);
}

std::vector<CompiledFunction> compileFunctions(const std::vector<CompileJob> &jobs) {
  CompilerLock lock;
  std::vector<PendingJob> pending;
  pending.reserve(jobs.size());
  for (const CompileJob &job : jobs)
    pending.push_back(startJob(job));
  // Optimisation and code generation are most of a compilation and need nothing shared:
  // each job gets a target machine of its own and the jobs run on up to one thread per core.
  size_t cores = std::max(1u, std::thread::hardware_concurrency());
  size_t workers = std::min(pending.size(), cores);
  if (workers > 1)
    for (PendingJob &job : pending)
      job.platform->prepareForThreads(*job.target);
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
  for (PendingJob &job : pending)
    compiled.push_back(finishJob(job));
  return compiled;
}

CompiledFunction loadCompiledFunction(const CompileJob &job, const std::string &objectCode,
                                      const std::string &entryName,
                                      const std::string &expectedHash) {
  CompilerLock lock;
  const Platform &platform = platformNamed(job.target.platform);
  CompiledFunction compiled;
  CompileSession session;
  TypedFunction *root = nullptr;
  {
    StageTimes::Scope timing(&compiled.times, "type inference");
    compiled.hash = typeJob(job, *platform.makeTarget(job.target, job.options()), session, root);
  }
  if (compiled.hash != expectedHash)
    throw CompileError(CompileErrorKind::Internal,
                       "the cached code was compiled from another version of this function",
                       job.source->definitionLocation, job.source.get());
  {
    StageTimes::Scope timing(&compiled.times, "loading cached code");
    compiled.entry = reinterpret_cast<CompiledFunction::EntryPoint>(
        platform.loadCachedObject(objectCode, entryName));
  }
  compiled.objectCode = objectCode;
  compiled.entryName = entryName;
  compiled.argumentTypes = job.argumentTypes;
  compiled.returnType = root->returnType;
  compiled.typeAnnotations = annotateTypes(*root);
  compiled.variableTypes = root->variableTypes;
  compiled.arrayVariables = arrayHoldingVariables(*root);
  return compiled;
}

CompiledFunction loadObjectCode(const std::vector<const Type *> &argumentTypes,
                                const Type *returnType, const std::string &objectCode,
                                const std::string &entryName, const std::string &hash,
                                const std::string &typeAnnotations) {
  CompilerLock lock;
  CompiledFunction compiled;
  {
    // The disk cache keeps object code of the host only (taipan/caching.py).
    StageTimes::Scope timing(&compiled.times, "loading cached code");
    compiled.entry = reinterpret_cast<CompiledFunction::EntryPoint>(
        platformNamed("cpu").loadCachedObject(objectCode, entryName));
  }
  compiled.objectCode = objectCode;
  compiled.entryName = entryName;
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
  const Platform &platform = platformNamed(job.target.platform);
  return typeJob(job, *platform.makeTarget(job.target, job.options()), session, root);
}

} // namespace taipan
