// Unification with None and the uses that keep a value optional.
#include "typing/OptionalTyping.h"

#include "types/ClassInstanceTypes.h"

#include "types/NumericPromotion.h"

#include <algorithm>
#include <functional>

namespace taipan {

/// Whether the references `type` holds are of kinds reference counting finds by their type
/// alone (not a generator's frame or a dict view).
static bool holdsCountedReferences(const Type *type) {
  if (type->isTuple())
    return std::all_of(type->elements().begin(), type->elements().end(), holdsCountedReferences);
  return !type->holdsReferences() || type->isArray() || type->isUnicode() || type->isList() ||
         type->isDict() || type->isSet();
}

bool canBeOptional(const Type *type) {
  // A jitclass instance's None is a null block, which reference counting skips.
  return type && type->isRuntimeValue() && !type->isNone() && !type->isOptional() &&
         (holdsCountedReferences(type) || isClassInstance(type));
}

const Type *generatorSentType(const Type *yield) {
  if (!yield || yield->holdsReferences())
    return nullptr;
  if (yield->isOptional() || yield->isNone())
    return yield->isNone() ? nullptr : yield;
  return canBeOptional(yield) ? types::optional(yield) : nullptr;
}

const Type *generatorPromiseType(const Type *yield) {
  std::vector<const Type *> fields = {types::int64(), types::int64(), yield};
  if (const Type *sent = generatorSentType(yield))
    fields.push_back(sent);
  return types::tuple(fields);
}

const Type *unifyWithOptional(const Type *a, const Type *b) {
  if (!a || !b || a == b)
    return unifyTypes(a, b);
  if (b->isNone() || b->isOptional())
    std::swap(a, b); // None or the optional first
  if ((a->isNone() || a->isOptional()) && b->kind() == TypeKind::StringLiteral)
    b = types::unicode(); // a literal that may be None is a string value
  if (a->isNone()) {
    if (b->isOptional())
      return b;
    return canBeOptional(b) ? types::optional(b) : nullptr;
  }
  if (!a->isOptional())
    return unifyTypes(a, b);
  const Type *value = unifyTypes(a->optionalValue(), b->isOptional() ? b->optionalValue() : b);
  return canBeOptional(value) ? types::optional(value) : nullptr;
}

std::set<int> optionalPreservingUses(const FunctionSource &source) {
  return optionalPreservingUses(source.body);
}

std::set<int> optionalPreservingUses(const std::vector<Stmt *> &body) {
  std::set<int> uses;
  auto keep = [&](const Expr *expr) {
    if (expr && expr->kind == ExprKind::Name)
      uses.insert(expr->id);
  };
  auto isNone = [](const Expr *expr) {
    return expr && expr->kind == ExprKind::Constant && expr->constant.kind == Constant::Kind::None;
  };
  // `return 1, x`: the items of a returned tuple display stay optional (None reaches Python).
  std::function<void(const Expr *)> keepReturnedItems = [&](const Expr *expr) {
    if (!expr || expr->kind != ExprKind::Tuple)
      return;
    for (const Expr *item : expr->operands) {
      keep(item);
      keepReturnedItems(item);
    }
  };
  std::function<void(const Expr *)> visitExpr = [&](const Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::IfExp) {
      keep(expr->operands[1]);
      keep(expr->operands[2]);
    }
    if (expr->kind == ExprKind::Compare && expr->compareOps.size() == 1) {
      CompareOp op = expr->compareOps[0];
      if (op == CompareOp::Is || op == CompareOp::IsNot || op == CompareOp::Eq ||
          op == CompareOp::NotEq) {
        if (isNone(expr->operands[1]))
          keep(expr->operands[0]);
        if (isNone(expr->operands[0]))
          keep(expr->operands[1]);
      }
    }
    for (const Expr *operand : expr->operands)
      visitExpr(operand);
  };
  std::function<void(const std::vector<Stmt *> &)> visitBlock =
      [&](const std::vector<Stmt *> &block) {
        for (const Stmt *stmt : block) {
          // An unpacking assignment (`a, b = x`) reads the value, so it narrows an optional.
          bool unpacks = std::any_of(stmt->targets.begin(), stmt->targets.end(), [](Expr *t) {
            return t->kind == ExprKind::Tuple || t->kind == ExprKind::List;
          });
          if ((stmt->kind == StmtKind::Assign && !unpacks) || stmt->kind == StmtKind::Return)
            keep(stmt->value);
          if (stmt->kind == StmtKind::Return)
            keepReturnedItems(stmt->value);
          for (const Expr *target : stmt->targets)
            visitExpr(target);
          visitExpr(stmt->value);
          visitExpr(stmt->test);
          visitExpr(stmt->message);
          visitBlock(stmt->body);
          visitBlock(stmt->orelse);
        }
      };
  visitBlock(body);
  return uses;
}

} // namespace taipan
