// The interface every code generation target implements (the CPU JIT, CUDA): module set-up,
// the questions lowering asks, the entry point, the math library and code generation.
#pragma once

#include "support/StageTimes.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace taipan {

class ModuleLowering;
class Type;
struct TypedFunction;

/// The attribute lowering gives declarations of foreign functions (cuda.declare_device): they
/// are neither the math library's nor taipan's runtime's, and stay external for the linker.
inline constexpr const char *ForeignFunctionAttribute = "taipan-foreign";

/// Where a job's code runs and how it gets there. Typing is target-neutral; from lowering on,
/// every difference between targets is a question asked of this interface, by what it decides
/// (never "is this CUDA"), so a new target implements these methods and touches no other one.
///
/// A job uses its target in this order: prepareModule, checkEntry, lowering (which asks the
/// questions below), defineEntry, finalizeModule, optimize, then the target's own way of
/// delivering code (emitAssembly for text; CpuTarget::install for the JIT).
class Target {
public:
  virtual ~Target() = default;

  /// What besides the functions decides this target's code (its triple, CPU and features, or
  /// compute capability), for the job hash.
  virtual std::vector<std::string> identity() const = 0;
  /// Sets an empty module's triple and data layout; call before lowering into it.
  virtual void prepareModule(llvm::Module &module) const = 0;

  // Questions lowering asks.

  /// Whether code runs as a grid of GPU threads, so that thread and block indices, barriers,
  /// warp operations, atomics and shared memory (the cuda.* builtins) exist.
  virtual bool hasThreadHierarchy() const = 0;
  /// Whether prange loops of parallel=True functions can run on the host's thread pool (the
  /// runtime's taipan_parallel_for); elsewhere they run as range loops.
  virtual bool hasThreadPool() const = 0;
  /// Whether calls of foreign device functions (cuda.declare_device) can be linked.
  virtual bool canCallForeignFunctions() const = 0;
  /// Whether code may name the values each process has its own of (a user exception class's
  /// registry id, a ctypes function's address) by load-time symbols (runtime/LoadTimeSymbols),
  /// which the loader resolves in each process; elsewhere such code bakes the values in and is
  /// marked process-specific (never cached nor sent to another process).
  virtual bool resolvesSymbolsAtLoad() const = 0;
  /// Whether print() formats on the device with vprintf, rather than through the runtime's
  /// print functions (which write to sys.stdout).
  virtual bool printsThroughDevicePrintf() const = 0;
  /// Whether exception messages can hold values known only at run time (formatted by the
  /// runtime's print functions); a GPU's device runtime keeps constant messages only.
  virtual bool formatsMessagesAtRunTime() const = 0;
  /// The DWARF version of line tables (NVPTX's tools read version 2 only).
  virtual unsigned dwarfVersion() const = 0;
  /// Whether code may allocate arrays at run time (the runtime's allocator); GPU code cannot,
  /// so lowering takes another way where a temporary array would be needed (or refuses).
  virtual bool allocatesArrays() const { return true; }
  /// Whether code runs where device memory is addressed, so a captured device array (a global
  /// exporting __cuda_array_interface__) can be read and written in place.
  virtual bool addressesDeviceMemory() const { return false; }

  // The entry point.

  /// Refuses a root function the entry point cannot wrap (a kernel returning a value), before
  /// anything is lowered. Throws CompileError.
  virtual void checkEntry(const TypedFunction &root) const = 0;
  /// Argument types the entry point may call the root's function with instead of the root's
  /// own, each typed and lowered beside the root as a copy of it (GufuncLoopTarget: all array
  /// operands 'C', then all 'A', for the loop to choose by the strides at run time); a list
  /// equal to the root's types gives the root itself. None by default.
  virtual std::vector<std::vector<const Type *>> entryVariants(const TypedFunction &root) const {
    (void)root;
    return {};
  }
  /// Emits the entry point through which the job's root is called (after every function is
  /// lowered) and returns its symbol. `variants`: the root's copies typed for entryVariants, in
  /// its order (a variant that did not type is null).
  virtual std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                  const std::vector<TypedFunction *> &variants) const = 0;

  // Code generation.

  /// The symbol that calls of the C math library function `libmName` (sin, expf) become on
  /// this target, or "" when it has none.
  virtual std::string mathFunctionName(const std::string &libmName) const = 0;
  /// Completes a lowered module for optimisation: entry points marked, runtime functions
  /// defined or resolved, the math library mapped and linked. Throws CompileError for code the
  /// target cannot run.
  virtual void finalizeModule(llvm::Module &module, const std::string &entryName) const = 0;
  /// Runs the optimisation pipeline (target/PassPipeline) with this target's tuning, timing
  /// its pass groups into `times` when given.
  virtual void optimize(llvm::Module &module, StageTimes *times) const = 0;
  /// The target's assembly for an optimised module (host assembly, PTX).
  virtual std::string emitAssembly(llvm::Module &module) const = 0;
};

} // namespace taipan
