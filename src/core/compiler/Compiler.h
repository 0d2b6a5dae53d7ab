// The compiler's entry points for the bindings: compile jobs (a FunctionSource, argument types
// and a target) to a callable entry point, PTX, or text (LLVM IR, assembly). No LLVM types here.
#pragma once

#include "support/ParallelLoopReport.h"
#include "support/StageTimes.h"
#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace taipan {

/// Where a job's code runs.
enum class JobTarget {
  Cpu,        ///< the host CPU, through the JIT
  CudaKernel, ///< a CUDA kernel, as PTX
  CudaDevice, ///< a CUDA device function compiled on its own (compile_ptx(device=True))
  UfuncLoop,  ///< the host CPU, entered through NumPy's inner-loop signature (@vectorize)
  GufuncLoop, ///< the same for a generalized ufunc (@guvectorize): operands are array views
  Cfunc,      ///< the host CPU, entered through a native C signature (@cfunc)
};

/// One compilation. Its options are the root function's, parsed once when the function was
/// read (FunctionSource::options); callees keep their own for their bodies, while module-wide
/// settings (the pass pipeline, CUDA fastmath, max_registers) follow the root's.
struct CompileJob {
  std::shared_ptr<FunctionSource> source;
  std::vector<const Type *> argumentTypes;
  const Type *declaredReturnType = nullptr; ///< from an explicit signature, or nullptr
  JobTarget target = JobTarget::Cpu;
  int computeCapability = 90; ///< CUDA targets: 90 for sm_90
  /// GufuncLoop: for each operand (inputs, then outputs), the indices of its core dimensions
  /// among the layout's distinct names ("(m,n),(n,p)->(m,p)" gives {0,1}, {1,2}, {0,2}).
  std::vector<std::vector<int>> coreDimensions;
  /// GufuncLoop: the layout's distinct core sizes when the loop is a copy for calls of those
  /// sizes only (runtime/GufuncSpecialization); empty: the loop reads them at run time.
  std::vector<int64_t> coreSizes;
  /// CPU jobs: also return the object code (CompiledFunction::objectCode) for the disk cache
  /// and pickles.
  bool keepObjectCode = false;
  /// A plain CPU job at level 3 without fastmath whose module qualifies (compiler/
  /// TieredCompilation) is compiled at level 0 as a first tier; CompiledFunction::firstTier
  /// says whether it was. The same job without this flag gives the level-3 code.
  bool allowFirstTier = false;

  const CompileOptions &options() const { return source->options; }
};

/// A compiled specialisation, ready to call.
struct CompiledFunction {
  /// Reads each argument through `arguments[i]` (memory form, see Type::storageSize), writes
  /// the result to `result`, returns 0 or, with an exception pending, a non-zero status.
  using EntryPoint = int32_t (*)(void **arguments, void *result);

  EntryPoint entry = nullptr;
  std::vector<const Type *> argumentTypes;
  const Type *returnType = nullptr;
  /// Source lines annotated with the types of the variables assigned on them.
  std::string typeAnnotations;
  /// The job hash (see jobHash): equal in every process for the same code.
  std::string hash;
  /// Where the compilation spent its time, stage by stage.
  StageTimes times;
  /// How each prange loop of a parallel=True function runs (parallel_diagnostics).
  std::vector<ParallelLoopReport> parallelLoops;
  /// With CompileJob::keepObjectCode: the object code and its entry symbol, and why it cannot
  /// be used by another process (empty when it can: no per-process value is built in).
  std::string objectCode;
  std::string entryName;
  std::string processSpecific;
  /// Compiled at level 0 as a first tier (CompileJob::allowFirstTier): the same computation as
  /// the job's level-3 code, slower, for the caller to replace once calls have paid for it.
  bool firstTier = false;
};

/// A kernel (or device function) compiled to PTX for one argument-type tuple.
struct CompiledKernel {
  std::string ptx;
  std::string name; ///< the entry's symbol in the PTX
  const Type *returnType = nullptr;
  std::string typeAnnotations;
  std::string llvmIR; ///< the optimised LLVM IR, when asked for
  std::string hash;   ///< the job hash
  StageTimes times;   ///< where the compilation spent its time
  /// Why the PTX holds values of this process only (a user exception's id), or empty: such
  /// kernels are not written to the disk cache nor carried by pickles.
  std::string processSpecific;
};

/// What text to produce instead of code.
enum class InspectionKind { OptimizedIR, UnoptimizedIR, Assembly };

/// Type-checks and compiles a CPU job (JobTarget::Cpu, or UfuncLoop and GufuncLoop, whose
/// `entry` is then a NumPy inner loop, runtime::UfuncLoop). Throws CompileError for bad input.
CompiledFunction compileFunction(const CompileJob &job);

/// Compiles several CPU jobs at once: typed and lowered in order, then optimised and turned into
/// object code on up to one thread per core, then loaded. What one call of compileFunction per
/// job would give (each keeps its object code only when its job asks), in less time.
std::vector<CompiledFunction> compileFunctions(const std::vector<CompileJob> &jobs);

/// Compiles a CUDA job to PTX: a kernel (`void`, all arguments in memory form, launched with
/// one pointer per argument) or a device function. `keepIR` also returns the optimised LLVM IR
/// (inspect_llvm).
CompiledKernel compileKernel(const CompileJob &job, bool keepIR = false);

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

/// Compiles a CPU job again, returning the requested text rather than installing code.
std::string inspectFunction(const CompileJob &job, InspectionKind kind);

/// A CPU job for `source` (the form the C++ tests use).
inline CompiledFunction compileFunction(const std::shared_ptr<FunctionSource> &source,
                                        const std::vector<const Type *> &argumentTypes,
                                        const Type *declaredReturnType = nullptr) {
  return compileFunction(CompileJob{source, argumentTypes, declaredReturnType, JobTarget::Cpu});
}
inline std::string inspectFunction(const std::shared_ptr<FunctionSource> &source,
                                   const std::vector<const Type *> &argumentTypes,
                                   InspectionKind kind) {
  return inspectFunction(CompileJob{source, argumentTypes, nullptr, JobTarget::Cpu}, kind);
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
