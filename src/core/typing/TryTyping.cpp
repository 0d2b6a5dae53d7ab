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

} // namespace taipan
