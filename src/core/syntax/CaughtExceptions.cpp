// The rewrite of `except E as e` bodies that use `e` (see CaughtExceptions.h and the try section
// of docs/architecture.md).
#include "syntax/CaughtExceptions.h"

#include <functional>
#include <set>

namespace taipan {

namespace {

/// The library entry `e.args` becomes (library/ExceptionArguments.cpp).
constexpr const char *CaughtArgumentsCallee = "$taipan.caught_args";

std::string bindingText(const std::string &name) { return "'except ... as " + name + "'"; }

/// Whether `target` (an assignment or loop target) binds `name`.
const Expr *bindsName(const Expr *target, const std::string &name) {
  if (!target)
    return nullptr;
  if (target->kind == ExprKind::Name)
    return target->name == name ? target : nullptr;
  if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
    for (const Expr *element : target->operands)
      if (const Expr *found = bindsName(element, name))
        return found;
  return nullptr;
}

/// Rewrites the uses of one handler's name in its body.
class HandlerRewrite {
public:
  HandlerRewrite(FunctionSource &source, const std::string &name, const std::string &hidden)
      : source(source), name(name), hidden(hidden) {}

  /// Whether `block` uses the name at all (reads or targets).
  bool uses(const std::vector<Stmt *> &block) {
    bool found = false;
    visitBlock(block, [&](Expr *expr) {
      if (expr->kind == ExprKind::Name && expr->name == name)
        found = true;
    });
    return found;
  }

  void rewriteBlock(const std::vector<Stmt *> &block) {
    for (Stmt *stmt : block)
      rewriteStmt(stmt);
  }

  /// The try body whose raise statements give `e.args` its type.
  void setTryBody(const std::vector<Stmt *> *body) { tryBody = body; }

private:
  FunctionSource &source;
  const std::string &name;
  const std::string &hidden;
  const std::vector<Stmt *> *tryBody = nullptr;

  /// A copy of a raise argument that typing can type where `e.args` is read: a name (typed
  /// function-wide) or a constant; nullptr for anything else.
  Expr *copyArgument(const Expr *argument) {
    if (argument->kind != ExprKind::Name && argument->kind != ExprKind::Constant)
      return nullptr;
    if (argument->kind == ExprKind::Name && argument->name.rfind("$", 0) == 0)
      return nullptr;
    Expr *copy = source.newExpr(argument->kind, argument->location);
    copy->name = argument->name;
    copy->constant = argument->constant;
    return copy;
  }

  /// One tuple display per `raise E(...)` or `raise E` in `block` (nested blocks included):
  /// the arguments each gives, copied. False when a raise's arguments cannot be copied.
  bool collectRaiseSites(const std::vector<Stmt *> &block, std::vector<Expr *> &sites) {
    for (const Stmt *stmt : block) {
      if (stmt->kind == StmtKind::Raise && stmt->value &&
          stmt->value->name.rfind("$", 0) != 0) { // not `raise e` (a caught exception)
        Expr *site = source.newExpr(ExprKind::Tuple, stmt->location);
        if (stmt->value->kind == ExprKind::Call) {
          if (!stmt->value->keywordNames.empty())
            return false;
          for (size_t i = 1; i < stmt->value->operands.size(); ++i) {
            Expr *copy = copyArgument(stmt->value->operands[i]);
            if (!copy)
              return false;
            site->operands.push_back(copy);
          }
        }
        sites.push_back(site);
      }
      if (!collectRaiseSites(stmt->body, sites) || !collectRaiseSites(stmt->orelse, sites) ||
          !collectRaiseSites(stmt->finalbody, sites))
        return false;
      for (const ExceptHandler &handler : stmt->handlers)
        if (!collectRaiseSites(handler.body, sites))
          return false;
    }
    return true;
  }

