// The reader of one function's `ast` tree, shared by its halves: definitions and statements in
// bindings/AstReader.cpp, expressions and comprehensions in bindings/AstExpressions.cpp.
#pragma once

#include <nanobind/nanobind.h>

#include "LocalFunctions.h"
#include "syntax/Comprehensions.h"
#include "syntax/SyntaxTree.h"

#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace taipan::bindings {

/// The class name of an ast node ("BinOp", "Add", ...).
std::string nodeKind(nanobind::handle node);

/// Reads one definition's `ast` tree into its FunctionSource, node by node.
class AstReader {
public:
  AstReader(FunctionSource &source, std::shared_ptr<LocalFunctionResolver> localFunctions)
      : source(source), localFunctions(std::move(localFunctions)) {}

  /// Reads a definition. `function` is the Python function (None for an inner function, whose
  /// defaults are read from the tree); `captured` are the enclosing function's variables an
  /// inner function reads, which become its leading parameters, and `enclosingClosures` the
  /// captures of the enclosing function's closures among them.
  void readDefinition(nanobind::handle function, nanobind::handle node,
                      const std::vector<std::string> &captured = {},
                      const std::map<std::string, std::vector<std::string>> &enclosingClosures = {},
                      const std::map<std::string, std::string> &names = {});

private:
  /// The defaults of keyword-only parameters: the function's `__kwdefaults__`, or for an inner
  /// function the constants of its tree.
  void readKeywordOnlyDefaults(nanobind::handle function, nanobind::handle arguments, size_t start);
  /// Gives `parameter` the default Python evaluated (`value`): a number, bool, None or str.
  void setEvaluatedDefault(Parameter &parameter, nanobind::handle value);
  /// Gives `parameter` the default written in an inner function's tree (`node`): a constant.
  void setDefaultFromTree(Parameter &parameter, nanobind::handle node);

  FunctionSource &source;
  std::set<std::string> declaredOutside; ///< names of `global` and `nonlocal` statements
  std::shared_ptr<LocalFunctionResolver> localFunctions;
  nanobind::handle definitionNode;
  /// Statements the statement being read needs run before it (readAugmentedTarget).
  std::vector<Stmt *> statementsBefore;
  /// This function's inner functions that capture variables, by the name they are bound to,
  /// with the variables each call passes first.
  std::map<std::string, std::vector<std::string>> closures;
  /// Names read as another: an inner function's own name, read in its body, is its synthetic
  /// name (a recursive inner function calls itself without capturing itself).
  std::map<std::string, std::string> aliases;

  /// The variables of the comprehensions being read, innermost last: each user name bound by
  /// a `for` clause, with the hidden name it is read as ("$3.i": no Python name has a '$').
  std::vector<std::map<std::string, std::string>> comprehensionScopes;
  int comprehensionCount = 0;
  /// How many of those scopes are generator expressions' (nested scopes in every Python).
  int generatorScopeDepth = 0;

  // Inner functions and statements (bindings/AstReader.cpp).
  /// Reads an inner `def` or `lambda` into a function of its own and returns the synthetic
  /// name it is bound to. Its captured variables become leading parameters that each call
  /// passes (`name` is the variable it is assigned to, "" for a lambda used in place).
  std::string readLocalFunction(nanobind::handle node, const std::string &name,
                                SourceLocation where);
  /// `name = <local function>`, the statement an inner definition becomes.
  Stmt *bindLocalFunction(const std::string &name, nanobind::handle node, SourceLocation where);
  /// The node's position in the definition's text (the tree carries the file's line numbers).
  SourceLocation location(nanobind::handle node);
  std::vector<Stmt *> readBlock(nanobind::handle statements);
  /// Whether evaluating the ast expression `node` may have effects of its own: it holds a
  /// call, an assignment expression, a yield or an await.
  static bool mayHaveEffects(nanobind::handle node);
  /// `d[k()] += v` evaluates `k()` once in Python, but the statement reads the item and then
  /// stores it, each evaluating the subscript: an index with effects of its own is evaluated
  /// into a hidden variable by a statement before it, and the subscript reads that variable.
  /// A container with effects of its own is refused (it could not be hoisted: an array's
  /// element would become a copy). Returns the target to use.
  Expr *readAugmentedTarget(nanobind::handle target);
  static BinaryOp binaryOp(const std::string &name, SourceLocation where);
  Stmt *readStatement(nanobind::handle node);

