// Copies of a loop body for `for x in literal_unroll(t)` over a heterogeneous tuple: one per
// element, each with its own expressions and its own names for the variables the body owns.
#include "syntax/LoopUnrolling.h"
#include "syntax/VariableVersions.h"

#include <functional>
#include <optional>

namespace taipan {
namespace {

/// Which variables a loop body assigns, and which it may read before assigning them (along
/// some path through the body: such a value can come from the previous iteration).
struct BodyScan {
  std::set<std::string> assigned;
  std::set<std::string> readFirst;

  void read(const Expr *expr, const std::set<std::string> &definite) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name && !definite.count(expr->name))
      readFirst.insert(expr->name);
    if (!expr->boundFlag.empty() && !definite.count(expr->boundFlag))
      readFirst.insert(expr->boundFlag); // the read checks it (syntax/VariableVersions.h)
    if (expr->kind == ExprKind::Comprehension) {
      std::set<std::string> inner = block(expr->statements, definite);
      if (!inner.count(expr->name))
        readFirst.insert(expr->name);
    }
    for (const Expr *operand : expr->operands)
      read(operand, definite);
  }

  void store(const Expr *target, std::set<std::string> &definite) {
    if (target->kind == ExprKind::Name) {
      assigned.insert(target->name);
      definite.insert(target->name);
    } else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
      for (const Expr *element : target->operands)
        store(element, definite);
    } else {
      read(target, definite); // a subscript or attribute store reads its base and index
    }
  }

  /// Scans `statements`, starting where `definite` names are surely assigned; returns the
  /// names surely assigned after them.
  std::set<std::string> block(const std::vector<Stmt *> &statements,
                              std::set<std::string> definite) {
    for (const Stmt *stmt : statements) {
      switch (stmt->kind) {
      case StmtKind::Assign:
        read(stmt->value, definite);
        for (const Expr *target : stmt->targets)
          store(target, definite);
        break;
      case StmtKind::AugAssign:
        read(augmentedRead(stmt), definite); // the version before it (VariableVersions.h)
        read(stmt->value, definite);
        store(stmt->targets[0], definite);
        break;
      case StmtKind::ExprStmt:
      case StmtKind::Return:
      case StmtKind::Raise:
      case StmtKind::Yield:
        read(stmt->value, definite);
        break;
      case StmtKind::Assert:
        read(stmt->test, definite);
        read(stmt->message, definite);
        break;
      case StmtKind::If: {
        read(stmt->test, definite);
        std::set<std::string> body = block(stmt->body, definite);
        std::set<std::string> orelse = block(stmt->orelse, definite);
        for (const std::string &name : body)
          if (orelse.count(name))
            definite.insert(name);
        break;
      }
      case StmtKind::While:
        read(stmt->test, definite);
        block(stmt->body, definite);
        block(stmt->orelse, definite);
        break;
      case StmtKind::For: {
        read(stmt->value, definite);
        std::set<std::string> inner = definite;
        store(stmt->targets[0], inner);
        block(stmt->body, inner);
        block(stmt->orelse, definite);
        break;
      }
      case StmtKind::Try: {
        std::set<std::string> body = block(stmt->body, definite);
        for (const ExceptHandler &handler : stmt->handlers) {
          std::set<std::string> caught = definite;
          read(handler.type, caught);
          if (!handler.name.empty()) {
            assigned.insert(handler.name);
            caught.insert(handler.name);
          }
          block(handler.body, caught);
        }
        block(stmt->orelse, body);
        block(stmt->finalbody, definite);
        break;
      }
      case StmtKind::Break:
      case StmtKind::Continue:
      case StmtKind::Pass:
        break;
      }
    }
    return definite;
  }
};

