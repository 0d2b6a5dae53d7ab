// Constant integer expressions, evaluated while typing: literals, frozen globals and integer
// arithmetic on them.
#include "typing/ConstantArguments.h"

#include "runtime/SliceBounds.h"

namespace taipan {
namespace {

/// Python's floor division of integers (the divisor is not zero).
int64_t floorDivide(int64_t left, int64_t right) {
  return left / right - ((left % right != 0) && ((left < 0) != (right < 0)));
}

/// One constant integer: a literal, a global frozen as an integer, or arithmetic (+ - * //,
/// unary - and +) on them.
std::optional<int64_t> constantInteger(const Expr *expr,
                                       const std::unordered_map<int, GlobalValue> &globals) {
  if (expr->kind == ExprKind::UnaryOp &&
      (expr->unaryOp == UnaryOp::Neg || expr->unaryOp == UnaryOp::Pos)) {
    std::optional<int64_t> operand = constantInteger(expr->operands[0], globals);
    if (operand && expr->unaryOp == UnaryOp::Neg)
      return -*operand;
    return operand;
  }
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

std::optional<int64_t> constantTupleIndex(const Expr *index,
                                          const std::unordered_map<int, GlobalValue> &globals) {
  return constantInteger(index, globals);
}

bool constantTupleSlice(const Expr *slice, int64_t length,
                        const std::unordered_map<int, GlobalValue> &globals,
                        std::vector<int64_t> &positions) {
  if (slice->kind != ExprKind::Slice)
    return false;
  int64_t parts[3] = {0, 0, 1};
  bool present[3] = {false, false, false};
  for (int i = 0; i < 3; ++i) {
    const Expr *part = slice->operands[i];
    if (!part || (part->kind == ExprKind::Constant && part->constant.kind == Constant::Kind::None))
      continue;
    std::optional<int64_t> value = constantInteger(part, globals);
    if (!value)
      return false;
    parts[i] = *value;
    present[i] = true;
  }
  if (parts[2] == 0)
    return false;
  int64_t start = parts[0], stop = parts[1], step = parts[2];
  runtime::adjustSliceBounds(start, present[0], stop, present[1], length, step);
  positions.clear();
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
    positions.push_back(i);
  return true;
}

} // namespace taipan