  /// `e.args`: `$taipan.caught_args(index, (site arguments)...)`, typed from the try body's
  /// raise statements and checked at run time (library/ExceptionArguments.cpp).
  void rewriteArgs(Expr *expr) {
    std::vector<Expr *> sites;
    if (!tryBody || !collectRaiseSites(*tryBody, sites))
      unsupported("'" + name +
                      ".args' where a raise statement of the try body has arguments "
                      "other than names and constants",
                  expr->location);
    if (sites.empty())
      unsupported("'" + name +
                      ".args' without a raise statement in the try body (its "
                      "arguments' types come from those statements)",
                  expr->location);
    Expr *callee = source.newExpr(ExprKind::Name, expr->location);
    callee->name = CaughtArgumentsCallee;
    Expr *index = source.newExpr(ExprKind::Name, expr->location);
    index->name = hidden;
    expr->kind = ExprKind::Call;
    expr->name.clear();
    expr->operands = {callee, index};
    expr->operands.insert(expr->operands.end(), sites.begin(), sites.end());
  }

  void visitExpr(Expr *expr, const std::function<void(Expr *)> &visit) {
    if (!expr)
      return;
    visit(expr);
    for (Expr *operand : expr->operands)
      visitExpr(operand, visit);
  }

  void visitBlock(const std::vector<Stmt *> &block, const std::function<void(Expr *)> &visit) {
    for (Stmt *stmt : block) {
      for (Expr *target : stmt->targets)
        visitExpr(target, visit);
      visitExpr(stmt->value, visit);
      visitExpr(stmt->test, visit);
      visitExpr(stmt->message, visit);
      visitBlock(stmt->body, visit);
      visitBlock(stmt->orelse, visit);
      for (ExceptHandler &handler : stmt->handlers) {
        visitExpr(handler.type, visit);
        visitBlock(handler.body, visit);
      }
      visitBlock(stmt->finalbody, visit);
    }
  }

  [[noreturn]] void unsupported(const std::string &what, SourceLocation location) {
    throwUnsupported(what + " of the exception bound by " + bindingText(name) +
                         " is not supported in compiled code (str(" + name + "), print(" + name +
                         "), " + name + ".args and 'raise " + name + "' are)",
                     location);
  }

  Expr *messageOf(SourceLocation location) {
    Expr *call = source.newExpr(ExprKind::Call, location);
    Expr *callee = source.newExpr(ExprKind::Name, location);
    callee->name = CaughtMessageCallee;
    Expr *index = source.newExpr(ExprKind::Name, location);
    index->name = hidden;
    call->operands = {callee, index};
    return call;
  }

  static bool isCallOf(const Expr *expr, const char *callee) {
    return expr->kind == ExprKind::Call && expr->callee()->kind == ExprKind::Name &&
           expr->callee()->name == callee;
  }

  bool isOurName(const Expr *expr) const {
    return expr && expr->kind == ExprKind::Name && expr->name == name;
  }

  void rewriteExpr(Expr *expr) {
    if (!expr)
      return;
    if (isOurName(expr))
      unsupported("using the value", expr->location);
    if (expr->kind == ExprKind::Attribute && isOurName(expr->operands[0])) {
      if (expr->name != "args")
        unsupported("'" + name + "." + expr->name + "'", expr->location);
      rewriteArgs(expr);
      return;
    }
    if (isCallOf(expr, "str") && expr->operands.size() == 2 && expr->keywordNames.empty() &&
        isOurName(expr->operands[1])) {
      expr->callee()->name = CaughtMessageCallee;
      expr->operands[1]->name = hidden;
      return;
    }
    if (isCallOf(expr, "print"))
      for (size_t i = 1; i <= expr->positionalCount(); ++i)
        if (isOurName(expr->operands[i]))
          expr->operands[i] = messageOf(expr->operands[i]->location);
    for (Expr *operand : expr->operands)
      rewriteExpr(operand);
  }

