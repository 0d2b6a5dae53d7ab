// SyntaxBuilder.h - Builds FunctionSource syntax trees by hand for the typing and compiler tests,
// and a GlobalResolver stub that answers from tables the test fills in.
#pragma once

#include "syntax/SyntaxTree.h"
#include "typing/GlobalResolver.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace taipan::test {

inline Constant intConstant(int64_t value) {
  Constant constant;
  constant.kind = Constant::Kind::Int;
  constant.intValue = value;
  return constant;
}

inline Constant floatConstant(double value) {
  Constant constant;
  constant.kind = Constant::Kind::Float;
  constant.floatValue = value;
  return constant;
}

inline Constant boolConstant(bool value) {
  Constant constant;
  constant.kind = Constant::Kind::Bool;
  constant.intValue = value ? 1 : 0;
  return constant;
}

inline Constant stringConstant(const std::string &text) {
  Constant constant;
  constant.kind = Constant::Kind::String;
  constant.text = text;
  return constant;
}

inline GlobalValue moduleValue(const std::string &name) {
  GlobalValue value;
  value.kind = GlobalValue::Kind::Module;
  value.name = name;
  return value;
}

inline GlobalValue builtinValue(const std::string &qualifiedName) {
  GlobalValue value;
  value.kind = GlobalValue::Kind::Builtin;
  value.name = qualifiedName;
  return value;
}

inline GlobalValue constantValue(const Constant &constant) {
  GlobalValue value;
  value.kind = GlobalValue::Kind::Constant;
  value.constant = constant;
  return value;
}

/// Resolves names and module attributes from maps; everything else is Missing. The function
/// being compiled can refer to itself by `selfName` (recursion) without a reference cycle.
class MapResolver : public GlobalResolver {
public:
  std::map<std::string, GlobalValue> names;
  /// Keyed by "module.attribute".
  std::map<std::string, GlobalValue> attributes;
  std::string selfName;
  std::weak_ptr<FunctionSource> self;

  GlobalValue resolveName(const std::string &name) override {
    if (!selfName.empty() && name == selfName) {
      GlobalValue value;
      value.kind = GlobalValue::Kind::JitFunction;
      value.name = name;
      value.function = self.lock();
      return value;
    }
    auto found = names.find(name);
    return found == names.end() ? GlobalValue{} : found->second;
  }

  GlobalValue resolveAttribute(const GlobalValue &module, const std::string &attribute) override {
    auto found = attributes.find(module.name + "." + attribute);
    return found == attributes.end() ? GlobalValue{} : found->second;
  }
};

/// Creates the nodes of one function. Each node takes the builder's current location, which
/// `at` moves, so tests can check where an error points.
class SyntaxBuilder {
public:
  explicit SyntaxBuilder(const std::string &name, const std::vector<std::string> &parameters = {})
      : source(std::make_shared<FunctionSource>()), resolver(std::make_shared<MapResolver>()) {
    source->name = name;
    source->qualifiedName = name;
    source->filename = "<test>";
    source->definitionLocation = {1, 0};
    for (const std::string &parameter : parameters) {
      Parameter entry;
      entry.name = parameter;
      source->parameters.push_back(entry);
    }
    source->resolver = resolver;
    resolver->self = source;
  }

  std::shared_ptr<FunctionSource> source;
  std::shared_ptr<MapResolver> resolver;

  void at(int line, int column = 0) { here = {line, column}; }

  /// Appends statements to the function body.
  void body(const std::vector<Stmt *> &statements) {
    source->body.insert(source->body.end(), statements.begin(), statements.end());
  }

  Expr *name(const std::string &identifier) {
    Expr *expr = source->newExpr(ExprKind::Name, here);
    expr->name = identifier;
    return expr;
  }

  Expr *constant(const Constant &value) {
    Expr *expr = source->newExpr(ExprKind::Constant, here);
    expr->constant = value;
    return expr;
  }
  Expr *integer(int64_t value) { return constant(intConstant(value)); }
  Expr *floating(double value) { return constant(floatConstant(value)); }
  Expr *boolean(bool value) { return constant(boolConstant(value)); }

  Expr *binary(BinaryOp op, Expr *left, Expr *right) {
    Expr *expr = source->newExpr(ExprKind::BinOp, here);
    expr->binaryOp = op;
    expr->operands = {left, right};
    return expr;
  }

  Expr *unary(UnaryOp op, Expr *operand) {
    Expr *expr = source->newExpr(ExprKind::UnaryOp, here);
    expr->unaryOp = op;
    expr->operands = {operand};
    return expr;
  }

  Expr *compare(CompareOp op, Expr *left, Expr *right) {
    Expr *expr = source->newExpr(ExprKind::Compare, here);
    expr->compareOps = {op};
    expr->operands = {left, right};
    return expr;
  }

  Expr *tuple(const std::vector<Expr *> &elements) {
    Expr *expr = source->newExpr(ExprKind::Tuple, here);
    expr->operands = elements;
    return expr;
  }

  Expr *subscript(Expr *base, Expr *index) {
    Expr *expr = source->newExpr(ExprKind::Subscript, here);
    expr->operands = {base, index};
    return expr;
  }

  Expr *attribute(Expr *base, const std::string &attributeName) {
    Expr *expr = source->newExpr(ExprKind::Attribute, here);
    expr->name = attributeName;
    expr->operands = {base};
    return expr;
  }

  Expr *call(Expr *callee, const std::vector<Expr *> &arguments) {
    Expr *expr = source->newExpr(ExprKind::Call, here);
    expr->operands = {callee};
    expr->operands.insert(expr->operands.end(), arguments.begin(), arguments.end());
    return expr;
  }

  Stmt *assign(Expr *target, Expr *value) {
    Stmt *stmt = source->newStmt(StmtKind::Assign, here);
    stmt->targets = {target};
    stmt->value = value;
    return stmt;
  }
  Stmt *assign(const std::string &target, Expr *value) { return assign(name(target), value); }

  Stmt *augAssign(const std::string &target, BinaryOp op, Expr *value) {
    Stmt *stmt = source->newStmt(StmtKind::AugAssign, here);
    stmt->targets = {name(target)};
    stmt->augmentedOp = op;
    stmt->value = value;
    return stmt;
  }

  Stmt *ret(Expr *value) {
    Stmt *stmt = source->newStmt(StmtKind::Return, here);
    stmt->value = value;
    return stmt;
  }

  Stmt *ifStmt(Expr *test, const std::vector<Stmt *> &then,
               const std::vector<Stmt *> &orelse = {}) {
    Stmt *stmt = source->newStmt(StmtKind::If, here);
    stmt->test = test;
    stmt->body = then;
    stmt->orelse = orelse;
    return stmt;
  }

  Stmt *whileLoop(Expr *test, const std::vector<Stmt *> &loopBody) {
    Stmt *stmt = source->newStmt(StmtKind::While, here);
    stmt->test = test;
    stmt->body = loopBody;
    return stmt;
  }

  Stmt *forLoop(Expr *target, Expr *iterable, const std::vector<Stmt *> &loopBody) {
    Stmt *stmt = source->newStmt(StmtKind::For, here);
    stmt->targets = {target};
    stmt->value = iterable;
    stmt->body = loopBody;
    return stmt;
  }

  Stmt *simple(StmtKind kind) { return source->newStmt(kind, here); }

private:
  SourceLocation here{1, 0};
};

} // namespace taipan::test
