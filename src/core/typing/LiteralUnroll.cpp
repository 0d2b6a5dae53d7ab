// `for x in literal_unroll(t)` and the constant strings it keeps literal: which calls are
// literal_unroll, and the string values known while compiling (tuple items, field names).
#include "typing/LiteralUnroll.h"

#include "syntax/VariableVersions.h"
#include "typing/ConstantArguments.h"

#include <functional>

namespace taipan {
namespace {

/// Deep enough for any chain of names a program writes; stops a self-referring assignment.
constexpr int maxDepth = 16;

std::optional<std::string> stringOf(const Expr *expr, const ConstantStringContext &context,
                                    int depth);

std::optional<std::vector<std::optional<std::string>>>
tupleStringsOf(const Expr *expr, const ConstantStringContext &context, int depth) {
  if (depth > maxDepth)
    return std::nullopt;
  if (expr->kind == ExprKind::Tuple) {
    std::vector<std::optional<std::string>> items;
    for (const Expr *operand : expr->operands)
      items.push_back(stringOf(operand, context, depth + 1));
    return items;
  }
  if (expr->kind != ExprKind::Name)
    return std::nullopt;
  auto global = context.globals.find(expr->id);
  if (global != context.globals.end()) {
    if (global->second.kind != GlobalValue::Kind::ConstantTuple)
      return std::nullopt;
    std::vector<std::optional<std::string>> items;
    for (const Constant &item : global->second.items)
      items.push_back(item.kind == Constant::Kind::String ? std::optional(item.text)
                                                          : std::nullopt);
    return items;
  }
  auto assigned = context.assignments.find(expr->name);
  if (assigned == context.assignments.end() || !assigned->second)
    return std::nullopt;
  return tupleStringsOf(assigned->second, context, depth + 1);
}

std::optional<std::string> stringOf(const Expr *expr, const ConstantStringContext &context,
                                    int depth) {
  if (depth > maxDepth)
    return std::nullopt;
  if (static_cast<size_t>(expr->id) < context.expressionTypes.size()) {
    const Type *type = context.expressionTypes[expr->id];
    if (type && type->kind() == TypeKind::StringLiteral)
      return type->text();
  }
  switch (expr->kind) {
  case ExprKind::Constant:
    if (expr->constant.kind == Constant::Kind::String)
      return expr->constant.text;
    return std::nullopt;
  case ExprKind::Name: {
    auto global = context.globals.find(expr->id);
    if (global != context.globals.end()) {
      if (global->second.kind == GlobalValue::Kind::Constant &&
          global->second.constant.kind == Constant::Kind::String)
        return global->second.constant.text;
      return std::nullopt;
    }
    auto assigned = context.assignments.find(expr->name);
    if (assigned == context.assignments.end() || !assigned->second)
      return std::nullopt;
    return stringOf(assigned->second, context, depth + 1);
  }
  case ExprKind::Subscript: {
    std::optional<std::vector<int64_t>> position =
        constantIntegers(expr->operands[1], context.globals);
    if (!position || position->size() != 1 || expr->operands[1]->kind == ExprKind::Tuple)
      return std::nullopt;
    auto items = tupleStringsOf(expr->operands[0], context, depth + 1);
    if (!items)
      return std::nullopt;
    int64_t count = static_cast<int64_t>(items->size());
    int64_t at = position->front() < 0 ? position->front() + count : position->front();
    if (at < 0 || at >= count)
      return std::nullopt;
    return (*items)[static_cast<size_t>(at)];
  }
  default:
    return std::nullopt;
  }
}

} // namespace

SingleAssignments findSingleAssignments(const FunctionSource &source) {
  SingleAssignments assignments;
  for (const Parameter &parameter : source.parameters)
    assignments[parameter.name] = nullptr;
  std::function<void(const Expr *, const Expr *)> assign = [&](const Expr *target,
                                                               const Expr *value) {
    if (target->kind == ExprKind::Name) {
      auto [slot, inserted] = assignments.emplace(target->name, value);
      if (!inserted)
        slot->second = nullptr;
    } else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
      for (const Expr *element : target->operands)
        assign(element, nullptr);
    }
  };
  std::function<void(const std::vector<Stmt *> &)> walk;
  std::function<void(const Expr *)> visit = [&](const Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Comprehension)
      walk(expr->statements);
    for (const Expr *operand : expr->operands)
      visit(operand);
  };
  walk = [&](const std::vector<Stmt *> &block) {
    for (const Stmt *stmt : block) {
      if (isVersionRelease(stmt)) // frees a version's value; assigns nothing
        continue;
      bool plain = stmt->kind == StmtKind::Assign && stmt->targets.size() == 1;
      for (const Expr *target : stmt->targets)
        assign(target, plain ? stmt->value : nullptr);
      visit(stmt->value);
      visit(stmt->test);
      walk(stmt->body);
      walk(stmt->orelse);
      for (const ExceptHandler &handler : stmt->handlers) {
        if (!handler.name.empty())
          assignments[handler.name] = nullptr;
        walk(handler.body);
      }
      walk(stmt->finalbody);
    }
  };
  walk(source.body);
  return assignments;
}

std::optional<std::string> constantString(const Expr *expr, const ConstantStringContext &context) {
  return stringOf(expr, context, 0);
}

std::optional<std::vector<std::optional<std::string>>>
constantTupleStrings(const Expr *expr, const ConstantStringContext &context) {
  return tupleStringsOf(expr, context, 0);
}

std::vector<const Type *> unrolledItemTypes(const Type *tuple, const Expr *container,
                                            const ConstantStringContext &context) {
  std::vector<const Type *> items = tuple->elements();
  bool literal = false;
  if (auto strings = constantTupleStrings(container, context)) {
    for (size_t i = 0; i < items.size() && i < strings->size(); ++i) {
      if ((*strings)[i] && items[i]->isUnicode()) {
        items[i] = types::stringLiteral(*(*strings)[i]);
        literal = true;
      }
    }
  }
  for (const Type *item : items)
    if (item->kind() == TypeKind::StringLiteral)
      literal = true;
  if (!literal && tuple->isUniformTuple())
    return {};
  return items;
}

} // namespace taipan