  void rewriteStmt(Stmt *stmt) {
    for (Expr *target : stmt->targets)
      if (const Expr *bound = bindsName(target, name))
        unsupported("assigning to the name", bound->location);
    if (stmt->kind == StmtKind::Raise && isOurName(stmt->value))
      stmt->value->name = hidden;
    else
      rewriteExpr(stmt->value);
    for (Expr *target : stmt->targets)
      rewriteExpr(target);
    rewriteExpr(stmt->test);
    rewriteExpr(stmt->message);
    rewriteBlock(stmt->body);
    rewriteBlock(stmt->orelse);
    for (ExceptHandler &handler : stmt->handlers) {
      if (handler.name == name)
        unsupported("binding the name again in a nested 'except ... as " + name + "'",
                    handler.location);
      rewriteExpr(handler.type);
      rewriteBlock(handler.body);
    }
    rewriteBlock(stmt->finalbody);
  }
};

/// Finds every handler of `block` (nested ones first, so an inner handler is rewritten before
/// the outer body that holds it is checked) and rewrites those whose name is used.
void rewriteHandlers(FunctionSource &source, const std::vector<Stmt *> &block, int &counter,
                     std::set<std::string> &rewritten) {
  for (Stmt *stmt : block) {
    rewriteHandlers(source, stmt->body, counter, rewritten);
    rewriteHandlers(source, stmt->orelse, counter, rewritten);
    rewriteHandlers(source, stmt->finalbody, counter, rewritten);
    for (ExceptHandler &handler : stmt->handlers) {
      rewriteHandlers(source, handler.body, counter, rewritten);
      if (handler.name.empty())
        continue;
      std::string hidden = CaughtNamePrefix + handler.name + "." + std::to_string(counter++);
      HandlerRewrite rewrite(source, handler.name, hidden);
      rewrite.setTryBody(&stmt->body);
      if (!rewrite.uses(handler.body))
        continue;
      rewrite.rewriteBlock(handler.body);
      Stmt *bind = source.newStmt(StmtKind::Assign, handler.location);
      Expr *target = source.newExpr(ExprKind::Name, handler.location);
      target->name = hidden;
      Expr *call = source.newExpr(ExprKind::Call, handler.location);
      Expr *callee = source.newExpr(ExprKind::Name, handler.location);
      callee->name = CaughtIndexCallee;
      call->operands = {callee};
      bind->targets = {target};
      bind->value = call;
      handler.body.insert(handler.body.begin(), bind);
      rewritten.insert(handler.name);
    }
  }
}

/// The first use of one of `names` left in `block` (its handlers' uses are renamed already).
const Expr *findUse(const std::vector<Stmt *> &block, const std::set<std::string> &names) {
  std::function<const Expr *(const Expr *)> inExpr = [&](const Expr *expr) -> const Expr * {
    if (!expr)
      return nullptr;
    if (expr->kind == ExprKind::Name && names.count(expr->name))
      return expr;
    for (const Expr *operand : expr->operands)
      if (const Expr *found = inExpr(operand))
        return found;
    return nullptr;
  };
  for (const Stmt *stmt : block) {
    for (const Expr *target : stmt->targets)
      if (const Expr *found = inExpr(target))
        return found;
    for (const Expr *expr : {stmt->value, stmt->test, stmt->message})
      if (const Expr *found = inExpr(expr))
        return found;
    for (const auto *inner : {&stmt->body, &stmt->orelse, &stmt->finalbody})
      if (const Expr *found = findUse(*inner, names))
        return found;
    for (const ExceptHandler &handler : stmt->handlers)
      if (const Expr *found = findUse(handler.body, names))
        return found;
  }
  return nullptr;
}

} // namespace

bool isCaughtExceptionName(const Expr *expr) {
  return expr && expr->kind == ExprKind::Name && expr->name.rfind(CaughtNamePrefix, 0) == 0;
}

void rewriteCaughtExceptions(FunctionSource &source) {
  int counter = 0;
  std::set<std::string> rewritten;
  rewriteHandlers(source, source.body, counter, rewritten);
  if (rewritten.empty())
    return;
  // Python unbinds the name when its handler ends: a use elsewhere would read another value.
  for (const Parameter &parameter : source.parameters)
    if (rewritten.count(parameter.name))
      throwUnsupported("the name '" + parameter.name + "' of " + bindingText(parameter.name) +
                           " is also a parameter; compiled code cannot rebind it to the exception",
                       source.definitionLocation);
  if (const Expr *use = findUse(source.body, rewritten))
    throwUnsupported("the name '" + use->name +
                         "' is also used outside the except block that "
                         "binds it with " +
                         bindingText(use->name) + ", which compiled code does not support",
                     use->location);
}

} // namespace taipan
