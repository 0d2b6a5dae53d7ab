// Comprehensions read as loops: a list comprehension, or a generator expression that a builtin
// consumes whole, becomes the statements of an ExprKind::Comprehension node (SyntaxTree.h).
#pragma once

#include "syntax/SyntaxTree.h"

#include <string>
#include <vector>

namespace taipan {

/// What a comprehension's loop makes of its elements: a list, or a builtin's result.
enum class Accumulation { List, Set, Dict, Sum, Any, All, Min, Max };

/// One `for` clause: its target (naming the comprehension's hidden variables), its iterable
/// and its `if` conditions.
struct ComprehensionClause {
  Expr *target;
  Expr *iterable;
  std::vector<Expr *> conditions;
};

/// The Comprehension node of the loop Python runs, building its value in the hidden variable
/// `result`: `[e for x in a if c]` is `result = []; for x in a: if c: result.append(e)`;
/// sum starts from `start` (or 0) and adds; any and all stop at their answer, leaving the
/// outer clauses' loops too; min and max keep the first item and each strictly smaller
/// (larger) one, and raise ValueError when there is none. `consumer`, the builtin's name or
/// null, becomes the node's operand. A dict stores `result[key] = value` with `element` the key
/// and `value` the value, evaluated in that order (Python 3.8's); without `value` (`dict(<pairs
/// generator>)`) the element is unpacked into the key and the value.
Expr *buildComprehension(FunctionSource &source, SourceLocation where, const std::string &result,
                         Accumulation accumulation, std::vector<ComprehensionClause> clauses,
                         Expr *element, Expr *consumer, Expr *start, Expr *value = nullptr);

} // namespace taipan
