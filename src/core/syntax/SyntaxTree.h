// The compiler's own syntax tree for one Python function, read from Python's `ast` module.
// It mirrors the subset of `ast` that taipan compiles; every node keeps its source location.
#pragma once

#include "support/CompileError.h"
#include "support/Operators.h"
#include "syntax/CompileOptions.h"

#include <complex>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace taipan {

class GlobalResolver;
struct UnrolledLoopCopies;

/// A literal from the source, or a value frozen from a global or closure variable.
struct Constant {
  /// Bytes: a bytes literal (`b"XYZ"`), its bytes in `text`, typed as Numba's CharSeq.
  enum class Kind { Int, UInt, Float, Complex, Bool, None, String, Ellipsis, Bytes };
  Kind kind = Kind::None;
  int64_t intValue = 0; ///< Int, UInt (as bits) and Bool
  double floatValue = 0.0;
  double imagValue = 0.0;
  std::string text; ///< String (UTF-8) and Bytes
};

enum class ExprKind {
  Name,      ///< name
  Constant,  ///< constant
  BinOp,     ///< operands[0] op operands[1]
  UnaryOp,   ///< op operands[0]
  BoolOp,    ///< operands joined by `and` (isAnd) or `or`
  Compare,   ///< operands[0] compareOps[0] operands[1] ...
  IfExp,     ///< operands: test, body, orelse
  Call,      ///< operands[0] is the callee, then positional arguments, then keyword values
  Attribute, ///< operands[0].name
  Subscript, ///< operands[0][operands[1]]
  Tuple,     ///< operands are the elements
  List,      ///< operands are the elements
  Dict,      ///< operands are the keys and values in turn: k0, v0, k1, v1, ...
  Set,       ///< operands are the keys: `{a, b}` (a set comprehension starts from none)
  Slice,     ///< operands: lower, upper, step (each may be null)
  /// A list comprehension, or a generator expression a builtin consumes (`sum(x for x in a)`),
  /// read as a loop that builds the result in a hidden variable: `statements` run, then the
  /// value is variable `name`'s. operands: the consumer's name (a Name, checked to be that
  /// builtin when typed), or none for a list comprehension.
  Comprehension,
};

struct Stmt;

/// The scope CPython reads a name in, which decides the error of reading it unassigned: the
/// function's own (UnboundLocalError); a list, set or dict comprehension's (a nested scope
/// before Python 3.12, which inlines them); a generator expression's or an inner function's
/// (always nested: NameError, the variable being a free one there).
enum class ReadScope { Function, Comprehension, Nested };

/// One expression node. A single struct with a kind keeps the reader and the passes simple.
struct Expr {
  ExprKind kind;
  SourceLocation location;
  int id = 0; ///< dense index, used by side tables of later stages
  std::string name;
  Constant constant;
  BinaryOp binaryOp = BinaryOp::Add;
  UnaryOp unaryOp = UnaryOp::Neg;
  bool isAnd = false;
  std::vector<CompareOp> compareOps;
  std::vector<Expr *> operands;
  std::vector<std::string> keywordNames; ///< Call: names of the trailing keyword operands
  std::vector<Stmt *> statements;        ///< Comprehension: the loop building the value
  /// Call: the operand passed as `*operand` (a tuple spread into positional arguments; the last
  /// positional one), or 0 for none.
  size_t starredOperand = 0;
  /// Name: for a read that some path reaches without assigning the name, the hidden boolean
  /// variable saying whether it holds a value (syntax/VariableVersions.h); lowering raises
  /// UnboundLocalError when it is false. Empty where every path assigns first: no check.
  std::string boundFlag;
  ReadScope readScope = ReadScope::Function; ///< Name: where CPython reads it

  Expr *callee() const { return operands[0]; }
  size_t positionalCount() const { return operands.size() - 1 - keywordNames.size(); }
};

