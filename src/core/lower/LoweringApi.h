// The lowering interface library entries (src/core/library/) write their calls with: the values,
// blocks, temporaries and exits of the function being lowered, and the rooms beside it.
#pragma once

#include "lower/LowerTypes.h"
#include "registry/Library.h"
#include "typing/TypeInference.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include <string>
#include <vector>

namespace taipan {

class ModuleLowering;
class ArrayLowering;
class ContainerLowering;
class StringLowering;
class ExceptionLowering;
class LoopLowering;
class GeneratorLowering;
class OperatorLowering;

/// What a library entry's lowering (LibraryLowerRule) sees of the function being lowered: the
/// builder, values and conversions, blocks, temporaries and exits of the core
/// (FunctionLowering implements it), and the rooms for arrays, containers, strings, exceptions,
/// loops, generators and operators, whose headers an entry includes as it needs them.
class LoweringApi {
public:
  virtual ~LoweringApi() = default;

  /// The rooms beside the core.
  virtual ArrayLowering &arrays() = 0;
  virtual ContainerLowering &containers() = 0;
  virtual StringLowering &strings() = 0;
  virtual ExceptionLowering &exceptions() = 0;
  virtual LoopLowering &loops() = 0;
  virtual GeneratorLowering &generators() = 0;
  virtual OperatorLowering &operators() = 0;

  /// The builder, positioned where the call being lowered goes.
  virtual llvm::IRBuilder<> &irBuilder() = 0;
  virtual llvm::LLVMContext &llvmContext() = 0;
  /// The module-wide pieces: runtime declarations, string constants, the target.
  virtual ModuleLowering &module() = 0;
  /// Makes arithmetic follow NumPy (division by zero gives inf or nan, as in an array
  /// expression's loop) or not; returns the previous setting, to restore.
  virtual bool useNumpyArithmetic(bool on) = 0;
  /// A new block at the end of the function (the builder stays where it is).
  virtual llvm::BasicBlock *newBlock(const char *name) = 0;
  /// A stack slot in the entry block, which SROA turns into registers.
  virtual llvm::AllocaInst *createEntryAlloca(llvm::Type *type, const std::string &name) = 0;
  /// The type typing gave `expr`.
  virtual const Type *typeOf(const Expr *expr) const = 0;
  /// The value of an expression, of its type (typeOf); `lowerExprAs` converts it to `type`.
  virtual llvm::Value *lowerExpr(Expr *expr) = 0;
  virtual llvm::Value *lowerExprAs(Expr *expr, const Type *type) = 0;
  /// A tuple value of `type` from its elements, and element `index` of one.
  virtual llvm::Value *lowerTuple(const std::vector<llvm::Value *> &elements, const Type *type) = 0;
  virtual llvm::Value *tupleElement(llvm::Value *tuple, const Type *tupleType, unsigned index) = 0;
  /// `value` of type `from` converted to `to` (numbers, optionals, containers, tuples).
  virtual llvm::Value *castValue(llvm::Value *value, const Type *from, const Type *to) = 0;
  /// Python's truth of a value (an i1).
  virtual llvm::Value *truthValue(llvm::Value *value, const Type *type) = 0;
  /// Leaves the function through the unwind block with `status` (0: returning normally).
  virtual void exitFunction(llvm::Value *status) = 0;
  /// Leaves through the unwind block with `status` when `condition` holds (the exception is
  /// already pending: a callee's status, a failed allocation), continuing in a new block.
  virtual void exitIf(llvm::Value *condition, llvm::Value *status) = 0;
  /// Takes or drops a reference to every memory block `value` holds.
  virtual void incref(llvm::Value *value, const Type *type) = 0;
  virtual void decref(llvm::Value *value, const Type *type) = 0;
  /// Makes a new value the current statement's to release unless someone takes it over.
  virtual void addTemporary(llvm::Value *value, const Type *type) = 0;
  /// The value as a reference its holder owns: a temporary is taken over, anything else is
  /// borrowed and gets a new reference.
  virtual llvm::Value *takeOwnership(llvm::Value *value, const Type *type) = 0;
  /// Leaves through the unwind block when a runtime call's status is not 0.
  virtual void exitUnlessZero(llvm::Value *status) = 0;
  /// Calls a typed function with `arguments` (of its argument types); its error propagates.
  /// The result (of its return type) is a temporary when it holds arrays.
  virtual llvm::Value *callTypedFunction(TypedFunction &callee,
                                         const std::vector<llvm::Value *> &arguments) = 0;
  /// Calls libm's `name` (its float or double form by `floatType`), or an LLVM intrinsic.
  virtual llvm::Value *callLibm(const std::string &name, llvm::ArrayRef<llvm::Value *> arguments,
                                const Type *floatType) = 0;
  virtual llvm::Value *callIntrinsic(llvm::Intrinsic::ID id,
                                     llvm::ArrayRef<llvm::Value *> arguments) = 0;

protected:
  LoweringApi() = default;
  LoweringApi(const LoweringApi &) = delete;
  LoweringApi &operator=(const LoweringApi &) = delete;
};

} // namespace taipan
