// The compiler's entry points for the bindings: compile jobs (a FunctionSource, argument types
// and a target) to a callable entry point, PTX, or text (LLVM IR, assembly). No LLVM types here.
#pragma once

#include "support/ParallelLoopReport.h"
#include "support/StageTimes.h"
#include "syntax/SyntaxTree.h"
#include "target/TargetDescription.h"
#include "types/Type.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace taipan {

/// What a job delivers.
enum class Product {
  Callable,      ///< code loaded into this process, ready to call (CompiledFunction::entry)
  Assembly,      ///< the target's assembly (PTX for CUDA), in CompiledFunction::text
  OptimizedIR,   ///< the optimised LLVM IR, in CompiledFunction::text
  UnoptimizedIR, ///< the LLVM IR as lowering left it, in CompiledFunction::text
};

/// The products that are text rather than code (inspect_llvm, inspect_asm).
using InspectionKind = Product;

/// One compilation. Its options are the root function's, parsed once when the function was
/// read (FunctionSource::options); callees keep their own for their bodies, while module-wide
/// settings (the pass pipeline, CUDA fastmath, max_registers) follow the root's.
struct CompileJob {
  std::shared_ptr<FunctionSource> source;
  std::vector<const Type *> argumentTypes;
  const Type *declaredReturnType = nullptr; ///< from an explicit signature, or nullptr
  /// The platform, its architecture and the entry point's kind (its ABI).
  TargetDescription target;
  Product product = Product::Callable;
  /// Callable jobs: also return the object code (CompiledFunction::objectCode) for the disk
  /// cache and pickles.
  bool keepObjectCode = false;
  /// A Callable job whose platform offers a first tier (the CPU: a plain function at level 3
  /// without fastmath) and whose module qualifies (compiler/TieredCompilation) is compiled at
  /// level 0 as a first tier; CompiledFunction::firstTier says whether it was. The same job
  /// without this flag gives the level-3 code.
  bool allowFirstTier = false;
  /// Also return the optimised LLVM IR (CompiledFunction::optimizedIR: a kernel's inspect_llvm).
  bool keepOptimizedIR = false;

  const CompileOptions &options() const { return source->options; }
};

/// What a job delivered: a compiled specialisation ready to call (Product::Callable) or the text
/// of its code, with what the compilation learned on the way.
struct CompiledFunction {
  /// Reads each argument through `arguments[i]` (memory form, see Type::storageSize), writes
  /// the result to `result`, returns 0 or, with an exception pending, a non-zero status.
  using EntryPoint = int32_t (*)(void **arguments, void *result);

  /// Product::Callable: the entry point in this process.
  EntryPoint entry = nullptr;
  /// The other products: the text (a CUDA kernel's PTX, host assembly, LLVM IR).
  std::string text;
  std::vector<const Type *> argumentTypes;
  const Type *returnType = nullptr;
  /// Source lines annotated with the types of the variables assigned on them.
  std::string typeAnnotations;
  /// The type of each variable of the root function (parameters included), by name: what
  /// typeAnnotations shows (numba-cuda's type_annotation.typemap).
  std::map<std::string, const Type *> variableTypes;
  /// The other jitted functions typed for this job (what the root calls, directly or not), with
  /// their argument types: their code is part of this one, and a CUDA device function lists
  /// these specialisations as its own (numba-cuda's overloads). Empty for code from a cache.
  std::vector<std::pair<const FunctionSource *, std::vector<const Type *>>> calledFunctions;
  /// The locals that may hold an array (arrayHoldingVariables), when this process typed the
  /// function (none for code loaded by its code key alone).
  std::optional<std::vector<std::string>> arrayVariables;
  /// The job hash (see jobHash): equal in every process for the same code.
  std::string hash;
  /// Where the compilation spent its time, stage by stage (not timed for inspection).
  StageTimes times;
  /// How each prange loop of a parallel=True function runs (parallel_diagnostics).
  std::vector<ParallelLoopReport> parallelLoops;
  /// With CompileJob::keepObjectCode: the object code.
  std::string objectCode;
  /// The entry's symbol: in the object code (Callable, with CompileJob::keepObjectCode), or in
  /// the text (the other products: a kernel's name in its PTX).
  std::string entryName;
  /// With entryName: why the code cannot be used by another process (empty when it can: no
  /// per-process value, such as a user exception's id, is built in). Such code is not written
  /// to the disk cache nor carried by pickles.
  std::string processSpecific;
  /// With CompileJob::keepOptimizedIR: the optimised LLVM IR.
  std::string optimizedIR;
  /// Compiled at level 0 as a first tier (CompileJob::allowFirstTier): the same computation as
  /// the job's level-3 code, slower, for the caller to replace once calls have paid for it.
  bool firstTier = false;
};

