// Planning prange loops: the variables of the loop body sorted into shared, private and
// reduction variables, by the rules Numba's parfors follow, checked on the syntax tree.
#include "typing/ParallelLoops.h"
#include "syntax/VariableVersions.h"
#include "typing/ArrayDependences.h"
#include "typing/TryTyping.h"

#include <algorithm>
#include <set>

namespace taipan {
namespace {

/// The name prange's library entry has (taipan.prange, which Python code sees as range).
constexpr const char *PrangeName = "taipan.prange";

bool mentions(const Expr *expr, const std::string &name) {
  if (!expr)
    return false;
  if (expr->kind == ExprKind::Name && expr->name == name)
    return true;
  return std::any_of(expr->operands.begin(), expr->operands.end(),
                     [&](const Expr *operand) { return mentions(operand, name); });
}

/// The names a statement (and the statements nested in it) reads and assigns.
class NameUses {
public:
  std::set<std::string> reads, assigned;

  void statements(const std::vector<Stmt *> &block) {
    for (const Stmt *stmt : block)
      statement(stmt);
  }

private:
  void read(const Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name)
      reads.insert(expr->name);
    if (!expr->boundFlag.empty()) // the read checks that flag (syntax/VariableVersions.h)
      reads.insert(expr->boundFlag);
    if (expr->kind == ExprKind::Comprehension)
      statements(expr->statements); // its loop assigns hidden variables (SyntaxTree.h)
    for (const Expr *operand : expr->operands)
      read(operand);
  }

  void target(const Expr *expr) {
    if (expr->kind == ExprKind::Name) {
      assigned.insert(expr->name);
    } else if (expr->kind == ExprKind::Tuple || expr->kind == ExprKind::List) {
      for (const Expr *element : expr->operands)
        target(element);
    } else {
      read(expr); // a[i] = v reads a and i
    }
  }

  void statement(const Stmt *stmt) {
    read(stmt->value);
    read(stmt->test);
    read(stmt->message);
    if (stmt->kind == StmtKind::AugAssign)
      read(stmt->targets[0]);
    if (stmt->kind == StmtKind::Assign || stmt->kind == StmtKind::AugAssign ||
        stmt->kind == StmtKind::For)
      for (const Expr *expr : stmt->targets)
        target(expr);
    statements(stmt->body);
    statements(stmt->orelse);
  }
};

/// Which comes first for a variable on the paths through some statements: a read, an
/// assignment on every path (or no path going on), or neither.
enum class Access { Read, Assigned, Neither };

class FirstAccess {
public:
  FirstAccess(const TypedFunction &function, const std::string &name)
      : function(function), name(name) {}

  Access block(const std::vector<Stmt *> &statements, size_t from = 0) {
    for (size_t i = from; i < statements.size(); ++i) {
      Access access = statement(statements[i]);
      if (access != Access::Neither)
        return access;
    }
    return Access::Neither;
  }

private:
  const TypedFunction &function;
  const std::string &name;

  /// A target assigns the name, or (a subscript) reads it.
  Access target(const Expr *expr) {
    if (expr->kind == ExprKind::Name)
      return expr->name == name ? Access::Assigned : Access::Neither;
    if (expr->kind == ExprKind::Tuple || expr->kind == ExprKind::List) {
      bool reads = false, assigns = false;
      for (const Expr *element : expr->operands) {
        Access access = target(element);
        reads |= access == Access::Read;
        assigns |= access == Access::Assigned;
      }
      return reads ? Access::Read : assigns ? Access::Assigned : Access::Neither;
    }
    return mentions(expr, name) ? Access::Read : Access::Neither;
  }

  /// A branch that cannot complete leaves nothing to read after it.
  Access branch(const std::vector<Stmt *> &statements) {
    Access access = block(statements);
    if (access == Access::Neither && !blockCompletes(function, statements))
      return Access::Assigned;
    return access;
  }

  /// A loop's body may run any number of times: only a read first counts.
  Access loopBody(const std::vector<Stmt *> &statements) {
    return block(statements) == Access::Read ? Access::Read : Access::Neither;
  }

