// ModuleLowering: the module-wide pieces of lowering one compilation (function declarations,
// string constants, runtime declarations, line information).
#pragma once

#include "support/ParallelLoopReport.h"
#include "target/Target.h"
#include "typing/TypeInference.h"

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace taipan {

/// Builds the LLVM module for one compilation: every TypedFunction it reaches (the target adds
/// the entry point). Where code differs between targets, lowering asks `target`.
///
/// Calling convention of a compiled function: `i32 f(ptr result, args...)`. The status is 0 on
/// success; otherwise an exception is pending in the runtime and the caller returns the status.
class ModuleLowering {
public:
  ModuleLowering(llvm::Module &module, const Target &target);

  /// Declares (once) the LLVM function for a typed function.
  llvm::Function *declare(TypedFunction &function);
  /// Emits the body of a declared function.
  void define(TypedFunction &function);

  /// A private global holding a NUL-terminated string.
  llvm::Constant *stringConstant(const std::string &text);
  /// Declares a runtime or libm function by name.
  llvm::FunctionCallee runtimeFunction(const std::string &name, llvm::Type *result,
                                       llvm::ArrayRef<llvm::Type *> parameters);

  /// The subprogram a function's line information hangs on, when it asked for lines.
  llvm::DISubprogram *debugScope(TypedFunction &function, llvm::Function *target);
  /// With debug=True, describes a variable's slot for debuggers: a DILocalVariable (a
  /// parameter's numbered from 1, as `argument`; 0 for a local) of `type`'s debug type, declared
  /// on the slot (llvm.dbg.declare) at `line`. No-op without full debug information.
  void describeVariable(llvm::DISubprogram *scope, llvm::AllocaInst *slot, const std::string &name,
                        unsigned argument, const Type *type, unsigned line);
  /// Gives an entry or kernel wrapper line information when its callee has some.
  void describeWrapper(llvm::Function *wrapper, llvm::Function *callee, llvm::IRBuilder<> &builder);
  /// Finishes line information (no-op when no function asked for it).
  void finishDebugInfo();

  llvm::Module &module;
  llvm::LLVMContext &context;
  const Target &target;
  /// How each prange loop lowered so far runs (parallel_diagnostics).
  std::vector<ParallelLoopReport> parallelLoops;
  /// Why the code holds values valid in this process only (an objmode block, a jitclass, an
  /// exception class or ctypes function that no load-time symbol names), so no other process
  /// may load it; empty when it holds none.
  std::string processSpecific;

private:
  std::unordered_map<TypedFunction *, llvm::Function *> functions;
  std::map<std::string, llvm::Constant *> strings;
  std::unique_ptr<llvm::DIBuilder> debugBuilder;
  llvm::DICompileUnit *compileUnit = nullptr;
  /// The debug type of each type a variable or parameter has (debugType).
  std::unordered_map<const Type *, llvm::DIType *> debugTypes;
  /// A value of `type` as debuggers see it: numbers as DWARF base types named as Numba names
  /// them (bool is DW_ATE_boolean, int32 DW_ATE_signed...), other values as a structure of
  /// their size named by the type.
  llvm::DIType *debugType(const Type *type);
};

} // namespace taipan
