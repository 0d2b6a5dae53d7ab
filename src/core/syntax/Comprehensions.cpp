// Comprehensions read as loops (ExprKind::Comprehension): the statements that build a list
// comprehension's list, or a consumed generator expression's sum/any/all/min/max.
#include "syntax/Comprehensions.h"

#include "runtime/PythonDialect.h"

namespace taipan {
namespace {

/// Makes the nodes of the loop; each new node takes the location it is given.
class ComprehensionBuilder {
public:
  explicit ComprehensionBuilder(FunctionSource &source) : source(source) {}

  Expr *nameNode(const std::string &name, SourceLocation where) {
    Expr *expr = source.newExpr(ExprKind::Name, where);
    expr->name = name;
    return expr;
  }

  Expr *constantNode(Constant::Kind kind, int64_t value, SourceLocation where) {
    Expr *expr = source.newExpr(ExprKind::Constant, where);
    expr->constant.kind = kind;
    expr->constant.intValue = value;
    return expr;
  }

  Expr *notNode(Expr *operand) {
    Expr *expr = source.newExpr(ExprKind::UnaryOp, operand->location);
    expr->unaryOp = UnaryOp::Not;
    expr->operands = {operand};
    return expr;
  }

  Stmt *assignNode(const std::string &name, Expr *value, SourceLocation where) {
    Stmt *stmt = source.newStmt(StmtKind::Assign, where);
    stmt->targets.push_back(nameNode(name, where));
    stmt->value = value;
    return stmt;
  }

  Stmt *ifNode(Expr *test, std::vector<Stmt *> body, std::vector<Stmt *> orelse = {}) {
    Stmt *stmt = source.newStmt(StmtKind::If, test->location);
    stmt->test = test;
    stmt->body = std::move(body);
    stmt->orelse = std::move(orelse);
    return stmt;
  }

  /// The statement `receiver.method(argument)`, as a list comprehension's append or a set
  /// comprehension's add.
  Stmt *methodCallNode(const std::string &receiver, const char *method, Expr *argument,
                       SourceLocation where) {
    Expr *callee = source.newExpr(ExprKind::Attribute, where);
    callee->name = method;
    callee->operands = {nameNode(receiver, where)};
    Stmt *call = source.newStmt(StmtKind::ExprStmt, where);
    call->value = source.newExpr(ExprKind::Call, where);
    call->value->operands = {callee, argument};
    return call;
  }

