// Try statements for typing and the passes that walk statements (see TryTyping.h).
#include "typing/TryTyping.h"

#include "support/CompileError.h"
#include "typing/TypeInference.h"

namespace taipan {

void forEachTryBlock(const Stmt *stmt,
                     const std::function<void(const std::vector<Stmt *> &)> &visit) {
  visit(stmt->body);
  for (const ExceptHandler &handler : stmt->handlers)
    visit(handler.body);
  visit(stmt->orelse);
  visit(stmt->finalbody);
}

bool tryStatementCompletes(const TypedFunction &function, const Stmt *stmt) {
  if (!blockCompletes(function, stmt->finalbody))
    return false;
  if (blockCompletes(function, stmt->body) && blockCompletes(function, stmt->orelse))
    return true;
  // Any statement of the body may raise, so each handler is reachable.
  for (const ExceptHandler &handler : stmt->handlers)
    if (blockCompletes(function, handler.body))
      return true;
  return false;
}

bool containsTry(const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Try || containsTry(stmt->body) || containsTry(stmt->orelse))
      return true;
  }
  return false;
}

std::vector<Expr *> handlerClasses(const ExceptHandler &handler) {
  if (!handler.type)
    return {};
  if (handler.type->kind == ExprKind::Tuple)
    return handler.type->operands;
  return {handler.type};
}

static const Expr *findName(const Expr *expr, const std::string &name) {
  if (!expr)
    return nullptr;
  if (expr->kind == ExprKind::Name && expr->name == name)
    return expr;
  for (const Expr *operand : expr->operands)
    if (const Expr *found = findName(operand, name))
      return found;
  return nullptr;
}

static const Expr *findName(const std::vector<Stmt *> &block, const std::string &name) {
  for (const Stmt *stmt : block) {
    for (const Expr *expr : {stmt->value, stmt->test, stmt->message})
      if (const Expr *found = findName(expr, name))
        return found;
    for (const Expr *target : stmt->targets)
      if (const Expr *found = findName(target, name))
        return found;
    for (const ExceptHandler &handler : stmt->handlers)
      if (const Expr *found = findName(handler.type, name))
        return found;
    const Expr *found = nullptr;
    if (stmt->kind == StmtKind::Try)
      forEachTryBlock(stmt, [&](const std::vector<Stmt *> &inner) {
        if (!found)
          found = findName(inner, name);
      });
    else if (!(found = findName(stmt->body, name)))
      found = findName(stmt->orelse, name);
    if (found)
      return found;
  }
  return nullptr;
}

void checkCaughtNameUnused(const ExceptHandler &handler) {
  if (handler.name.empty())
    return;
  if (const Expr *use = findName(handler.body, handler.name))
    throwUnsupported("the exception bound by 'except ... as " + handler.name +
                         "' cannot be used in compiled code (catch it without 'as', or handle "
                         "it in Python)",
                     use->location);
}

} // namespace taipan