/// Every name `statements` mention, except inside the body of `skipped`.
void collectNames(const std::vector<Stmt *> &statements, const Stmt *skipped,
                  std::set<std::string> &names) {
  std::function<void(const Expr *)> visit = [&](const Expr *expr) {
    if (!expr)
      return;
    if (expr->kind == ExprKind::Name || expr->kind == ExprKind::Comprehension)
      names.insert(expr->name);
    if (!expr->boundFlag.empty())
      names.insert(expr->boundFlag);
    if (expr->kind == ExprKind::Comprehension)
      collectNames(expr->statements, skipped, names);
    for (const Expr *operand : expr->operands)
      visit(operand);
  };
  for (const Stmt *stmt : statements) {
    if (stmt == skipped) {
      visit(stmt->value); // the iterable; the target and body are the loop's own
      collectNames(stmt->orelse, skipped, names);
      continue;
    }
    for (const Expr *target : stmt->targets)
      visit(target);
    visit(stmt->value);
    visit(stmt->test);
    visit(stmt->message);
    collectNames(stmt->body, skipped, names);
    collectNames(stmt->orelse, skipped, names);
    for (const ExceptHandler &handler : stmt->handlers) {
      visit(handler.type);
      names.insert(handler.name);
      collectNames(handler.body, skipped, names);
    }
    collectNames(stmt->finalbody, skipped, names);
  }
}

/// Where a statement sits: the block holding it, its position there, and the statement whose
/// body (or else branch) that block is (nullptr for the function's body).
struct Placement {
  const std::vector<Stmt *> *block;
  size_t position;
  const Stmt *parent;
};

/// The placements from the function's body down to `target` (outermost first); false when
/// `target` is not among `statements` or the blocks below them.
bool findPath(const std::vector<Stmt *> &statements, const Stmt *parent, const Stmt *target,
              std::vector<Placement> &path) {
  for (size_t i = 0; i < statements.size(); ++i) {
    const Stmt *stmt = statements[i];
    path.push_back({&statements, i, parent});
    if (stmt == target)
      return true;
    std::vector<const std::vector<Stmt *> *> blocks = {&stmt->body, &stmt->orelse,
                                                       &stmt->finalbody};
    for (const ExceptHandler &handler : stmt->handlers)
      blocks.push_back(&handler.body);
    for (const std::vector<Stmt *> *block : blocks)
      if (findPath(*block, stmt, target, path))
        return true;
    path.pop_back();
  }
  return false;
}

/// The names that may be read, before being assigned again, once `loop` has finished (its else
/// branch, the statements after it, another iteration of a loop around it): the variables whose
/// value can leave the loop. nullopt when the loop sits in a try statement (an exception can
/// leave from anywhere) or was not found.
std::optional<std::set<std::string>> liveAfterLoop(const FunctionSource &source, const Stmt *loop) {
  std::vector<Placement> path;
  if (!findPath(source.body, nullptr, loop, path))
    return std::nullopt;
  BodyScan scan;
  std::set<std::string> definite;
  scan.block(loop->orelse, definite);
  for (size_t level = path.size(); level-- > 0;) {
    const Placement &placement = path[level];
    std::vector<Stmt *> rest(placement.block->begin() + placement.position + 1,
                             placement.block->end());
    scan.block(rest, definite);
    const Stmt *parent = placement.parent;
    if (!parent)
      break;
    if (parent->kind == StmtKind::Try)
      return std::nullopt;
    bool inLoopBody = (parent->kind == StmtKind::For || parent->kind == StmtKind::While) &&
                      placement.block == &parent->body;
    if (inLoopBody) { // the next iteration, then (on leaving) the loop's else branch
      std::set<std::string> again = definite;
      if (parent->kind == StmtKind::While)
        scan.read(parent->test, again);
      else
        scan.store(parent->targets[0], again);
      scan.block(parent->body, again);
      scan.block(parent->orelse, definite);
    }
  }
  return scan.readFirst;
}