  Access statement(const Stmt *stmt) {
    switch (stmt->kind) {
    case StmtKind::Assign: {
      if (mentions(stmt->value, name))
        return Access::Read;
      Access result = Access::Neither;
      for (const Expr *expr : stmt->targets) {
        Access access = target(expr);
        if (access == Access::Read)
          return Access::Read;
        if (access == Access::Assigned)
          result = Access::Assigned;
      }
      return result;
    }
    case StmtKind::AugAssign:
      return mentions(stmt->value, name) || mentions(stmt->targets[0], name) ? Access::Read
                                                                             : Access::Neither;
    case StmtKind::If: {
      if (mentions(stmt->test, name))
        return Access::Read;
      auto decided = function.staticConditions.find(stmt->test->id);
      if (decided != function.staticConditions.end())
        return block(decided->second ? stmt->body : stmt->orelse);
      Access body = branch(stmt->body), orelse = branch(stmt->orelse);
      if (body == Access::Read || orelse == Access::Read)
        return Access::Read;
      return body == Access::Assigned && orelse == Access::Assigned ? Access::Assigned
                                                                    : Access::Neither;
    }
    case StmtKind::While:
      if (mentions(stmt->test, name) || loopBody(stmt->body) == Access::Read)
        return Access::Read;
      return loopBody(stmt->orelse);
    case StmtKind::For: {
      if (mentions(stmt->value, name))
        return Access::Read;
      Access assigned = target(stmt->targets[0]);
      if (assigned == Access::Read)
        return Access::Read;
      if (assigned == Access::Neither && loopBody(stmt->body) == Access::Read)
        return Access::Read;
      return loopBody(stmt->orelse);
    }
    case StmtKind::Break:
    case StmtKind::Continue:
      return Access::Assigned; // nothing after it on this path
    case StmtKind::Return:
    case StmtKind::Raise:
    case StmtKind::Assert:
    case StmtKind::ExprStmt:
    case StmtKind::Yield:
      if (mentions(stmt->value, name) || mentions(stmt->test, name) ||
          mentions(stmt->message, name))
        return Access::Read;
      return stmt->kind == StmtKind::Return || stmt->kind == StmtKind::Raise ? Access::Assigned
                                                                             : Access::Neither;
    case StmtKind::Pass:
      return Access::Neither;
    }
    return Access::Neither;
  }
};

/// Where a statement sits: the blocks from the function's body down to it, each with the
/// statement owning it (null for the body) and the position in it.
struct Position {
  const Stmt *owner;
  const std::vector<Stmt *> *block;
  size_t index;
};

bool findPosition(const Stmt *owner, const std::vector<Stmt *> &block, const Stmt *wanted,
                  std::vector<Position> &path) {
  for (size_t i = 0; i < block.size(); ++i) {
    path.push_back({owner, &block, i});
    if (block[i] == wanted)
      return true;
    if (findPosition(block[i], block[i]->body, wanted, path) ||
        findPosition(block[i], block[i]->orelse, wanted, path))
      return true;
    path.pop_back();
  }
  return false;
}

/// Whether the value `name` has after `loop` may be read: by the statements after it, by a
/// later iteration of an enclosing loop, or by an enclosing loop's else.
bool readAfter(const TypedFunction &function, const Stmt *loop, const std::string &name) {
  std::vector<Position> path;
  findPosition(nullptr, function.source->body, loop, path);
  FirstAccess access(function, name);
  if (access.block(loop->orelse) == Access::Read)
    return true;
  for (size_t level = path.size(); level-- > 0;) {
    const Position &position = path[level];
    Access after = access.block(*position.block, position.index + 1);
    if (after != Access::Neither)
      return after == Access::Read;
    const Stmt *owner = position.owner;
    if (owner && (owner->kind == StmtKind::For || owner->kind == StmtKind::While)) {
      if (access.block(owner->body) == Access::Read || mentions(owner->test, name) ||
          (position.block == &owner->body && access.block(owner->orelse) == Access::Read))
        return true;
    }
  }
  return false;
}

/// Whether `block` leaves the loop it is the body of: a break outside any nested loop, or a
/// return anywhere.
bool leavesLoop(const std::vector<Stmt *> &block, bool nested) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Return || (stmt->kind == StmtKind::Break && !nested))
      return true;
    bool loop = stmt->kind == StmtKind::For || stmt->kind == StmtKind::While;
    if (leavesLoop(stmt->body, nested || loop) || leavesLoop(stmt->orelse, nested))
      return true;
  }
  return false;
}

