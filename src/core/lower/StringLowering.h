// Lowering of strings (unicode_type) through the string runtime: literals, operators,
// comparisons, indexing, parsing, and print()'s text and values.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Strings (LowerStrings.cpp): literals as constant blocks that are never freed, and
/// the operators, comparisons, indexing and iteration typing gave string types. Holds a reference
/// to the core (FunctionLowering), whose state and exits it uses.
class StringLowering : LoweringRoom {
public:
  explicit StringLowering(FunctionLowering &core);

  /// The string value of a literal: a block in the module's data whose reference count never
  /// reaches zero, so it is borrowed like a variable and never allocated or freed.
  llvm::Value *lowerStringLiteral(const std::string &text);
  /// `value` of `type` (a literal or a string value) as a string value (borrowed).
  llvm::Value *asStringValue(llvm::Value *value, const Type *type);
  /// The number of code points of a string value.
  llvm::Value *stringLength(llvm::Value *string);
  /// Calls string runtime function `name` returning a new string (null: its exception is
  /// pending and the function exits); the result is a statement temporary.
  llvm::Value *callStringFunction(const char *name, llvm::ArrayRef<llvm::Value *> arguments);
  /// Calls a runtime function of the string runtime returning `result`.
  llvm::Value *callStringRuntime(const char *name, llvm::Type *result,
                                 llvm::ArrayRef<llvm::Value *> arguments);
  /// Throws UnsupportedError at `location` when lowering for the GPU: strings live on the host.
  void requireHostForStrings(SourceLocation location);

  llvm::Value *lowerStringBinary(BinaryOp op, llvm::Value *left, const Type *leftType,
                                 llvm::Value *right, const Type *rightType);
  llvm::Value *lowerStringComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                     llvm::Value *right, const Type *rightType);
  /// `s[i]` or `s[a:b:c]`.
  llvm::Value *lowerStringSubscript(Expr *expr);
  /// int(s), float(s) or bool(s) of a string (`target` int64, float64 or bool); ValueError for
  /// text that is not a number.
  llvm::Value *parseString(llvm::Value *value, const Type *type, const Type *target);
  /// Item `index` (in range) of a string: a one-character string (a temporary).
  llvm::Value *stringItem(llvm::Value *string, llvm::Value *index);
  /// Prints constant text, or a value as repr() does, through the runtime (CPU targets).
  void printText(const std::string &text);
  void printValue(llvm::Value *value, const Type *type);
};

} // namespace taipan
