// Lowering of typed functions to LLVM IR. ModuleLowering owns the module-wide pieces (function
// declarations, string constants); FunctionLowering emits one function body.
#pragma once

#include "lower/LowerTypes.h"
#include "typing/TypeInference.h"

#include <llvm/IR/Module.h>

#include <map>
#include <string>
#include <unordered_map>

namespace taipan {

/// Builds the LLVM module for one compilation: every TypedFunction it reaches, plus the entry
/// wrapper the dispatcher calls.
///
/// Calling convention of a compiled function: `i32 f(ptr result, args...)`. The status is 0 on
/// success; otherwise an exception is pending in the runtime and the caller returns the status.
class ModuleLowering {
public:
  explicit ModuleLowering(llvm::Module &module);

  /// Declares (once) the LLVM function for a typed function.
  llvm::Function *declare(TypedFunction &function);
  /// Emits the body of a declared function.
  void define(TypedFunction &function);
  /// Emits `i32 name(ptr arguments, ptr result)`, reading each argument through a pointer in
  /// the `arguments` array: the one entry point the dispatcher calls.
  llvm::Function *defineEntryWrapper(TypedFunction &function, const std::string &name);

  /// A private global holding a NUL-terminated string.
  llvm::Constant *stringConstant(const std::string &text);
  /// Declares a runtime or libm function by name.
  llvm::FunctionCallee runtimeFunction(const std::string &name, llvm::Type *result,
                                       llvm::ArrayRef<llvm::Type *> parameters);

  llvm::Module &module;
  llvm::LLVMContext &context;

private:
  std::unordered_map<TypedFunction *, llvm::Function *> functions;
  std::map<std::string, llvm::Constant *> strings;
};

/// Emits the body of one function. Statements are in FunctionLowering.cpp, operators and
/// conversions in LowerArithmetic.cpp, calls of builtins in LowerBuiltins.cpp.
class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &module, TypedFunction &function, llvm::Function *target);
  void lower();

private:
  struct LoopTargets {
    llvm::BasicBlock *continueTarget;
    llvm::BasicBlock *breakTarget;
  };

  ModuleLowering &moduleLowering;
  TypedFunction &function;
  const CompileOptions &options;
  llvm::Function *target;
  llvm::LLVMContext &context;
  llvm::IRBuilder<> builder;
  std::unordered_map<std::string, llvm::AllocaInst *> variables;
  std::vector<LoopTargets> loops;
  std::map<std::pair<int, std::string>, llvm::BasicBlock *> raiseBlocks;

  // Statements and control flow.
  void lowerBlock(const std::vector<Stmt *> &block);
  void lowerStatement(Stmt *stmt);
  void lowerAssign(Expr *target, llvm::Value *value, const Type *valueType);
  void lowerIf(Stmt *stmt);
  void lowerWhile(Stmt *stmt);
  void lowerFor(Stmt *stmt);
  void lowerRaise(Stmt *stmt);
  void lowerAssert(Stmt *stmt);
  void lowerReturn(llvm::Value *value, const Type *type);
  llvm::BasicBlock *newBlock(const char *name);
  /// Starts a fresh block when the current one already ends in a terminator.
  void ensureOpenBlock();
  llvm::AllocaInst *createEntryAlloca(llvm::Type *type, const std::string &name);
  llvm::AllocaInst *variable(const std::string &name);

  // Expressions (LowerArithmetic.cpp).
  const Type *typeOf(const Expr *expr) const { return function.typeOf(expr); }
  llvm::Value *lowerExpr(Expr *expr);
  llvm::Value *lowerExprAs(Expr *expr, const Type *type);
  llvm::Value *lowerConstant(const Constant &constant, const Type *type);
  llvm::Value *lowerBinary(BinaryOp op, llvm::Value *left, const Type *leftType, llvm::Value *right,
                           const Type *rightType, const Type *resultType);
  llvm::Value *lowerIntegerBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type, bool checkZero = true);
  llvm::Value *lowerFloatBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                const Type *type);
  llvm::Value *lowerComplexBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type);
  llvm::Value *lowerIntegerPower(llvm::Value *base, llvm::Value *exponent, const Type *type);
  llvm::Value *lowerUnary(Expr *expr);
  llvm::Value *lowerCompareChain(Expr *expr);
  llvm::Value *lowerTupleComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                    llvm::Value *right, const Type *rightType);
  llvm::Value *lowerComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                               llvm::Value *right, const Type *rightType);
  llvm::Value *lowerBoolOp(Expr *expr);
  llvm::Value *lowerIfExp(Expr *expr);
  llvm::Value *lowerSubscript(Expr *expr);
  llvm::Value *lowerAttribute(Expr *expr);
  llvm::Value *lowerTuple(const std::vector<llvm::Value *> &elements, const Type *type);
  llvm::Value *tupleElement(llvm::Value *tuple, const Type *tupleType, unsigned index);
  llvm::Value *castValue(llvm::Value *value, const Type *from, const Type *to);
  llvm::Value *truthValue(llvm::Value *value, const Type *type);
  llvm::Value *complexParts(llvm::Value *value, llvm::Value *&imag);
  llvm::Value *makeComplex(llvm::Value *real, llvm::Value *imag, const Type *type);
  /// Raises `exceptionId` when `condition` is true, continuing in a new block otherwise.
  void raiseIf(llvm::Value *condition, int exceptionId, const std::string &message);
  void emitRaise(int exceptionId, const std::string &message);
  void emitZeroDivisionCheck(llvm::Value *divisor, const Type *type, const char *message);
  void applyFastMath();

  // Calls (LowerBuiltins.cpp).
  llvm::Value *lowerCall(Expr *expr);
  llvm::Value *lowerJitCall(Expr *expr, const CallBinding &binding);
  llvm::Value *lowerBuiltinCall(const std::string &name, Expr *expr,
                                const std::vector<Expr *> &arguments);
  llvm::Value *lowerMathCall(const std::string &name, const std::vector<llvm::Value *> &arguments,
                             const std::vector<const Type *> &argumentTypes, const Type *result);
  llvm::Value *lowerCmathCall(const std::string &name, const std::vector<llvm::Value *> &arguments,
                              const std::vector<const Type *> &argumentTypes, const Type *result);
  llvm::Value *lowerRandomCall(const std::string &name, const std::vector<llvm::Value *> &arguments,
                               const std::vector<const Type *> &argumentTypes);
  llvm::Value *lowerMinMax(bool isMax, std::vector<llvm::Value *> values,
                           std::vector<const Type *> types, const Type *result);
  llvm::Value *lowerRound(llvm::Value *value, const Type *type, llvm::Value *digits,
                          const Type *result);
  llvm::Value *lowerRandomWord(llvm::Value *state);
  llvm::Value *lowerRandomDouble();
  llvm::Value *lowerModularPower(llvm::Value *base, llvm::Value *exponent, llvm::Value *modulus);
  void lowerPrint(const std::vector<Expr *> &arguments);
  void printText(const std::string &text);
  void printValue(llvm::Value *value, const Type *type);
  llvm::Value *callLibm(const std::string &name, llvm::ArrayRef<llvm::Value *> arguments,
                        const Type *floatType);
  llvm::Value *callIntrinsic(llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> arguments);
  std::string exceptionMessage(Expr *raised);
};

} // namespace taipan