/// Whether `wanted` lies in `block` inside some try statement's blocks. A handler or a finally
/// block may read what an interrupted loop left behind (its variable, the elements it wrote), so
/// such a loop must run in order, as Python runs it.
bool insideTry(const std::vector<Stmt *> &block, const Stmt *wanted, bool inTry) {
  for (const Stmt *stmt : block) {
    if (stmt == wanted)
      return inTry;
    bool found = false;
    if (stmt->kind == StmtKind::Try)
      forEachTryBlock(stmt, [&](const std::vector<Stmt *> &inner) {
        found = found || insideTry(inner, wanted, true);
      });
    else
      found = insideTry(stmt->body, wanted, inTry) || insideTry(stmt->orelse, wanted, inTry);
    if (found)
      return true;
  }
  return false;
}

/// The statements of `block` (nested ones included) that mention `name`.
void statementsMentioning(const std::vector<Stmt *> &block, const std::string &name,
                          std::vector<const Stmt *> &found) {
  for (const Stmt *stmt : block) {
    bool direct = mentions(stmt->value, name) || mentions(stmt->test, name) ||
                  mentions(stmt->message, name) ||
                  std::any_of(stmt->targets.begin(), stmt->targets.end(),
                              [&](const Expr *target) { return mentions(target, name); });
    if (direct)
      found.push_back(stmt);
    statementsMentioning(stmt->body, name, found);
    statementsMentioning(stmt->orelse, name, found);
  }
}

bool reductionKindOf(BinaryOp op, ReductionKind &kind) {
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
    kind = ReductionKind::Add;
    return true;
  case BinaryOp::Mult:
    kind = ReductionKind::Multiply;
    return true;
  case BinaryOp::BitOr:
    kind = ReductionKind::BitOr;
    return true;
  case BinaryOp::BitAnd:
    kind = ReductionKind::BitAnd;
    return true;
  case BinaryOp::BitXor:
    kind = ReductionKind::BitXor;
    return true;
  default:
    return false;
  }
}

bool isName(const Expr *expr, const std::string &name) {
  return expr->kind == ExprKind::Name && expr->name == name;
}

/// The reduction `stmt` performs on `name`, if it is one: `name op= e`, `name = name op e`
/// (or `e op name` for a commutative op), `name = min(name, e)` or max, e not mentioning name.
bool reductionStatement(const TypedFunction &function, const Stmt *stmt, const std::string &name,
                        bool isArray, ReductionKind &kind) {
  if (stmt->kind == StmtKind::AugAssign)
    return isName(stmt->targets[0], name) && !mentions(stmt->value, name) &&
           reductionKindOf(stmt->augmentedOp, kind) &&
           (!isArray || kind <= ReductionKind::Multiply);
  if (stmt->kind != StmtKind::Assign || stmt->targets.size() != 1 ||
      !isName(stmt->targets[0], name) || isArray)
    return false;
  const Expr *value = stmt->value;
  if (value->kind == ExprKind::BinOp) {
    const Expr *left = value->operands[0], *right = value->operands[1];
    if (isName(left, name) && !mentions(right, name))
      return reductionKindOf(value->binaryOp, kind);
    bool commutative = value->binaryOp != BinaryOp::Sub;
    return commutative && isName(right, name) && !mentions(left, name) &&
           reductionKindOf(value->binaryOp, kind);
  }
  if (value->kind == ExprKind::Call && value->keywordNames.empty() &&
      value->positionalCount() == 2) {
    auto call = function.libraryCalls.find(value->id);
    if (call == function.libraryCalls.end())
      return false;
    const std::string &callee = call->second.function->name;
    if (callee != "min" && callee != "max")
      return false;
    // min(m, x) keeps m unless x is smaller, so NaN never enters m and ties keep the earlier
    // value: chunks combined in order give exactly the serial result. min(x, m) takes a NaN x
    // and drops it at the next element, which no split of the iterations can reproduce.
    const Expr *first = value->operands[1], *second = value->operands[2];
    bool exact = !function.variableTypes.at(name)->isFloat();
    bool shaped = (isName(first, name) && !mentions(second, name)) ||
                  (exact && isName(second, name) && !mentions(first, name));
    kind = callee == "min" ? ReductionKind::Min : ReductionKind::Max;
    return shaped;
  }
  return false;
}

} // namespace

