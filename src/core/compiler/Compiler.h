// The compiler's entry points for the bindings: compile a FunctionSource for argument types to
// a callable entry point, or to text (LLVM IR, assembly, annotated types). No LLVM types here.
#pragma once

#include "cuda/PtxCompiler.h"
#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace taipan {

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
};

/// A kernel (or device function) compiled to PTX for one argument-type tuple.
struct CompiledKernel {
  std::string ptx;
  std::string name; ///< the entry's symbol in the PTX
  const Type *returnType = nullptr;
  std::string typeAnnotations;
  std::string llvmIR; ///< the optimised LLVM IR, when asked for
};

/// What text to produce instead of code.
enum class InspectionKind { OptimizedIR, UnoptimizedIR, Assembly };

/// Type-checks and compiles `source` for `argumentTypes`; a `declaredReturnType` (from an
/// explicit signature) converts what the function returns. Throws CompileError for bad input.
CompiledFunction compileFunction(const std::shared_ptr<FunctionSource> &source,
                                 const std::vector<const Type *> &argumentTypes,
                                 const Type *declaredReturnType = nullptr);

/// Compiles `source` for the GPU: a kernel (`void`, all arguments in memory form, launched with
/// one pointer per argument) or, with `device`, a device function. `keepIR` also returns the
/// optimised LLVM IR (inspect_llvm).
CompiledKernel compileKernel(const std::shared_ptr<FunctionSource> &source,
                             const std::vector<const Type *> &argumentTypes,
                             const cuda::PtxTarget &target, bool device = false,
                             bool keepIR = false);

/// Compiles again, returning the requested text rather than installing code.
std::string inspectFunction(const std::shared_ptr<FunctionSource> &source,
                            const std::vector<const Type *> &argumentTypes, InspectionKind kind);

} // namespace taipan