  // Expressions, comprehensions and f-strings (bindings/AstExpressions.cpp).
  const std::string *comprehensionVariable(const std::string &name) const;
  std::string aliased(const std::string &name);
  /// Binds each name of a comprehension's `for` target (a name or nested tuples of names).
  void bindComprehensionTarget(nanobind::handle target, const std::string &prefix,
                               std::map<std::string, std::string> &names);
  /// `(1, *a, x, *b)`: the concatenation `() + (1,) + a + (x,) + b`, which evaluates the items
  /// in Python's order; typing checks that each starred value is a tuple (its length, so the
  /// result's type, is then known).
  Expr *readStarredTuple(nanobind::list elements, SourceLocation where);
  /// A list comprehension, or a generator expression consumed by a builtin, read as the loop
  /// Python runs (syntax/Comprehensions.h). Python 3 scoping: the targets are the
  /// comprehension's own variables, renamed to hidden names; the first iterable is read in the
  /// enclosing scope, the rest inside. `consumer` is the builtin's name, checked when typed.
  Expr *readComprehension(nanobind::handle node, Accumulation accumulation, Expr *consumer,
                          Expr *start);
  /// `dict(zip(a, b))` and `dict(enumerate(a))`: read as `{k: v for k, v in zip(a, b)}`, whose
  /// loop iterates the arguments in step (zip() and enumerate() of arrays, lists and ranges are
  /// values only inside a for loop). nullptr for other calls.
  Expr *readDictOfPairs(nanobind::handle call, SourceLocation where);
  /// `sum(x for x in a)` and the like: a generator expression that a builtin consumes whole is
  /// read as a loop (readComprehension); sorted() sorts the list it would give, frozenset()
  /// freezes the set. nullptr when
  /// the call is not one of those.
  Expr *readGeneratorConsumer(nanobind::handle call, SourceLocation where);
  /// `sep.join(x for x in a)`: read as `sep.join([x for x in a])`, the list str.join makes
  /// first. nullptr for other calls.
  Expr *readJoinOfGenerator(nanobind::handle call, SourceLocation where);
  /// An f-string is read as str.format of a constant template: f"a{x:.3f}{s!r}" becomes
  /// "a{:.3f}{!r}".format(x, s), so there is one implementation of fields and format specs.
  Expr *readFormattedString(nanobind::handle node, SourceLocation where);
  Expr *readExpr(nanobind::handle node);
  /// readExpr of an optional operand (a raise's exception, a return's value): null for None.
  Expr *readOptionalExpr(nanobind::handle node) {
    return node.is_none() ? nullptr : readExpr(node);
  }

  // CPython's constant folding (bindings/AstExpressions.cpp, taipan/constant_folding.py).
  /// The values of folded constants, kept while an enclosing operator may fold them further.
  std::map<Expr *, nanobind::object> foldedValues;
  /// The Python value of operand `expr` (read from `node`) when it is a constant or a tuple of
  /// constants.
  bool constantValue(nanobind::handle node, Expr *expr, nanobind::object &value);
  /// `unfolded` (an operator or a subscript, whose operands were read from `operandNodes`) as
  /// the constant CPython's compiler folds it into, or `unfolded` where CPython leaves it to run.
  Expr *foldConstant(nanobind::handle node, const std::vector<nanobind::handle> &operandNodes,
                     Expr *unfolded);
  /// The tree of a folded value: a constant, a tuple of them; nullptr for a value the tree
  /// cannot hold (bytes...). An int beyond uint64, which an enclosing operator may still fold
  /// back into range (`2 ** 64 - 1`), is a name spelled with its digits: typed (only where the
  /// code is live, as Numba types CPython's constant), the resolver refuses it with Numba's
  /// "Int value is too large".
  Expr *foldedExpr(nanobind::handle value, SourceLocation where);
  /// Forgets the folded values of `expr` and its tuple's elements: an enclosing fold used them.
  void forgetFolded(Expr *expr);
};

} // namespace taipan::bindings
