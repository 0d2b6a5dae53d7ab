// Lowering of strings (unicode_type): literals as constant blocks, and the operators,
// comparisons, indexing and iteration typing gave string types, through the string runtime.
#pragma once

#include "lower/FunctionLowering.h"

namespace taipan {

/// The string value of a literal: a block in the module's data whose reference count never
/// reaches zero, so it is borrowed like a variable and never allocated or freed.
llvm::Value *lowerStringLiteral(FunctionLowering &lowering, const std::string &text);
/// `value` of `type` (a literal or a string value) as a string value (borrowed).
llvm::Value *asStringValue(FunctionLowering &lowering, llvm::Value *value, const Type *type);
/// The number of code points of a string value.
llvm::Value *stringLength(FunctionLowering &lowering, llvm::Value *string);
/// Calls string runtime function `name` returning a new string (null: its exception is
/// pending and the function exits); the result is a statement temporary.
llvm::Value *callStringFunction(FunctionLowering &lowering, const char *name,
                                llvm::ArrayRef<llvm::Value *> arguments);
/// Calls a runtime function of the string runtime returning `result`.
llvm::Value *callStringRuntime(FunctionLowering &lowering, const char *name, llvm::Type *result,
                               llvm::ArrayRef<llvm::Value *> arguments);
/// Throws UnsupportedError at `location` when lowering for the GPU: strings live on the host.
void requireHostForStrings(FunctionLowering &lowering, SourceLocation location);

llvm::Value *lowerStringBinary(FunctionLowering &lowering, BinaryOp op, llvm::Value *left,
                               const Type *leftType, llvm::Value *right, const Type *rightType);
llvm::Value *lowerStringComparison(FunctionLowering &lowering, CompareOp op, llvm::Value *left,
                                   const Type *leftType, llvm::Value *right, const Type *rightType);
/// `s[i]` or `s[a:b:c]`.
llvm::Value *lowerStringSubscript(FunctionLowering &lowering, Expr *expr);
/// int(s), float(s) or bool(s) of a string (`target` int64, float64 or bool); ValueError for
/// text that is not a number.
llvm::Value *parseString(FunctionLowering &lowering, llvm::Value *value, const Type *type,
                         const Type *target);
/// Item `index` (in range) of a string: a one-character string (a temporary).
llvm::Value *stringItem(FunctionLowering &lowering, llvm::Value *string, llvm::Value *index);

} // namespace taipan
