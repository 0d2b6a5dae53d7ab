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

namespace {

/// Walks a function's statements and expressions: the reads of one name, and whether it is
/// bound anywhere.
struct NameUses {
  const std::string &name;
  std::vector<Expr *> reads;
  bool assigned = false;

  void target(Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name) {
      assigned |= expr->name == name;
      return;
    }
    if (expr->kind == ExprKind::Tuple || expr->kind == ExprKind::List) {
      for (Expr *element : expr->operands)
        target(element);
      return;
    }
    visit(expr); // a subscript or an attribute: it reads its base
  }

  void visit(Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name && expr->name == name)
      reads.push_back(expr);
    for (Expr *operand : expr->operands)
      visit(operand);
    for (Stmt *stmt : expr->statements)
      visit(stmt);
  }

  void visit(Stmt *stmt) {
    if (stmt->kind == StmtKind::Assign || stmt->kind == StmtKind::AugAssign ||
        stmt->kind == StmtKind::For) {
      for (Expr *expr : stmt->targets)
        target(expr);
      if (stmt->kind == StmtKind::AugAssign)
        for (Expr *expr : stmt->targets)
          visit(expr);
    }
    visit(stmt->value);
    visit(stmt->test);
    visit(stmt->message);
    for (Stmt *inner : stmt->body)
      visit(inner);
    for (Stmt *inner : stmt->orelse)
      visit(inner);
    for (ExceptHandler &handler : stmt->handlers) {
      assigned |= handler.name == name;
      visit(handler.type);
      for (Stmt *inner : handler.body)
        visit(inner);
    }
    for (Stmt *inner : stmt->finalbody)
      visit(inner);
  }
};

/// The index of parameter `name` of `source`, when it is an ordinary one never assigned.
std::optional<size_t> unassignedParameter(const FunctionSource &source, const std::string &name) {
  for (size_t i = 0; i < source.parameters.size(); ++i) {
    const Parameter &parameter = source.parameters[i];
    if (parameter.name != name || parameter.isStar)
      continue;
    bool assigned = false;
    readsOfName(source, name, assigned);
    if (assigned)
      return std::nullopt;
    return i;
  }
  return std::nullopt;
}

} // namespace

std::vector<Expr *> readsOfName(const FunctionSource &source, const std::string &name,
                                bool &assigned) {
  NameUses uses{name, {}, false};
  for (Stmt *stmt : source.body)
    uses.visit(stmt);
  assigned = uses.assigned;
  return uses.reads;
}

std::vector<size_t> constantParameterReads(const Expr *expr, const FunctionSource &source,
                                           const std::unordered_map<int, GlobalValue> &globals) {
  std::vector<const Expr *> parts = {expr};
  if (expr->kind == ExprKind::Tuple)
    parts.assign(expr->operands.begin(), expr->operands.end());
  std::vector<size_t> parameters;
  for (const Expr *part : parts) {
    if (constantInteger(part, globals))
      continue;
    std::optional<size_t> parameter;
    if (part->kind == ExprKind::Name)
      parameter = unassignedParameter(source, part->name);
    if (!parameter)
      return {};
    parameters.push_back(*parameter);
  }
  return parameters;
}

} // namespace taipan