  FunctionSource &source;
};

} // namespace

Expr *buildComprehension(FunctionSource &source, SourceLocation where, const std::string &result,
                         Accumulation accumulation, std::vector<ComprehensionClause> clauses,
                         Expr *element, Expr *consumer, Expr *start, Expr *value) {
  ComprehensionBuilder nodes(source);
  SourceLocation at = element->location;
  std::vector<Stmt *> statements, body;
  std::string item = result + ".item", seen = result + ".seen";
  switch (accumulation) {
  case Accumulation::List: {
    statements.push_back(nodes.assignNode(result, source.newExpr(ExprKind::List, where), where));
    body.push_back(nodes.methodCallNode(result, "append", element, at));
    break;
  }
  case Accumulation::Set: { // result = {}; ... result.add(e), with an empty set display
    statements.push_back(nodes.assignNode(result, source.newExpr(ExprKind::Set, where), where));
    body.push_back(nodes.methodCallNode(result, "add", element, at));
    break;
  }
  case Accumulation::Dict: {
    // result = {}; ...: result.key = k; result.value = v; result[result.key] = result.value
    // (named first, so the key is evaluated before the value, as Python 3.8 does).
    statements.push_back(nodes.assignNode(result, source.newExpr(ExprKind::Dict, where), where));
    std::string key = result + ".key", stored = result + ".value";
    if (value) {
      body.push_back(nodes.assignNode(key, element, at));
      body.push_back(nodes.assignNode(stored, value, value->location));
    } else { // dict(<generator of pairs>): `result.key, result.value = pair`
      Stmt *unpack = source.newStmt(StmtKind::Assign, at);
      Expr *pair = source.newExpr(ExprKind::Tuple, at);
      pair->operands = {nodes.nameNode(key, at), nodes.nameNode(stored, at)};
      unpack->targets.push_back(pair);
      unpack->value = element;
      body.push_back(unpack);
    }
    Stmt *store = source.newStmt(StmtKind::Assign, at);
    Expr *slot = source.newExpr(ExprKind::Subscript, at);
    slot->operands = {nodes.nameNode(result, at), nodes.nameNode(key, at)};
    store->targets.push_back(slot);
    store->value = nodes.nameNode(stored, at);
    body.push_back(store);
    break;
  }
  case Accumulation::Sum: {
    Expr *first = start ? start : nodes.constantNode(Constant::Kind::Int, 0, where);
    if (!python::sumCompensatesFloats()) {
      statements.push_back(nodes.assignNode(result, first, where));
      Expr *sum = source.newExpr(ExprKind::BinOp, at);
      sum->binaryOp = BinaryOp::Add;
      sum->operands = {nodes.nameNode(result, at), element};
      body.push_back(nodes.assignNode(result, sum, at));
      break;
    }
    // From 3.12, CPython's compensated float sum (library/BuiltinIterators):
    //   result.start = start; result = result.start; result.compensation = 0.0
    //   result.counting = $taipan.sum_counts(result.start)      (a float start counts)
    //   for ...: result.item = element
    //            result.compensation = $taipan.sum_compensation(result, result.compensation,
    //                                                           result.item, result.counting)
    //            result.counting = True; result = result + result.item
    //   result = $taipan.sum_finish(result, result.compensation)
    std::string startName = result + ".start", compensation = result + ".compensation",
                counting = result + ".counting";
    auto call = [&](const char *callee, std::vector<Expr *> arguments, SourceLocation location) {
      Expr *expr = source.newExpr(ExprKind::Call, location);
      expr->operands = {nodes.nameNode(callee, location)};
      expr->operands.insert(expr->operands.end(), arguments.begin(), arguments.end());
      return expr;
    };
    Expr *zero = nodes.constantNode(Constant::Kind::Float, 0, where);
    zero->constant.floatValue = 0.0;
    statements.push_back(nodes.assignNode(startName, first, where));
    statements.push_back(nodes.assignNode(result, nodes.nameNode(startName, where), where));
    statements.push_back(nodes.assignNode(compensation, zero, where));
    statements.push_back(nodes.assignNode(
        counting, call("$taipan.sum_counts", {nodes.nameNode(startName, where)}, where), where));
    body.push_back(nodes.assignNode(item, element, at));
    body.push_back(
        nodes.assignNode(compensation,
                         call("$taipan.sum_compensation",
                              {nodes.nameNode(result, at), nodes.nameNode(compensation, at),
                               nodes.nameNode(item, at), nodes.nameNode(counting, at)},
                              at),
                         at));
    body.push_back(nodes.assignNode(counting, nodes.constantNode(Constant::Kind::Bool, 1, at), at));
    Expr *sum = source.newExpr(ExprKind::BinOp, at);
    sum->binaryOp = BinaryOp::Add;
    sum->operands = {nodes.nameNode(result, at), nodes.nameNode(item, at)};
    body.push_back(nodes.assignNode(result, sum, at));
    break;
  }
  case Accumulation::Any:
  case Accumulation::All: {
    bool isAny = accumulation == Accumulation::Any;
    statements.push_back(
        nodes.assignNode(result, nodes.constantNode(Constant::Kind::Bool, !isAny, where), where));
    body.push_back(nodes.ifNode(
        isAny ? element : nodes.notNode(element),
        {nodes.assignNode(result, nodes.constantNode(Constant::Kind::Bool, isAny, at), at),
         source.newStmt(StmtKind::Break, at)}));
    break;
  }
  case Accumulation::Min:
  case Accumulation::Max: {
    // Python's order: the first item, then each strictly smaller (larger) one.
    statements.push_back(
        nodes.assignNode(seen, nodes.constantNode(Constant::Kind::Bool, 0, where), where));
    body.push_back(nodes.assignNode(item, element, at));
    Expr *better = source.newExpr(ExprKind::Compare, at);
    better->compareOps = {accumulation == Accumulation::Min ? CompareOp::Lt : CompareOp::Gt};
    better->operands = {nodes.nameNode(item, at), nodes.nameNode(result, at)};
    body.push_back(nodes.ifNode(
        nodes.notNode(nodes.nameNode(seen, at)),
        {nodes.assignNode(result, nodes.nameNode(item, at), at),
         nodes.assignNode(seen, nodes.constantNode(Constant::Kind::Bool, 1, at), at)},
        {nodes.ifNode(better, {nodes.assignNode(result, nodes.nameNode(item, at), at)})}));
    break;
  }
  }
  // Nested for clauses, innermost first; any and all leave the outer loops once decided.
  for (size_t i = clauses.size(); i-- > 0;) {
    for (auto condition = clauses[i].conditions.rbegin(); condition != clauses[i].conditions.rend();
         ++condition)
      body = {nodes.ifNode(*condition, std::move(body))};
    Stmt *loop = source.newStmt(StmtKind::For, clauses[i].iterable->location);
    loop->targets.push_back(clauses[i].target);
    loop->value = clauses[i].iterable;
    loop->body = std::move(body);
    body = {loop};
    if (i > 0 && (accumulation == Accumulation::Any || accumulation == Accumulation::All)) {
      Expr *decided = nodes.nameNode(result, loop->location);
      body.push_back(
          nodes.ifNode(accumulation == Accumulation::Any ? decided : nodes.notNode(decided),
                       {source.newStmt(StmtKind::Break, loop->location)}));
    }
  }
  statements.insert(statements.end(), body.begin(), body.end());
  if (accumulation == Accumulation::Sum && python::sumCompensatesFloats()) {
    Expr *finish = source.newExpr(ExprKind::Call, where);
    finish->operands = {nodes.nameNode("$taipan.sum_finish", where), nodes.nameNode(result, where),
                        nodes.nameNode(result + ".compensation", where)};
    statements.push_back(nodes.assignNode(result, finish, where));
  }
  if (accumulation == Accumulation::Min || accumulation == Accumulation::Max) {
    Stmt *raise = source.newStmt(StmtKind::Raise, where);
    Expr *message = source.newExpr(ExprKind::Constant, where);
    message->constant.kind = Constant::Kind::String;
    message->constant.text =
        python::emptyExtremumMessage(accumulation == Accumulation::Min ? "min" : "max");
    raise->value = source.newExpr(ExprKind::Call, where);
    raise->value->operands = {nodes.nameNode("ValueError", where), message};
    statements.push_back(nodes.ifNode(nodes.notNode(nodes.nameNode(seen, where)), {raise}));
  }
  Expr *expr = source.newExpr(ExprKind::Comprehension, where);
  expr->name = result;
  expr->statements = std::move(statements);
  if (consumer)
    expr->operands = {consumer};
  return expr;
}

} // namespace taipan