/// The names an original loop renames in its copies (see unrolledLoopCopy): those its body
/// assigns before reading, whose values do not leave the loop either. Where that cannot be
/// told (a try statement around it), only names never mentioned outside the loop's body.
std::set<std::string> ownedNames(const FunctionSource &source, const Stmt *loop) {
  BodyScan scan;
  std::set<std::string> definite;
  scan.store(loop->targets[0], definite);
  scan.block(loop->body, definite);
  std::set<std::string> outside;
  for (const Parameter &parameter : source.parameters)
    outside.insert(parameter.name);
  if (std::optional<std::set<std::string>> live = liveAfterLoop(source, loop))
    outside.insert(live->begin(), live->end());
  else
    collectNames(source.body, loop, outside);
  std::set<std::string> owned;
  for (const std::string &name : scan.assigned)
    if (!scan.readFirst.count(name) && !outside.count(name))
      owned.insert(name);
  return owned;
}

/// Clones statements and expressions into one copy of an unrolled loop.
class Cloner {
public:
  Cloner(FunctionSource &source, UnrolledLoopCopies &cache, const std::set<std::string> &owned,
         std::string suffix)
      : source(source), cache(cache), owned(owned), suffix(std::move(suffix)) {}

  Expr *expr(const Expr *original) {
    if (!original)
      return nullptr;
    Expr *copy = source.newExpr(original->kind, original->location);
    int id = copy->id;
    *copy = *original;
    copy->id = id;
    if (original->kind == ExprKind::Name || original->kind == ExprKind::Comprehension)
      copy->name = rename(original->name);
    for (Expr *&operand : copy->operands)
      operand = expr(operand);
    copy->statements = block(original->statements);
    return copy;
  }

  std::vector<Stmt *> block(const std::vector<Stmt *> &statements) {
    std::vector<Stmt *> copies;
    for (const Stmt *stmt : statements)
      copies.push_back(statement(stmt));
    return copies;
  }

private:
  FunctionSource &source;
  UnrolledLoopCopies &cache;
  const std::set<std::string> &owned;
  std::string suffix;

  std::string rename(const std::string &name) {
    return owned.count(originalName(name)) ? name + suffix : name;
  }

  Stmt *statement(const Stmt *original) {
    Stmt *copy = source.newStmt(original->kind, original->location);
    copy->augmentedOp = original->augmentedOp;
    for (const Expr *target : original->targets)
      copy->targets.push_back(expr(target));
    copy->value = expr(original->value);
    copy->test = expr(original->test);
    copy->message = expr(original->message);
    copy->body = block(original->body);
    copy->orelse = block(original->orelse);
    for (const ExceptHandler &handler : original->handlers) {
      ExceptHandler cloned;
      cloned.location = handler.location;
      cloned.type = expr(handler.type);
      cloned.name = handler.name.empty() ? "" : rename(handler.name);
      cloned.body = block(handler.body);
      copy->handlers.push_back(std::move(cloned));
    }
    copy->finalbody = block(original->finalbody);
    auto origin = cache.origins.find(original);
    cache.origins[copy] = origin == cache.origins.end() ? original : origin->second;
    return copy;
  }
};

} // namespace

std::string originalName(const std::string &name) { return name.substr(0, name.find('@')); }

const UnrolledLoopCopy &unrolledLoopCopy(FunctionSource &source, const Stmt *loop, size_t index) {
  if (!source.unrolledLoops)
    source.unrolledLoops = std::make_shared<UnrolledLoopCopies>();
  UnrolledLoopCopies &cache = *source.unrolledLoops;
  auto found = cache.copies.find({loop, index});
  if (found != cache.copies.end())
    return found->second;
  auto originFound = cache.origins.find(loop);
  const Stmt *origin = originFound == cache.origins.end() ? loop : originFound->second;
  auto owned = cache.renamed.find(origin);
  if (owned == cache.renamed.end())
    owned = cache.renamed.emplace(origin, ownedNames(source, origin)).first;
  std::string suffix = "@" + std::to_string(origin->location.line) + "." +
                       std::to_string(origin->location.column) + "." + std::to_string(index);
  Cloner cloner(source, cache, owned->second, suffix);
  UnrolledLoopCopy copy;
  copy.target = cloner.expr(loop->targets[0]);
  copy.body = cloner.block(loop->body);
  return cache.copies.emplace(std::make_pair(loop, index), std::move(copy)).first->second;
}

} // namespace taipan
