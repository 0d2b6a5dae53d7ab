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
  if (!a->isOptional()) {
    if (const Type *unified = unifyTypes(a, b))
      return unified;
    // Tuples unify item by item, so an item that is None in one and a value in the other is
    // optional (`return x, None` and `return x, y`), as Numba's tuples unify.
    auto plainTuple = [](const Type *type) {
      return type->isTuple() && !type->isNamedTuple() && !type->isLiteralList();
    };
    if (!plainTuple(a) || !plainTuple(b) || a->elements().size() != b->elements().size())
      return nullptr;
    std::vector<const Type *> elements;
    for (size_t i = 0; i < a->elements().size(); ++i) {
      const Type *element = unifyWithOptional(a->elements()[i], b->elements()[i]);
      if (!element)
        return nullptr;
      elements.push_back(element);
    }
    return types::tuple(elements);
  }
  const Type *value = unifyTypes(a->optionalValue(), b->isOptional() ? b->optionalValue() : b);
  return canBeOptional(value) ? types::optional(value) : nullptr;
}

std::set<int> optionalPreservingUses(const FunctionSource &source) {
  return optionalPreservingUses(source.body);
}

/// The branch of conditional expression `expr` that reads a variable its test proves is not
/// None (`x if x is not None else d`, `d if x is None else x`), or null.
template <typename IsNone>
static const Expr *narrowedBranch(const Expr *expr, const IsNone &isNone) {
  const Expr *test = expr->operands[0];
  if (test->kind != ExprKind::Compare || test->compareOps.size() != 1)
    return nullptr;
  const Expr *tested = isNone(test->operands[1])   ? test->operands[0]
                       : isNone(test->operands[0]) ? test->operands[1]
                                                   : nullptr;
  if (!tested || tested->kind != ExprKind::Name)
    return nullptr;
  CompareOp op = test->compareOps[0];
  const Expr *branch = op == CompareOp::IsNot || op == CompareOp::NotEq ? expr->operands[1]
                       : op == CompareOp::Is || op == CompareOp::Eq     ? expr->operands[2]
                                                                        : nullptr;
  return branch && branch->kind == ExprKind::Name && branch->name == tested->name ? branch
                                                                                  : nullptr;
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
      // `x if x is not None else d`: the branch the test proves holds a value reads x as that
      // value (narrowed, its flag check never fails), as `if x is not None: x` does.
      const Expr *narrowed = narrowedBranch(expr, isNone);
      for (const Expr *branch : {expr->operands[1], expr->operands[2]})
        if (branch != narrowed)
          keep(branch);
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
