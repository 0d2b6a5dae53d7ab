// Typing of string operators, comparisons and indexing.
#include "typing/StringTyping.h"

#include "support/CompileError.h"
#include "typing/ArrayTyping.h"

namespace taipan {

const Type *stringBinaryResultType(BinaryOp op, const Type *left, const Type *right,
                                   SourceLocation location) {
  if (!left->isString() && !right->isString())
    return nullptr;
  if (op == BinaryOp::Add && left->isString() && right->isString())
    return types::unicode();
  if (op == BinaryOp::Mult && ((left->isString() && right->isIntegerLike()) ||
                               (right->isString() && left->isIntegerLike())))
    return types::unicode();
  throwTypingError(std::string("unsupported operand types for ") + binaryOpSymbol(op) + ": " +
                       (left->isString() ? "unicode_type" : left->name()) + " and " +
                       (right->isString() ? "unicode_type" : right->name()),
                   location);
}

bool isStringComparison(CompareOp op, const Type *left, const Type *right) {
  return op != CompareOp::Is && op != CompareOp::IsNot && left->isString() && right->isString();
}

const Type *stringIndexResultType(const Type *index, SourceLocation location) {
  if (index != sliceType() && index->kind() != TypeKind::Slice && !index->isIntegerLike())
    throwTypingError("string indices must be integers or slices, not " + index->name(), location);
  return types::unicode();
}

} // namespace taipan
