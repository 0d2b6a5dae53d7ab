// What typing and the passes over statements need to know about try statements: where their
// blocks are, whether one completes, and the checks on its except clauses.
#pragma once

#include "syntax/SyntaxTree.h"

#include <functional>
#include <vector>

namespace taipan {

struct TypedFunction;

/// Calls `visit` on every block a try statement holds: its body, each handler's body, the else
/// and the finally blocks.
void forEachTryBlock(const Stmt *stmt,
                     const std::function<void(const std::vector<Stmt *> &)> &visit);

/// Whether a try statement can complete (control reaches the statement after it).
bool tryStatementCompletes(const TypedFunction &function, const Stmt *stmt);

/// Whether `block` holds a try statement anywhere (nested blocks included).
bool containsTry(const std::vector<Stmt *> &block);

/// The classes an except clause names: its one class, or the elements of its tuple.
std::vector<Expr *> handlerClasses(const ExceptHandler &handler);

} // namespace taipan
