// Copies of a loop body for `for x in literal_unroll(t)` over a heterogeneous tuple: one per
// element, each with its own expressions and its own names for the variables the body owns.
#pragma once

#include "syntax/SyntaxTree.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace taipan {

/// One copy of an unrolled loop's body: the loop's target and body, cloned with fresh
/// expressions (so each copy is typed on its own) and with the body's own variables renamed.
struct UnrolledLoopCopy {
  Expr *target = nullptr;
  std::vector<Stmt *> body;
};

/// The copies made so far of a function's unrolled loops, kept by its FunctionSource so that
/// every specialisation of the function shares them.
struct UnrolledLoopCopies {
  std::map<std::pair<const Stmt *, size_t>, UnrolledLoopCopy> copies;
  /// The statement each cloned statement was copied from (an original is its own origin).
  std::map<const Stmt *, const Stmt *> origins;
  /// The names each original loop renames in its copies (see unrolledLoopCopy).
  std::map<const Stmt *, std::set<std::string>> renamed;
};

/// Copy `index` of the body of the for loop `loop`, made once and then reused. A variable is
/// renamed in each copy (`x` becomes `x@<line>.<column>.<index>`, so each copy types it on its
/// own) when the loop owns it: it is the loop's target or assigned in its body, it is never
/// named outside the loop's body, and the body assigns it before every read (so no value
/// crosses from one element's copy to the next). Other variables keep their names and unify
/// across the copies, as a loop variable would.
const UnrolledLoopCopy &unrolledLoopCopy(FunctionSource &source, const Stmt *loop, size_t index);

/// A name as the source spells it, without the suffixes copies of unrolled loops add.
std::string originalName(const std::string &name);

} // namespace taipan
