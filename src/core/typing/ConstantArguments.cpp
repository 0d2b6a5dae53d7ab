// Constant integer expressions, evaluated while typing: literals, frozen globals and integer
// arithmetic on them.
#include "typing/ConstantArguments.h"

namespace taipan {
namespace {

/// Python's floor division of integers (the divisor is not zero).
int64_t floorDivide(int64_t left, int64_t right) {
  return left / right - ((left % right != 0) && ((left < 0) != (right < 0)));
}

/// One constant integer: a literal, a global frozen as an integer, or arithmetic on them.
std::optional<int64_t> constantInteger(const Expr *expr,
                                       const std::unordered_map<int, GlobalValue> &globals) {
  if (expr->kind == ExprKind::BinOp) {
    std::optional<int64_t> left = constantInteger(expr->operands[0], globals);
    std::optional<int64_t> right = constantInteger(expr->operands[1], globals);
    if (!left || !right)
      return std::nullopt;
    switch (expr->binaryOp) {
    case BinaryOp::Add:
      return *left + *right;
    case BinaryOp::Sub:
      return *left - *right;
    case BinaryOp::Mult:
      return *left * *right;
    case BinaryOp::FloorDiv:
      if (*right == 0)
        return std::nullopt;
      return floorDivide(*left, *right);
    default:
      return std::nullopt;
    }
  }
  const Constant *constant = nullptr;
  auto global = globals.find(expr->id);
  if (expr->kind == ExprKind::Constant)
    constant = &expr->constant;
  else if (global != globals.end() && global->second.kind == GlobalValue::Kind::Constant)
    constant = &global->second.constant;
  if (!constant || constant->kind != Constant::Kind::Int)
    return std::nullopt;
  return constant->intValue;
}

} // namespace

std::optional<std::vector<int64_t>>
constantIntegers(const Expr *expr, const std::unordered_map<int, GlobalValue> &globals) {
  if (std::optional<int64_t> value = constantInteger(expr, globals))
    return std::vector<int64_t>{*value};
  std::vector<int64_t> values;
  if (expr->kind == ExprKind::Tuple) {
    for (const Expr *element : expr->operands) {
      std::optional<int64_t> value = constantInteger(element, globals);
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    }
    return values;
  }
  auto global = globals.find(expr->id);
  if (global != globals.end() && global->second.kind == GlobalValue::Kind::ConstantTuple) {
    for (const Constant &item : global->second.items) {
      if (item.kind != Constant::Kind::Int)
        return std::nullopt;
      values.push_back(item.intValue);
    }
    return values;
  }
  return std::nullopt;
}

} // namespace taipan