/// The compile pipeline, one for every platform, entry kind and product: types the job's root
/// and what it calls, lowers them into one module with the target's entry point, finalises,
/// optimises and delivers it (docs: /work/notes/arch/PIPELINE.md). Throws CompileError for bad
/// input.
CompiledFunction compileFunction(const CompileJob &job);

/// Compiles several jobs at once: typed and lowered in order, then optimised and turned into
/// code on up to one thread per core, then delivered. What one call of compileFunction per job
/// would give (each keeps its object code only when its job asks), in less time.
std::vector<CompiledFunction> compileFunctions(const std::vector<CompileJob> &jobs);

/// A CPU job whose object code a disk cache kept (CompiledFunction::objectCode, entryName):
/// typed again (for its result type and hash, no LLVM), checked against `expectedHash`, and
/// loaded into the JIT. Throws CompileError when the job no longer hashes to it.
CompiledFunction loadCompiledFunction(const CompileJob &job, const std::string &objectCode,
                                      const std::string &entryName,
                                      const std::string &expectedHash);

/// Object code a disk cache kept, loaded without typing or LLVM: the caller vouches that it is
/// the code of the function it will call it for (taipan/caching.py keys it by the function's
/// code objects, the values of the globals it reads, its options and the host), and gives the
/// argument and result types it was compiled for.
CompiledFunction loadObjectCode(const std::vector<const Type *> &argumentTypes,
                                const Type *returnType, const std::string &objectCode,
                                const std::string &entryName, const std::string &hash,
                                const std::string &typeAnnotations);

/// A CPU job for `source` (the form the C++ tests use).
inline CompiledFunction compileFunction(const std::shared_ptr<FunctionSource> &source,
                                        const std::vector<const Type *> &argumentTypes,
                                        const Type *declaredReturnType = nullptr) {
  return compileFunction(CompileJob{source, argumentTypes, declaredReturnType, JobTarget::Cpu});
}
/// The text of a CPU job's code (`kind`: Assembly, OptimizedIR or UnoptimizedIR).
inline std::string inspectFunction(const std::shared_ptr<FunctionSource> &source,
                                   const std::vector<const Type *> &argumentTypes,
                                   InspectionKind kind) {
  CompileJob job{source, argumentTypes, nullptr, JobTarget::Cpu};
  job.product = kind;
  return compileFunction(job).text;
}

/// The job hash alone (types the job, lowers nothing).
std::string hashJob(const CompileJob &job);

/// The lock every compilation holds (the library and the JIT are shared by all of them). It is
/// re-entrant (a compilation may start another one on its thread: a callee's overload, a
/// jitclass), and a thread that finds it taken runs the wait hooks around its wait: the
/// bindings release the GIL there, so a thread never waits for this lock while holding the GIL
/// that the lock's holder may need (docs/architecture.md, "Locks").
class CompilerLock {
public:
  CompilerLock() { acquire(); }
  ~CompilerLock() { release(); }
  CompilerLock(const CompilerLock &) = delete;
  CompilerLock &operator=(const CompilerLock &) = delete;

  static void acquire();
  static void release();
  /// `beforeWait` runs before a blocking wait and returns what `afterWait` gets once the lock
  /// is held; both run on the waiting thread.
  using BeforeWait = void *(*)();
  using AfterWait = void (*)(void *);
  static void setWaitHooks(BeforeWait beforeWait, AfterWait afterWait);
};

/// taipan's version, as pyproject.toml gives it (part of every job hash).
const char *taipanVersion();

} // namespace taipan