bool isParallelLoop(const TypedFunction &function, const Stmt *loop) {
  if (!function.source->options.parallel || loop->kind != StmtKind::For)
    return false;
  auto call = function.libraryCalls.find(loop->value->id);
  return loop->value->kind == ExprKind::Call && call != function.libraryCalls.end() &&
         call->second.function->name == PrangeName;
}

ParallelLoopPlan planParallelLoop(const TypedFunction &function, const Stmt *loop) {
  ParallelLoopPlan plan;
  auto serial = [&](std::string reason) {
    plan.parallel = false;
    plan.reason = std::move(reason);
    return plan;
  };
  // The analyses below walk plain statements; a try statement's blocks are not among them, so
  // a body holding one runs in order (exact, as any serial prange).
  if (containsTry(loop->body))
    return serial("its body holds a try statement");
  if (insideTry(function.source->body, loop, false))
    return serial("it is inside a try statement, whose handlers may read how far it got when an "
                  "exception interrupted it");
  const Expr *loopVariable = loop->targets[0];
  if (loopVariable->kind != ExprKind::Name)
    return serial("its loop variable is not a single name");
  if (leavesLoop(loop->body, false))
    return serial("it can leave the loop early (break or return)");
  NameUses uses;
  uses.statements(loop->body);
  auto isVariable = [&](const std::string &name) {
    auto found = function.variableTypes.find(name);
    return found != function.variableTypes.end() && found->second;
  };
  plan.privates.push_back(loopVariable->name);
  for (const std::string &name : uses.assigned) {
    if (!isVariable(name) || name == loopVariable->name)
      continue;
    std::vector<const Stmt *> statements;
    statementsMentioning(loop->body, name, statements);
    bool isArray = function.variableTypes.at(name)->isArray();
    ReductionKind kind = ReductionKind::Add;
    bool reduction = !statements.empty();
    for (const Stmt *stmt : statements) {
      ReductionKind each;
      if (!reductionStatement(function, stmt, name, isArray, each) ||
          (stmt != statements.front() && each != kind)) {
        reduction = false;
        break;
      }
      kind = each;
    }
    if (reduction) {
      plan.reductions.push_back({name, kind});
      continue;
    }
    if (FirstAccess(function, name).block(loop->body) == Access::Read) {
      std::string spelled = pythonVariableName(name);
      return serial("variable '" + spelled +
                    "' is read before it is assigned in an iteration, so one iteration depends "
                    "on another (a reduction must be `" +
                    spelled + " += ...`, `" + spelled + " *= ...`, `" + spelled + " = min(" +
                    spelled + ", ...)` or the like, with no other use of " + spelled +
                    " in the loop)");
    }
    plan.privates.push_back(name);
  }
  for (const std::string &name : plan.privates)
    if (readAfter(function, loop, name))
      return serial("variable '" + pythonVariableName(name) +
                    "' is assigned in the loop and its value is read after the loop");
  ArrayDependences arrays = findArrayDependences(function, loop);
  if (!arrays.dependence.empty())
    return serial(arrays.dependence);
  plan.notes = std::move(arrays.undecided);
  for (const std::string &name : uses.reads)
    if (isVariable(name) && !uses.assigned.count(name) && name != loopVariable->name)
      plan.shared.push_back(name);
  plan.parallel = true;
  return plan;
}

const char *reductionName(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Add:
    return "+=";
  case ReductionKind::Multiply:
    return "*=";
  case ReductionKind::BitOr:
    return "|=";
  case ReductionKind::BitAnd:
    return "&=";
  case ReductionKind::BitXor:
    return "^=";
  case ReductionKind::Min:
    return "min";
  case ReductionKind::Max:
    return "max";
  }
  return "?";
}

} // namespace taipan
