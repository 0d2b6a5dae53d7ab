// The front end proper: a definition's `ast` and its statements to the syntax tree, node by node.
// Reading `ast` rather than bytecode keeps taipan working on each new Python release.
#include "AstReader.h"
#include "AstReading.h"

#include "GlobalResolution.h"
#include "LocalFunctions.h"
#include "Module.h"
#include "syntax/CaughtExceptions.h"
#include "syntax/VariableVersions.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace nb = nanobind;

namespace taipan::bindings {

std::string nodeKind(nb::handle node) {
  const char *name = Py_TYPE(node.ptr())->tp_name;
  const char *dot = std::strrchr(name, '.');
  return dot ? dot + 1 : name;
}

void AstReader::readDefinition(
    nb::handle function, nb::handle node, const std::vector<std::string> &captured,
    const std::map<std::string, std::vector<std::string>> &enclosingClosures,
    const std::map<std::string, std::string> &names) {
  definitionNode = node;
  closures = enclosingClosures;
  aliases = names;
  for (const std::string &name : captured)
    source.parameters.push_back({name, false, {}});
  source.definitionLocation = location(node);
  std::string kind = nodeKind(node);
  if (kind == "AsyncFunctionDef")
    throwUnsupported("async functions are not supported", source.definitionLocation);
  nb::handle arguments = node.attr("args");
  if (!arguments.attr("kwarg").is_none())
    throwUnsupported("**kwargs parameters are not supported in compiled code",
                     source.definitionLocation);
  for (nb::handle group : {arguments.attr("posonlyargs"), arguments.attr("args")})
    for (nb::handle argument : nb::cast<nb::list>(group))
      source.parameters.push_back({nb::cast<std::string>(argument.attr("arg")), false, {}});
  size_t positionalEnd = source.parameters.size();
  if (!arguments.attr("vararg").is_none()) {
    Parameter star{nb::cast<std::string>(arguments.attr("vararg").attr("arg")), false, {}};
    star.isStar = true;
    source.parameters.push_back(star);
  }
  size_t keywordOnlyStart = source.parameters.size();
  for (nb::handle argument : nb::cast<nb::list>(arguments.attr("kwonlyargs"))) {
    Parameter parameter{nb::cast<std::string>(argument.attr("arg")), false, {}};
    parameter.keywordOnly = true;
    source.parameters.push_back(parameter);
  }
  readKeywordOnlyDefaults(function, arguments, keywordOnlyStart);
  // Defaults are the values Python evaluated when the function was defined; an inner
  // function's are read from its tree (constants only).
  if (function.is_none()) {
    nb::list defaults = nb::cast<nb::list>(arguments.attr("defaults"));
    size_t first = positionalEnd - defaults.size();
    for (size_t i = 0; i < defaults.size(); ++i)
      setDefaultFromTree(source.parameters[first + i], defaults[i]);
  }
  nb::object defaults = function.is_none() ? nb::none() : function.attr("__defaults__");
  if (!defaults.is_none()) {
    nb::tuple values = nb::cast<nb::tuple>(defaults);
    size_t first = positionalEnd - values.size();
    for (size_t i = 0; i < values.size(); ++i)
      setEvaluatedDefault(source.parameters[first + i], values[i]);
  }
  if (kind == "Lambda") {
    Stmt *ret = source.newStmt(StmtKind::Return, location(node.attr("body")));
    ret->value = readExpr(node.attr("body"));
    source.body.push_back(ret);
    return;
  }
  source.body = readBlock(node.attr("body"));
  rewriteCaughtExceptions(source);
  assignVariableVersions(source); // last: after every rewrite of the tree
}

void AstReader::readKeywordOnlyDefaults(nb::handle function, nb::handle arguments, size_t start) {
  nb::list inTree = nb::cast<nb::list>(arguments.attr("kw_defaults"));
  nb::object values = function.is_none() ? nb::none() : function.attr("__kwdefaults__");
  for (size_t i = start; i < source.parameters.size(); ++i) {
    Parameter &parameter = source.parameters[i];
    if (!function.is_none()) {
      if (values.is_none() || !PyDict_Contains(values.ptr(), nb::str(parameter.name.c_str()).ptr()))
        continue;
      setEvaluatedDefault(parameter, values[nb::str(parameter.name.c_str())]);
      continue;
    }
    nb::handle node = inTree[i - start];
    if (!node.is_none())
      setDefaultFromTree(parameter, node);
  }
}

void AstReader::setEvaluatedDefault(Parameter &parameter, nb::handle value) {
  // Any other value is an argument the dispatcher passes when a Python call omits it; a call
  // from compiled code reads it, frozen, through the resolver (PythonGlobalResolver).
  if (!readConstant(value, parameter.defaultValue))
    parameter.defaultName = defaultValueName(parameter.name);
  parameter.hasDefault = true;
}

void AstReader::setDefaultFromTree(Parameter &parameter, nb::handle node) {
  Expr *value = readExpr(node);
  if (value->kind != ExprKind::Constant)
    throwUnsupported("the default value of parameter '" + parameter.name +
                         "' of an inner function must be a constant",
                     value->location);
  parameter.defaultValue = value->constant;
  parameter.hasDefault = true;
}

std::string AstReader::readLocalFunction(nb::handle node, const std::string &name,
                                         SourceLocation where) {
  if (nodeKind(node) == "FunctionDef" && nb::len(nb::object(node.attr("decorator_list"))) != 0)
    throwUnsupported("decorators on inner functions are not supported", where);
  // This function's variables include what it captured itself (its leading parameters).
  std::set<std::string> scope = localNamesOf(definitionNode);
  for (const Parameter &parameter : source.parameters)
    scope.insert(parameter.name);
  std::vector<std::string> captured = capturedNamesOf(node, scope);
  // Calling one of this function's closures from the inner function needs that closure's
  // captures too, so the inner function captures them as well.
  std::map<std::string, std::vector<std::string>> inherited;
  for (size_t i = 0; i < captured.size(); ++i) {
    auto closure = closures.find(captured[i]);
    if (closure == closures.end())
      continue;
    inherited.insert(*closure);
    for (const std::string &variable : closure->second)
      if (std::find(captured.begin(), captured.end(), variable) == captured.end())
        captured.push_back(variable);
  }
  auto inner = std::make_shared<FunctionSource>();
  std::string synthetic = localFunctions->add(inner);
  std::map<std::string, std::string> innerAliases;
  auto self = std::find(captured.begin(), captured.end(), name);
  if (!name.empty() && self != captured.end()) {
    captured.erase(self);
    innerAliases[name] = synthetic;
    if (!captured.empty())
      inherited[name] = captured;
  }
  std::string ownName =
      nodeKind(node) == "Lambda" ? "<lambda>" : nb::cast<std::string>(node.attr("name"));
  inner->name = ownName;
  inner->qualifiedName = source.qualifiedName + ".<locals>." + ownName;
  inner->filename = source.filename;
  inner->firstLine = source.firstLine;
  inner->columnOffset = source.columnOffset;
  inner->sourceLines = source.sourceLines;
  inner->options = source.options;
  inner->resolver = localFunctions;
  AstReader(*inner, localFunctions)
      .readDefinition(nb::none(), node, captured, inherited, innerAliases);
  if (!captured.empty()) {
    if (name.empty())
      throwUnsupported("a lambda that reads variables of the enclosing function ('" +
                           captured.front() + "') must be assigned to a name and called",
                       where);
    if (bindingCountsOf(definitionNode)[name] > 1 || declaredOutside.count(name))
      throwUnsupported("the inner function '" + name +
                           "' reads variables of the enclosing function and must be bound "
                           "to its name only once",
                       where);
    closures[name] = captured;
  }
  return synthetic;
}

Stmt *AstReader::bindLocalFunction(const std::string &name, nb::handle node, SourceLocation where) {
  std::string synthetic = readLocalFunction(node, name, where);
  Stmt *stmt = source.newStmt(StmtKind::Assign, where);
  Expr *target = source.newExpr(ExprKind::Name, where);
  target->name = name;
  stmt->targets.push_back(target);
  stmt->value = source.newExpr(ExprKind::Name, where);
  stmt->value->name = synthetic;
  return stmt;
}

SourceLocation AstReader::location(nb::handle node) {
  SourceLocation result;
  if (PyObject_HasAttrString(node.ptr(), "lineno")) {
    result.line = nb::cast<int>(node.attr("lineno")) - source.firstLine + 1;
    result.column = nb::cast<int>(node.attr("col_offset"));
  }
  return result;
}

std::vector<Stmt *> AstReader::readBlock(nb::handle statements) {
  std::vector<Stmt *> block;
  for (nb::handle statement : nb::cast<nb::list>(statements)) {
    Stmt *stmt = readStatement(statement);
    // Statements the one just read needs before it (hoistedIndex), in order.
    block.insert(block.end(), statementsBefore.begin(), statementsBefore.end());
    statementsBefore.clear();
    if (stmt)
      block.push_back(stmt);
  }
  return block;
}

bool AstReader::mayHaveEffects(nb::handle node) {
  for (nb::handle inner : nb::module_::import_("ast").attr("walk")(node)) {
    std::string kind = nodeKind(inner);
    if (kind == "Call" || kind == "NamedExpr" || kind == "Yield" || kind == "YieldFrom" ||
        kind == "Await")
      return true;
  }
  return false;
}

Expr *AstReader::readAugmentedTarget(nb::handle target) {
  if (nodeKind(target) != "Subscript")
    return readExpr(target);
  if (mayHaveEffects(target.attr("value")))
    throwUnsupported("an augmented assignment to an item of an expression with effects of its "
                     "own (a call) is not supported: assign the container to a variable first",
                     location(target));
  nb::handle index = target.attr("slice");
  if (nodeKind(index) == "Index") // Python 3.8's wrapper
    index = index.attr("value");
  bool slices = nodeKind(index) == "Slice";
  if (nodeKind(index) == "Tuple")
    for (nb::handle item : nb::cast<nb::list>(index.attr("elts")))
      slices |= nodeKind(item) == "Slice";
  if (!mayHaveEffects(index))
    return readExpr(target);
  SourceLocation where = location(target);
  if (slices)
    throwUnsupported("an augmented assignment to a slice whose bounds have effects of their "
                     "own (a call) is not supported: compute the bounds into variables first",
                     where);
  Stmt *assign = source.newStmt(StmtKind::Assign, where);
  Expr *hidden = source.newExpr(ExprKind::Name, where);
  hidden->name = "$index." + std::to_string(where.line) + "." + std::to_string(where.column);
  assign->targets.push_back(hidden);
  assign->value = readExpr(index);
  statementsBefore.push_back(assign);
  Expr *subscript = source.newExpr(ExprKind::Subscript, where);
  Expr *read = source.newExpr(ExprKind::Name, where);
  read->name = hidden->name;
  subscript->operands = {readExpr(target.attr("value")), read};
  return subscript;
}

BinaryOp AstReader::binaryOp(const std::string &name, SourceLocation where) {
  static const std::map<std::string, BinaryOp> table = {
      {"Add", BinaryOp::Add},        {"Sub", BinaryOp::Sub},           {"Mult", BinaryOp::Mult},
      {"Div", BinaryOp::Div},        {"FloorDiv", BinaryOp::FloorDiv}, {"Mod", BinaryOp::Mod},
      {"Pow", BinaryOp::Pow},        {"LShift", BinaryOp::LShift},     {"RShift", BinaryOp::RShift},
      {"BitAnd", BinaryOp::BitAnd},  {"BitOr", BinaryOp::BitOr},       {"BitXor", BinaryOp::BitXor},
      {"MatMult", BinaryOp::MatMult}};
  auto found = table.find(name);
  if (found == table.end())
    throwUnsupported("the operator " + name + " is not supported", where);
  return found->second;
}

Stmt *AstReader::readStatement(nb::handle node) {
  std::string kind = nodeKind(node);
  SourceLocation where = location(node);
  if (kind == "FunctionDef")
    return bindLocalFunction(nb::cast<std::string>(node.attr("name")), node, where);
  if (kind == "Assign") {
    nb::list targets = nb::cast<nb::list>(node.attr("targets"));
    if (targets.size() == 1 && nodeKind(targets[0]) == "Name" &&
        nodeKind(node.attr("value")) == "Lambda")
      return bindLocalFunction(nb::cast<std::string>(targets[0].attr("id")), node.attr("value"),
                               where);
    if (targets.size() == 1 && nodeKind(node.attr("value")) == "Yield") {
      // `x = yield v`: the yield statement with a target, which takes what send() passes
      // (lower/LowerGenerators.cpp).
      source.isGenerator = true;
      Stmt *stmt = source.newStmt(StmtKind::Yield, where);
      nb::handle yielded = node.attr("value").attr("value");
      stmt->value = readOptionalExpr(yielded);
      stmt->targets.push_back(readExpr(targets[0]));
      return stmt;
    }
    Stmt *stmt = source.newStmt(StmtKind::Assign, where);
    for (nb::handle target : nb::cast<nb::list>(node.attr("targets")))
      stmt->targets.push_back(readExpr(target));
    stmt->value = readExpr(node.attr("value"));
    return stmt;
  }
  if (kind == "AnnAssign") {
    if (node.attr("value").is_none())
      return nullptr; // a bare annotation declares nothing at run time
    Stmt *stmt = source.newStmt(StmtKind::Assign, where);
    stmt->targets.push_back(readExpr(node.attr("target")));
    stmt->value = readExpr(node.attr("value"));
    return stmt;
  }
  if (kind == "AugAssign") {
    Stmt *stmt = source.newStmt(StmtKind::AugAssign, where);
    stmt->targets.push_back(readAugmentedTarget(node.attr("target")));
    stmt->augmentedOp = binaryOp(nodeKind(node.attr("op")), where);
    stmt->value = readExpr(node.attr("value"));
    return stmt;
  }
  if (kind == "Expr") {
    nb::handle value = node.attr("value");
    std::string valueKind = nodeKind(value);
    if (valueKind == "Yield") { // a generator function (lower/LowerGenerators.cpp)
      source.isGenerator = true;
      Stmt *stmt = source.newStmt(StmtKind::Yield, where);
      stmt->value = readOptionalExpr(value.attr("value"));
      return stmt;
    }
    if (valueKind == "YieldFrom") {
      // `yield from it` is `for $v in it: yield $v` for iteration; send() of a value and
      // throw() into a generator suspended there raise instead of being passed on (the
      // hidden name marks the yield, lower/LowerGenerators.cpp).
      source.isGenerator = true;
      std::string hidden =
          "$yield_from." + std::to_string(where.line) + "." + std::to_string(where.column);
      Stmt *loop = source.newStmt(StmtKind::For, where);
      Expr *target = source.newExpr(ExprKind::Name, where);
      target->name = hidden;
      loop->targets.push_back(target);
      loop->value = readExpr(value.attr("value"));
      Stmt *yield = source.newStmt(StmtKind::Yield, where);
      yield->value = source.newExpr(ExprKind::Name, where);
      yield->value->name = hidden;
      loop->body.push_back(yield);
      return loop;
    }
    Stmt *stmt = source.newStmt(StmtKind::ExprStmt, where);
    stmt->value = readExpr(value);
    return stmt;
  }
  if (kind == "Delete") {
    // `del d[k]`, `del l[i]` and `del l[a:b]` are read as the call `d.__delitem__(k)`, which
    // dicts and lists implement (library/Dicts.cpp, Lists.cpp); other del statements stay
    // unsupported.
    nb::list targets = nb::cast<nb::list>(node.attr("targets"));
    if (targets.size() == 1 && nodeKind(targets[0]) == "Subscript") {
      Expr *method = source.newExpr(ExprKind::Attribute, where);
      method->name = "__delitem__";
      method->operands = {readExpr(targets[0].attr("value"))};
      Expr *call = source.newExpr(ExprKind::Call, where);
      call->operands = {method, readExpr(targets[0].attr("slice"))};
      Stmt *stmt = source.newStmt(StmtKind::ExprStmt, where);
      stmt->value = call;
      return stmt;
    }
  }
  if (kind == "Return") {
    Stmt *stmt = source.newStmt(StmtKind::Return, where);
    stmt->value = readOptionalExpr(node.attr("value"));
    return stmt;
  }
  if (kind == "If" || kind == "While") {
    Stmt *stmt = source.newStmt(kind == "If" ? StmtKind::If : StmtKind::While, where);
    stmt->test = readExpr(node.attr("test"));
    stmt->body = readBlock(node.attr("body"));
    stmt->orelse = readBlock(node.attr("orelse"));
    return stmt;
  }
  if (kind == "For") {
    Stmt *stmt = source.newStmt(StmtKind::For, where);
    stmt->targets.push_back(readExpr(node.attr("target")));
    stmt->value = readExpr(node.attr("iter"));
    stmt->body = readBlock(node.attr("body"));
    stmt->orelse = readBlock(node.attr("orelse"));
    return stmt;
  }
  if (kind == "Break")
    return source.newStmt(StmtKind::Break, where);
  if (kind == "Continue")
    return source.newStmt(StmtKind::Continue, where);
  if (kind == "Global" || kind == "Nonlocal") {
    for (nb::handle name : nb::cast<nb::list>(node.attr("names")))
      declaredOutside.insert(nb::cast<std::string>(name));
    return source.newStmt(StmtKind::Pass, where);
  }
  if (kind == "Pass")
    return source.newStmt(StmtKind::Pass, where);
  if (kind == "Raise") {
    Stmt *stmt = source.newStmt(StmtKind::Raise, where);
    stmt->value = readOptionalExpr(node.attr("exc"));
    return stmt;
  }
  if (kind == "Assert") {
    Stmt *stmt = source.newStmt(StmtKind::Assert, where);
    stmt->test = readExpr(node.attr("test"));
    stmt->message = readOptionalExpr(node.attr("msg"));
    return stmt;
  }
  if (kind == "Try") {
    Stmt *stmt = source.newStmt(StmtKind::Try, where);
    stmt->body = readBlock(node.attr("body"));
    for (nb::handle clause : nb::cast<nb::list>(node.attr("handlers"))) {
      ExceptHandler handler;
      handler.location = location(clause);
      handler.type = readOptionalExpr(clause.attr("type"));
      if (!clause.attr("name").is_none())
        handler.name = nb::cast<std::string>(clause.attr("name"));
      handler.body = readBlock(clause.attr("body"));
      stmt->handlers.push_back(std::move(handler));
    }
    stmt->orelse = readBlock(node.attr("orelse"));
    stmt->finalbody = readBlock(node.attr("finalbody"));
    return stmt;
  }
  static const std::map<std::string, std::string> names = {
      {"AsyncFunctionDef", "async functions"},
      {"ClassDef", "class definitions"},
      {"TryStar", "try/except*"},
      {"With", "with statements"},
      {"Delete", "del statements (but del d[key] of a dict and del l[i] of a list)"},
      {"Import", "import statements"},
      {"ImportFrom", "import statements"},
      {"Match", "match statements"},
      {"TypeAlias", "type statements"}};
  auto found = names.find(kind);
  throwUnsupported((found != names.end() ? found->second : "the statement " + kind) +
                       " are not supported in compiled code",
                   where);
}

std::shared_ptr<FunctionSource> readFunction(nb::handle function, nb::handle node,
                                             std::vector<std::string> lines,
                                             const std::string &filename, int firstLine,
                                             int columnOffset, const CompileOptions &options) {
  auto source = std::make_shared<FunctionSource>();
  source->name = nb::cast<std::string>(function.attr("__name__"));
  source->qualifiedName = nb::cast<std::string>(function.attr("__qualname__"));
  source->filename = filename;
  source->firstLine = firstLine;
  source->columnOffset = columnOffset;
  source->sourceLines = std::move(lines);
  source->options = options;
  auto localFunctions =
      std::make_shared<LocalFunctionResolver>(std::make_shared<PythonGlobalResolver>(function));
  source->resolver = localFunctions;
  try {
    AstReader(*source, localFunctions).readDefinition(function, node);
  } catch (CompileError &error) {
    // The FunctionSource dies with this frame, so the message is made while it lives.
    error.function = source.get();
    setCompileError(error);
    throw nb::python_error();
  }
  return source;
}

} // namespace taipan::bindings
