// Type inference by fixpoint: each pass types every statement with the variable types known so
// far, widening a variable's type when it is assigned something new, until a pass changes nothing.
#include "typing/TypeInference.h"

#include "typing/InferencePass.h"
#include "typing/TryTyping.h"

namespace taipan {

/// Whether a loop body has a `break` of its own (not one of a nested loop).
static bool containsBreak(const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Break)
      return true;
    if (stmt->kind == StmtKind::If && (containsBreak(stmt->body) || containsBreak(stmt->orelse)))
      return true;
    if (stmt->kind == StmtKind::Try) {
      bool found = false;
      forEachTryBlock(
          stmt, [&](const std::vector<Stmt *> &block) { found = found || containsBreak(block); });
      if (found)
        return true;
    }
  }
  return false;
}

bool isIndexIteration(const std::string &builtinName) {
  return builtinName == "numpy.ndindex" || builtinName == "numpy.ndenumerate" ||
         builtinName == "numpy.nditer";
}

bool statementCompletes(const TypedFunction &function, const Stmt *stmt) {
  switch (stmt->kind) {
  case StmtKind::Return:
  case StmtKind::Raise:
  case StmtKind::Break:
  case StmtKind::Continue:
    return false;
  case StmtKind::If: {
    auto decided = function.staticConditions.find(stmt->test->id);
    if (decided != function.staticConditions.end())
      return blockCompletes(function, decided->second ? stmt->body : stmt->orelse);
    return blockCompletes(function, stmt->body) || blockCompletes(function, stmt->orelse);
  }
  case StmtKind::Try:
    return tryStatementCompletes(function, stmt);
  case StmtKind::While: // `while True:` without a break never completes
    return !(stmt->test->kind == ExprKind::Constant &&
             stmt->test->constant.kind != Constant::Kind::None &&
             stmt->test->constant.intValue != 0 && !containsBreak(stmt->body));
  default:
    return true;
  }
}

bool blockCompletes(const TypedFunction &function, const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block)
    if (!statementCompletes(function, stmt))
      return false;
  return true;
}

bool inferTypesOnce(TypedFunction &function, CalleeTyper &callees, bool reportUnknown) {
  InferencePass pass(function, callees, reportUnknown);
  return pass.run();
}

void inferTypes(TypedFunction &function, CalleeTyper &callees) {
  // Each pass can only widen types, and widening is bounded, so this ends; the cap guards
  // against a bug turning into a hang.
  for (int pass = 0; pass < 64; ++pass)
    if (!inferTypesOnce(function, callees, false))
      return;
  throwTypingError("type inference did not converge", function.source->definitionLocation);
}

} // namespace taipan
