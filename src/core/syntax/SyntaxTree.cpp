// FunctionSource storage and operator spellings.
#include "syntax/SyntaxTree.h"

namespace taipan {

// The resolver is held by shared_ptr, whose deleter was made where it was created: destroying
// a FunctionSource needs no definition of GlobalResolver, so syntax/ stays below typing/.
FunctionSource::FunctionSource() = default;
FunctionSource::~FunctionSource() = default;

Expr *FunctionSource::syntheticExpr(int owner, int index, ExprKind kind, SourceLocation location,
                                    bool &made) {
  Expr *&slot = synthetic[{owner, index}];
  made = !slot;
  if (!slot)
    slot = newExpr(kind, location);
  return slot;
}

Expr *FunctionSource::newExpr(ExprKind kind, SourceLocation location) {
  Expr &expr = expressions.emplace_back();
  expr.kind = kind;
  expr.location = location;
  expr.id = static_cast<int>(expressions.size()) - 1;
  return &expr;
}

Stmt *FunctionSource::newStmt(StmtKind kind, SourceLocation location) {
  Stmt &stmt = statements.emplace_back();
  stmt.kind = kind;
  stmt.location = location;
  return &stmt;
}

std::string FunctionSource::lineText(int line) const {
  if (line < 1 || line > static_cast<int>(sourceLines.size()))
    return "";
  return sourceLines[line - 1];
}

const char *binaryOpSymbol(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mult:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::LShift:
    return "<<";
  case BinaryOp::RShift:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::MatMult:
    return "@";
  }
  return "?";
}

const char *compareOpSymbol(CompareOp op) {
  switch (op) {
  case CompareOp::Eq:
    return "==";
  case CompareOp::NotEq:
    return "!=";
  case CompareOp::Lt:
    return "<";
  case CompareOp::LtE:
    return "<=";
  case CompareOp::Gt:
    return ">";
  case CompareOp::GtE:
    return ">=";
  case CompareOp::Is:
    return "is";
  case CompareOp::IsNot:
    return "is not";
  case CompareOp::In:
    return "in";
  case CompareOp::NotIn:
    return "not in";
  }
  return "?";
}

} // namespace taipan
