// Variable versions: a local assigned several times becomes one variable per group of
// assignments that control flow joins, so each such group has its own type (Numba's SSA rule).
#pragma once

#include "syntax/SyntaxTree.h"

#include <string>

namespace taipan {

/// Renames the local variables of `source` into versions, as Numba's SSA form and its phi nodes
/// do. Every assignment `x = ...` starts a new version of `x`, unless a join of control flow
/// (after if/else, at a loop's head, around a try statement) brings it together with another:
/// the assignments that reach one join are one variable, typed by unifying them, as Numba
/// unifies a phi node's incoming versions. The first version keeps the name (a parameter is
/// always the first); the others are named `x.1`, `x.2`, ... An augmented assignment `x += y`
/// reads one version and starts another, as Numba's `x = inplace_binop(x, y)` does, so the
/// result may have another type (`t += (1,)` of a tuple, a user type's `+=` returning a number):
/// its read is then an expression of its own (augmentedRead). Loop targets and `x = yield`
/// continue the version that reaches them, and inside try statements and prange loops a name is
/// never split (an augmented assignment there reads and writes its target). After an assignment
/// that ends another version of the same name, a release statement (see isVersionRelease) frees
/// that version's value, so `a = a * 2` keeps one array alive, not every version. Runs once, after
/// the tree is read.
///
/// A read that some path reaches without assigning the name (an `if` without `else`, a loop
/// that ran no iteration, a try body an exception left early) raises UnboundLocalError there,
/// as CPython does: the name gets a hidden boolean variable `$bound.x`, False at the start and
/// True after each assignment, and the read names it in Expr::boundFlag, which lowering checks.
/// Each such read is listed in FunctionSource::uninitializedReads (Numba's warning). A read no
/// assignment reaches keeps the name, so it has the type of the name's first version (an
/// augmented assignment there continues that version). Names whose reads are all preceded by
/// an assignment on every path get no flag: their code is unchanged.
void assignVariableVersions(FunctionSource &source);

/// What augmented assignment `stmt` reads as its target's current value: the version before
/// it, an expression of its own kept in `stmt->test` (a Name, a read for every pass that walks
/// a statement's expressions), when the assignment starts a new version of a name; otherwise
/// the target itself. Types that change in place (arrays, lists, sets) keep one type for the
/// two versions (typing/StatementInference), so they share one slot (lower/VariableSlots.h).
inline Expr *augmentedRead(const Stmt *stmt) { return stmt->test ? stmt->test : stmt->targets[0]; }

/// Whether `stmt` releases a version another assignment ended: a `pass` statement whose two
/// targets name that version and the one assigned (lowering frees the ended value and empties
/// its slot, unless both share one; typing ignores it).
inline bool isVersionRelease(const Stmt *stmt) {
  return stmt->kind == StmtKind::Pass && stmt->targets.size() == 2;
}

/// A variable's name as the source spells it: without a version's suffix (`x.2` is `x`) and
/// without the suffix copies of unrolled loops add (`x@3.4.0`). For error messages.
std::string pythonVariableName(const std::string &name);

} // namespace taipan