enum class StmtKind {
  Assign,
  AugAssign,
  ExprStmt,
  Return,
  If,
  While,
  For,
  Break,
  Continue,
  Pass,
  Raise,
  Assert,
  Try,  ///< body, handlers, orelse (runs when the body raised nothing), finalbody
  Yield ///< `yield value` as a statement (value null for a bare `yield`)
};

struct Stmt;

/// One `except` clause of a try statement.
struct ExceptHandler {
  SourceLocation location;
  Expr *type = nullptr; ///< the class, or a tuple of classes; null for a bare `except:`
  std::string name;     ///< the name of `except ... as name`, or ""
  std::vector<Stmt *> body;
};

/// One statement node.
struct Stmt {
  StmtKind kind;
  SourceLocation location;
  std::vector<Expr *> targets; ///< Assign targets; AugAssign and For use targets[0]
  Expr *value = nullptr;       ///< assigned value, returned value, raised exception, iterable
  Expr *test = nullptr;        ///< If/While/Assert condition
  Expr *message = nullptr;     ///< Assert message
  BinaryOp augmentedOp = BinaryOp::Add;
  std::vector<Stmt *> body;
  std::vector<Stmt *> orelse;
  std::vector<ExceptHandler> handlers; ///< Try
  std::vector<Stmt *> finalbody;       ///< Try
};

/// A parameter of the function: its name and, when it has one, its default value. The order is
/// Python's: positional parameters, then `*args` (isStar: a tuple of the extra positional
/// arguments), then keyword-only ones.
struct Parameter {
  std::string name;
  bool hasDefault = false;
  Constant defaultValue;
  /// A default that is not a constant (a tuple, an array, a named tuple, a function): the name
  /// under which the function's resolver gives its value, frozen as Python evaluated it at the
  /// definition; empty for a constant default (defaultValue) or none.
  std::string defaultName;
  bool isStar = false;
  bool keywordOnly = false;
};

/// Everything the compiler knows about one Python function: its tree, where it came from,
/// and how to resolve the names it does not define.
class FunctionSource {
public:
  FunctionSource();
  ~FunctionSource();

  std::string name;
  std::string qualifiedName;
  std::string filename;
  int firstLine = 1;                    ///< line in `filename` of the parsed text's line 1
  int columnOffset = 0;                 ///< indentation removed before parsing
  std::vector<std::string> sourceLines; ///< the original lines, for error messages
  std::vector<Parameter> parameters;
  std::vector<Stmt *> body;
  /// The body holds a yield statement: calling the function makes a generator.
  bool isGenerator = false;
  SourceLocation definitionLocation;
  CompileOptions options;
  std::shared_ptr<GlobalResolver> resolver;
  /// The copies of loop bodies `literal_unroll` made (syntax/LoopUnrolling.h), or null.
  std::shared_ptr<UnrolledLoopCopies> unrolledLoops;
  /// Each read of a local that some path reaches without assigning it (the name as the source
  /// spells it, and where), for Numba's "Detected uninitialized variable" warning.
  std::vector<std::pair<std::string, SourceLocation>> uninitializedReads;

  /// The line in `filename` of line `parsedLine` of the parsed text.
  int fileLine(int parsedLine) const { return firstLine + parsedLine - 1; }

  Expr *newExpr(ExprKind kind, SourceLocation location);
  /// An expression typing adds to the tree (the tuple a call packs for `*args`, the items of a
  /// `*t` argument): made once per (owner expression, index) and then reused, so every
  /// specialisation of the function sees the same node.
  Expr *syntheticExpr(int owner, int index, ExprKind kind, SourceLocation location, bool &made);
  Stmt *newStmt(StmtKind kind, SourceLocation location);
  int expressionCount() const { return static_cast<int>(expressions.size()); }

  /// The text of a line of the original file, or "" when it is not known.
  std::string lineText(int line) const;

private:
  std::deque<Expr> expressions;
  std::map<std::pair<int, int>, Expr *> synthetic;
  std::deque<Stmt> statements;
};

const char *binaryOpSymbol(BinaryOp op);
const char *compareOpSymbol(CompareOp op);

} // namespace taipan
