// The front end proper: Python `ast` objects to the syntax tree, node by node. Reading the
// `ast` module rather than bytecode keeps taipan working on each new Python release.
#include "AstReader.h"

#include "GlobalResolution.h"
#include "LocalFunctions.h"
#include "Module.h"
#include "syntax/CaughtExceptions.h"

#include "syntax/Comprehensions.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

/// The class name of an ast node ("BinOp", "Add", ...).
std::string nodeKind(nb::handle node) {
  const char *name = Py_TYPE(node.ptr())->tp_name;
  const char *dot = std::strrchr(name, '.');
  return dot ? dot + 1 : name;
}

class AstReader {
public:
  AstReader(FunctionSource &source, std::shared_ptr<LocalFunctionResolver> localFunctions)
      : source(source), localFunctions(std::move(localFunctions)) {}

  /// Reads a definition. `function` is the Python function (None for an inner function, whose
  /// defaults are read from the tree); `captured` are the enclosing function's variables an
  /// inner function reads, which become its leading parameters, and `enclosingClosures` the
  /// captures of the enclosing function's closures among them.
  void readDefinition(nb::handle function, nb::handle node,
                      const std::vector<std::string> &captured = {},
                      const std::map<std::string, std::vector<std::string>> &enclosingClosures = {},
                      const std::map<std::string, std::string> &names = {}) {
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
      for (size_t i = 0; i < defaults.size(); ++i) {
        Parameter &parameter = source.parameters[first + i];
        Expr *value = readExpr(defaults[i]);
        if (value->kind != ExprKind::Constant)
          throwUnsupported("the default value of parameter '" + parameter.name +
                               "' of an inner function must be a constant",
                           value->location);
        parameter.defaultValue = value->constant;
        parameter.hasDefault = true;
      }
    }
    nb::object defaults = function.is_none() ? nb::none() : function.attr("__defaults__");
    if (!defaults.is_none()) {
      nb::tuple values = nb::cast<nb::tuple>(defaults);
      size_t first = positionalEnd - values.size();
      for (size_t i = 0; i < values.size(); ++i) {
        Parameter &parameter = source.parameters[first + i];
        if (!readConstant(values[i], parameter.defaultValue))
          throwUnsupported("the default value of parameter '" + parameter.name +
                               "' must be a number, bool, None or str",
                           source.definitionLocation);
        parameter.hasDefault = true;
      }
    }
    if (kind == "Lambda") {
      Stmt *ret = source.newStmt(StmtKind::Return, location(node.attr("body")));
      ret->value = readExpr(node.attr("body"));
      source.body.push_back(ret);
      return;
    }
    source.body = readBlock(node.attr("body"));
    rewriteCaughtExceptions(source);
  }

private:
  /// The defaults of keyword-only parameters: the function's `__kwdefaults__`, or for an inner
  /// function the constants of its tree.
  void readKeywordOnlyDefaults(nb::handle function, nb::handle arguments, size_t start) {
    nb::list inTree = nb::cast<nb::list>(arguments.attr("kw_defaults"));
    nb::object values = function.is_none() ? nb::none() : function.attr("__kwdefaults__");
    for (size_t i = start; i < source.parameters.size(); ++i) {
      Parameter &parameter = source.parameters[i];
      if (!function.is_none()) {
        if (values.is_none() ||
            !PyDict_Contains(values.ptr(), nb::str(parameter.name.c_str()).ptr()))
          continue;
        if (!readConstant(values[nb::str(parameter.name.c_str())], parameter.defaultValue))
          throwUnsupported("the default value of parameter '" + parameter.name +
                               "' must be a number, bool, None or str",
                           source.definitionLocation);
        parameter.hasDefault = true;
        continue;
      }
      nb::handle node = inTree[i - start];
      if (node.is_none())
        continue;
      Expr *value = readExpr(node);
      if (value->kind != ExprKind::Constant)
        throwUnsupported("the default value of parameter '" + parameter.name +
                             "' of an inner function must be a constant",
                         value->location);
      parameter.defaultValue = value->constant;
      parameter.hasDefault = true;
    }
  }

  FunctionSource &source;
  std::set<std::string> declaredOutside; ///< names of `global` and `nonlocal` statements
  std::shared_ptr<LocalFunctionResolver> localFunctions;
  nb::handle definitionNode;
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

  const std::string *comprehensionVariable(const std::string &name) const {
    for (auto scope = comprehensionScopes.rbegin(); scope != comprehensionScopes.rend(); ++scope) {
      auto found = scope->find(name);
      if (found != scope->end())
        return &found->second;
    }
    return nullptr;
  }

  std::string aliased(const std::string &name) {
    auto found = aliases.find(name);
    return found == aliases.end() ? name : found->second;
  }

  /// Reads an inner `def` or `lambda` into a function of its own and returns the synthetic
  /// name it is bound to. Its captured variables become leading parameters that each call
  /// passes (`name` is the variable it is assigned to, "" for a lambda used in place).
  std::string readLocalFunction(nb::handle node, const std::string &name, SourceLocation where) {
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

  /// `name = <local function>`, the statement an inner definition becomes.
  Stmt *bindLocalFunction(const std::string &name, nb::handle node, SourceLocation where) {
    std::string synthetic = readLocalFunction(node, name, where);
    Stmt *stmt = source.newStmt(StmtKind::Assign, where);
    Expr *target = source.newExpr(ExprKind::Name, where);
    target->name = name;
    stmt->targets.push_back(target);
    stmt->value = source.newExpr(ExprKind::Name, where);
    stmt->value->name = synthetic;
    return stmt;
  }

  /// The node's position in the definition's text (the tree carries the file's line numbers).
  SourceLocation location(nb::handle node) {
    SourceLocation result;
    if (PyObject_HasAttrString(node.ptr(), "lineno")) {
      result.line = nb::cast<int>(node.attr("lineno")) - source.firstLine + 1;
      result.column = nb::cast<int>(node.attr("col_offset"));
    }
    return result;
  }

  std::vector<Stmt *> readBlock(nb::handle statements) {
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

  /// Whether evaluating the ast expression `node` may have effects of its own: it holds a
  /// call, an assignment expression, a yield or an await.
  static bool mayHaveEffects(nb::handle node) {
    for (nb::handle inner : nb::module_::import_("ast").attr("walk")(node)) {
      std::string kind = nodeKind(inner);
      if (kind == "Call" || kind == "NamedExpr" || kind == "Yield" || kind == "YieldFrom" ||
          kind == "Await")
        return true;
    }
    return false;
  }

  /// `d[k()] += v` evaluates `k()` once in Python, but the statement reads the item and then
  /// stores it, each evaluating the subscript: an index with effects of its own is evaluated
  /// into a hidden variable by a statement before it, and the subscript reads that variable.
  /// A container with effects of its own is refused (it could not be hoisted: an array's
  /// element would become a copy). Returns the target to use.
  Expr *readAugmentedTarget(nb::handle target) {
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

  static BinaryOp binaryOp(const std::string &name, SourceLocation where) {
    static const std::map<std::string, BinaryOp> table = {
        {"Add", BinaryOp::Add},           {"Sub", BinaryOp::Sub},
        {"Mult", BinaryOp::Mult},         {"Div", BinaryOp::Div},
        {"FloorDiv", BinaryOp::FloorDiv}, {"Mod", BinaryOp::Mod},
        {"Pow", BinaryOp::Pow},           {"LShift", BinaryOp::LShift},
        {"RShift", BinaryOp::RShift},     {"BitAnd", BinaryOp::BitAnd},
        {"BitOr", BinaryOp::BitOr},       {"BitXor", BinaryOp::BitXor},
        {"MatMult", BinaryOp::MatMult}};
    auto found = table.find(name);
    if (found == table.end())
      throwUnsupported("the operator " + name + " is not supported", where);
    return found->second;
  }

  Stmt *readStatement(nb::handle node) {
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
        if (!yielded.is_none())
          stmt->value = readExpr(yielded);
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
        if (!value.attr("value").is_none())
          stmt->value = readExpr(value.attr("value"));
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
      if (!node.attr("value").is_none())
        stmt->value = readExpr(node.attr("value"));
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
      if (!node.attr("exc").is_none())
        stmt->value = readExpr(node.attr("exc"));
      return stmt;
    }
    if (kind == "Assert") {
      Stmt *stmt = source.newStmt(StmtKind::Assert, where);
      stmt->test = readExpr(node.attr("test"));
      if (!node.attr("msg").is_none())
        stmt->message = readExpr(node.attr("msg"));
      return stmt;
    }
    if (kind == "Try") {
      Stmt *stmt = source.newStmt(StmtKind::Try, where);
      stmt->body = readBlock(node.attr("body"));
      for (nb::handle clause : nb::cast<nb::list>(node.attr("handlers"))) {
        ExceptHandler handler;
        handler.location = location(clause);
        if (!clause.attr("type").is_none())
          handler.type = readExpr(clause.attr("type"));
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
        {"Match", "match statements"}};
    auto found = names.find(kind);
    throwUnsupported((found != names.end() ? found->second : "the statement " + kind) +
                         " are not supported in compiled code",
                     where);
  }

  /// Binds each name of a comprehension's `for` target (a name or nested tuples of names).
  void bindComprehensionTarget(nb::handle target, const std::string &prefix,
                               std::map<std::string, std::string> &names) {
    std::string kind = nodeKind(target);
    if (kind == "Name") {
      std::string name = nb::cast<std::string>(target.attr("id"));
      names[name] = prefix + name;
    } else if (kind == "Tuple" || kind == "List") {
      for (nb::handle element : nb::cast<nb::list>(target.attr("elts")))
        bindComprehensionTarget(element, prefix, names);
    } else {
      throwUnsupported("a comprehension's for target must be a name or a tuple of names",
                       location(target));
    }
  }

  /// `(1, *a, x, *b)`: the concatenation `() + (1,) + a + (x,) + b`, which evaluates the items
  /// in Python's order; typing checks that each starred value is a tuple (its length, so the
  /// result's type, is then known).
  Expr *readStarredTuple(nb::list elements, SourceLocation where) {
    Expr *result = source.newExpr(ExprKind::Tuple, where);
    Expr *pending = nullptr;
    auto append = [&](Expr *piece) {
      Expr *sum = source.newExpr(ExprKind::BinOp, where);
      sum->binaryOp = BinaryOp::Add;
      sum->operands = {result, piece};
      result = sum;
    };
    for (nb::handle element : elements) {
      if (nodeKind(element) != "Starred") {
        if (!pending)
          pending = source.newExpr(ExprKind::Tuple, where);
        pending->operands.push_back(readExpr(element));
        continue;
      }
      if (pending)
        append(pending);
      pending = nullptr;
      append(readExpr(element.attr("value")));
    }
    if (pending)
      append(pending);
    return result;
  }

  /// A list comprehension, or a generator expression consumed by a builtin, read as the loop
  /// Python runs (syntax/Comprehensions.h). Python 3 scoping: the targets are the
  /// comprehension's own variables, renamed to hidden names; the first iterable is read in the
  /// enclosing scope, the rest inside. `consumer` is the builtin's name, checked when typed.
  Expr *readComprehension(nb::handle node, Accumulation accumulation, Expr *consumer, Expr *start) {
    SourceLocation where = location(node);
    std::string result = "$" + std::to_string(++comprehensionCount);
    nb::list generators = nb::cast<nb::list>(node.attr("generators"));
    Expr *firstIterable = readExpr(generators[0].attr("iter"));
    std::map<std::string, std::string> names;
    for (nb::handle generator : generators) {
      if (nb::cast<int>(generator.attr("is_async")))
        throwUnsupported("async comprehensions are not supported", where);
      bindComprehensionTarget(generator.attr("target"), result + ".", names);
    }
    comprehensionScopes.push_back(names);
    std::vector<ComprehensionClause> clauses;
    for (size_t i = 0; i < generators.size(); ++i) {
      nb::handle generator = generators[i];
      ComprehensionClause clause{readExpr(generator.attr("target")),
                                 i == 0 ? firstIterable : readExpr(generator.attr("iter")),
                                 {}};
      for (nb::handle condition : nb::cast<nb::list>(generator.attr("ifs")))
        clause.conditions.push_back(readExpr(condition));
      clauses.push_back(std::move(clause));
    }
    bool dictDisplay = nodeKind(node) == "DictComp"; // {k: v for ...}: key, then value
    Expr *element = readExpr(node.attr(dictDisplay ? "key" : "elt"));
    Expr *value = dictDisplay ? readExpr(node.attr("value")) : nullptr;
    comprehensionScopes.pop_back();

    return buildComprehension(source, where, result, accumulation, std::move(clauses), element,
                              consumer, start, value);
  }

  /// `dict(zip(a, b))` and `dict(enumerate(a))`: read as `{k: v for k, v in zip(a, b)}`, whose
  /// loop iterates the arguments in step (zip() and enumerate() of arrays, lists and ranges are
  /// values only inside a for loop). nullptr for other calls.
  Expr *readDictOfPairs(nb::handle call, SourceLocation where) {
    nb::handle function = call.attr("func");
    nb::list arguments = nb::cast<nb::list>(call.attr("args"));
    if (nodeKind(function) != "Name" || nb::cast<std::string>(function.attr("id")) != "dict" ||
        arguments.size() != 1 || nb::len(nb::object(call.attr("keywords"))) != 0 ||
        closures.count("dict") || comprehensionVariable("dict"))
      return nullptr;
    nb::handle inner = arguments[0];
    if (nodeKind(inner) != "Call" || nodeKind(inner.attr("func")) != "Name")
      return nullptr;
    std::string iterator = nb::cast<std::string>(inner.attr("func").attr("id"));
    if ((iterator != "zip" && iterator != "enumerate") || closures.count(iterator) ||
        comprehensionVariable(iterator))
      return nullptr;
    std::string result = "$" + std::to_string(++comprehensionCount);
    auto hidden = [&](const std::string &name) {
      Expr *expr = source.newExpr(ExprKind::Name, where);
      expr->name = result + "." + name;
      return expr;
    };
    ComprehensionClause clause{source.newExpr(ExprKind::Tuple, where), readExpr(inner), {}};
    clause.target->operands = {hidden("k"), hidden("v")};
    Expr *consumer = source.newExpr(ExprKind::Name, location(function));
    consumer->name = "dict";
    return buildComprehension(source, where, result, Accumulation::Dict, {clause}, hidden("k"),
                              consumer, nullptr, hidden("v"));
  }

  /// `sum(x for x in a)` and the like: a generator expression that a builtin consumes whole is
  /// read as a loop (readComprehension); sorted() sorts the list it would give, frozenset()
  /// freezes the set. nullptr when
  /// the call is not one of those.
  Expr *readGeneratorConsumer(nb::handle call, SourceLocation where) {
    static const std::map<std::string, Accumulation> consumers = {
        {"sum", Accumulation::Sum},      {"any", Accumulation::Any}, {"all", Accumulation::All},
        {"min", Accumulation::Min},      {"max", Accumulation::Max}, {"list", Accumulation::List},
        {"sorted", Accumulation::List},  {"set", Accumulation::Set}, {"dict", Accumulation::Dict},
        {"frozenset", Accumulation::Set}};
    nb::handle function = call.attr("func");
    nb::list arguments = nb::cast<nb::list>(call.attr("args"));
    if (Expr *pairs = readDictOfPairs(call, where))
      return pairs;
    if (nodeKind(function) != "Name" || arguments.size() == 0 ||
        nodeKind(arguments[0]) != "GeneratorExp")
      return nullptr;
    std::string name = nb::cast<std::string>(function.attr("id"));
    auto found = consumers.find(name);
    if (found == consumers.end() || closures.count(name) || comprehensionVariable(name))
      return nullptr;
    bool sorted = name == "sorted", wrapped = sorted || name == "frozenset";
    size_t keywords = nb::len(nb::object(call.attr("keywords")));
    if (arguments.size() > (name == "sum" ? 2u : 1u) || (keywords != 0 && !sorted))
      return nullptr;
    Expr *start = nullptr;
    if (arguments.size() == 2) {
      // A constant start keeps Python's order of evaluation (the generator is made first).
      start = readExpr(arguments[1]);
      if (start->kind != ExprKind::Constant)
        throwUnsupported("sum() of a generator expression takes a constant start value only",
                         start->location);
    }
    Expr *consumer = source.newExpr(ExprKind::Name, location(function));
    consumer->name = name;
    Expr *result = readComprehension(arguments[0], found->second, consumer, start);
    if (!wrapped) // sorted() sorts the list, frozenset() freezes the set
      return result;
    Expr *expr = source.newExpr(ExprKind::Call, where);
    expr->operands = {readExpr(function), result};
    for (nb::handle keyword : nb::cast<nb::list>(call.attr("keywords"))) {
      if (keyword.attr("arg").is_none())
        throwUnsupported("**kwargs in calls are not supported", where);
      expr->keywordNames.push_back(nb::cast<std::string>(keyword.attr("arg")));
      expr->operands.push_back(readExpr(keyword.attr("value")));
    }
    return expr;
  }

  /// An f-string is read as str.format of a constant template: f"a{x:.3f}{s!r}" becomes
  /// "a{:.3f}{!r}".format(x, s), so there is one implementation of fields and format specs.
  Expr *readFormattedString(nb::handle node, SourceLocation where) {
    std::string format;
    std::vector<Expr *> values;
    for (nb::handle part : nb::cast<nb::list>(node.attr("values"))) {
      if (nodeKind(part) == "Constant") {
        for (char c : nb::cast<std::string>(part.attr("value"))) {
          format += c;
          if (c == '{' || c == '}')
            format += c;
        }
        continue;
      }
      format += "{";
      int conversion = nb::cast<int>(part.attr("conversion"));
      if (conversion >= 0)
        format += std::string("!") + static_cast<char>(conversion);
      nb::object spec = part.attr("format_spec");
      if (!spec.is_none()) {
        format += ":";
        for (nb::handle piece : nb::cast<nb::list>(spec.attr("values"))) {
          if (nodeKind(piece) != "Constant")
            throwUnsupported("f-string format specs with replacement fields are not supported",
                             location(piece));
          format += nb::cast<std::string>(piece.attr("value"));
        }
      }
      format += "}";
      values.push_back(readExpr(part.attr("value")));
    }
    Expr *templateExpr = source.newExpr(ExprKind::Constant, where);
    templateExpr->constant.kind = Constant::Kind::String;
    templateExpr->constant.text = format;
    Expr *method = source.newExpr(ExprKind::Attribute, where);
    method->name = "format";
    method->operands = {templateExpr};
    Expr *call = source.newExpr(ExprKind::Call, where);
    call->operands = {method};
    call->operands.insert(call->operands.end(), values.begin(), values.end());
    return call;
  }

  Expr *readExpr(nb::handle node) {
    std::string kind = nodeKind(node);
    SourceLocation where = location(node);
    if (kind == "Name") {
      Expr *expr = source.newExpr(ExprKind::Name, where);
      expr->name = nb::cast<std::string>(node.attr("id"));
      if (const std::string *hidden = comprehensionVariable(expr->name)) {
        expr->name = *hidden;
        return expr;
      }
      bool load = nodeKind(node.attr("ctx")) == "Load";
      if (closures.count(expr->name) && load && !aliases.count(expr->name))
        throwUnsupported("the inner function '" + expr->name +
                             "' reads variables of the enclosing function, so it can only be "
                             "called, not used as a value",
                         where);
      if (load)
        expr->name = aliased(expr->name);
      // Globals are frozen constants in compiled code, so writing one cannot work.
      if (declaredOutside.count(expr->name) && nodeKind(node.attr("ctx")) == "Store")
        throwUnsupported("assigning to the global variable '" + expr->name +
                             "' is not supported in compiled code",
                         where);
      return expr;
    }
    if (kind == "Constant") {
      Expr *expr = source.newExpr(ExprKind::Constant, where);
      if (!readConstant(node.attr("value"), expr->constant))
        throwUnsupported("this constant is not supported in compiled code", where);
      return expr;
    }
    if (kind == "BinOp") {
      Expr *expr = source.newExpr(ExprKind::BinOp, where);
      expr->binaryOp = binaryOp(nodeKind(node.attr("op")), where);
      expr->operands = {readExpr(node.attr("left")), readExpr(node.attr("right"))};
      return expr;
    }
    if (kind == "UnaryOp") {
      Expr *expr = source.newExpr(ExprKind::UnaryOp, where);
      std::string op = nodeKind(node.attr("op"));
      expr->unaryOp = op == "USub"     ? UnaryOp::Neg
                      : op == "UAdd"   ? UnaryOp::Pos
                      : op == "Invert" ? UnaryOp::Invert
                                       : UnaryOp::Not;
      expr->operands = {readExpr(node.attr("operand"))};
      // Fold -1 and -2.5 into constants, so t[-1] indexes a tuple with a constant.
      Expr *operand = expr->operands[0];
      if (expr->unaryOp == UnaryOp::Neg && operand->kind == ExprKind::Constant &&
          (operand->constant.kind == Constant::Kind::Int ||
           operand->constant.kind == Constant::Kind::Float) &&
          operand->constant.intValue != INT64_MIN) {
        operand->location = where;
        operand->constant.intValue = -operand->constant.intValue;
        operand->constant.floatValue = -operand->constant.floatValue;
        return operand;
      }
      return expr;
    }
    if (kind == "BoolOp") {
      Expr *expr = source.newExpr(ExprKind::BoolOp, where);
      expr->isAnd = nodeKind(node.attr("op")) == "And";
      for (nb::handle value : nb::cast<nb::list>(node.attr("values")))
        expr->operands.push_back(readExpr(value));
      return expr;
    }
    if (kind == "Compare") {
      static const std::map<std::string, CompareOp> table = {
          {"Eq", CompareOp::Eq},      {"NotEq", CompareOp::NotEq}, {"Lt", CompareOp::Lt},
          {"LtE", CompareOp::LtE},    {"Gt", CompareOp::Gt},       {"GtE", CompareOp::GtE},
          {"Is", CompareOp::Is},      {"IsNot", CompareOp::IsNot}, {"In", CompareOp::In},
          {"NotIn", CompareOp::NotIn}};
      Expr *expr = source.newExpr(ExprKind::Compare, where);
      expr->operands.push_back(readExpr(node.attr("left")));
      for (nb::handle op : nb::cast<nb::list>(node.attr("ops")))
        expr->compareOps.push_back(table.at(nodeKind(op)));
      for (nb::handle comparator : nb::cast<nb::list>(node.attr("comparators")))
        expr->operands.push_back(readExpr(comparator));
      return expr;
    }
    if (kind == "IfExp") {
      Expr *expr = source.newExpr(ExprKind::IfExp, where);
      expr->operands = {readExpr(node.attr("test")), readExpr(node.attr("body")),
                        readExpr(node.attr("orelse"))};
      return expr;
    }
    if (kind == "Call") {
      if (Expr *consumed = readGeneratorConsumer(node, where))
        return consumed;
      Expr *expr = source.newExpr(ExprKind::Call, where);
      nb::handle function = node.attr("func");
      // A comprehension's variable of the same name hides the closure.
      auto closure = nodeKind(function) == "Name" &&
                             !comprehensionVariable(nb::cast<std::string>(function.attr("id")))
                         ? closures.find(nb::cast<std::string>(function.attr("id")))
                         : closures.end();
      if (closure != closures.end()) {
        // A closure's call passes the current values of the variables it reads first.
        Expr *callee = source.newExpr(ExprKind::Name, location(function));
        callee->name = aliased(closure->first);
        expr->operands.push_back(callee);
        for (const std::string &variable : closure->second) {
          Expr *argument = source.newExpr(ExprKind::Name, where);
          argument->name = variable;
          expr->operands.push_back(argument);
        }
      } else {
        expr->operands.push_back(readExpr(function));
      }
      nb::list arguments = nb::cast<nb::list>(node.attr("args"));
      for (size_t i = 0; i < arguments.size(); ++i) {
        nb::handle argument = arguments[i];
        if (nodeKind(argument) == "Starred") {
          // f(*t): typing spreads the tuple t into positional arguments (jitted callees only).
          nb::handle value = argument.attr("value");
          if (i + 1 != arguments.size() || expr->starredOperand != 0)
            throwUnsupported("'*' in a call is supported only on its last positional argument",
                             location(argument));
          if (nodeKind(value) != "Name")
            throwUnsupported("'*' in a call is supported only on a variable holding a tuple",
                             location(argument));
          expr->starredOperand = expr->operands.size();
          expr->operands.push_back(readExpr(value));
          continue;
        }
        expr->operands.push_back(readExpr(argument));
      }
      for (nb::handle keyword : nb::cast<nb::list>(node.attr("keywords"))) {
        if (keyword.attr("arg").is_none())
          throwUnsupported("**kwargs in calls are not supported", where);
        expr->keywordNames.push_back(nb::cast<std::string>(keyword.attr("arg")));
        expr->operands.push_back(readExpr(keyword.attr("value")));
      }
      return expr;
    }
    if (kind == "Attribute") {
      Expr *expr = source.newExpr(ExprKind::Attribute, where);
      expr->name = nb::cast<std::string>(node.attr("attr"));
      expr->operands = {readExpr(node.attr("value"))};
      return expr;
    }
    if (kind == "Subscript") {
      Expr *expr = source.newExpr(ExprKind::Subscript, where);
      nb::handle slice = node.attr("slice");
      if (nodeKind(slice) == "Index") // Python 3.8's wrapper
        slice = slice.attr("value");
      expr->operands = {readExpr(node.attr("value")), readExpr(slice)};
      return expr;
    }
    if (kind == "Tuple" || kind == "List") {
      nb::list elements = nb::cast<nb::list>(node.attr("elts"));
      if (kind == "Tuple")
        for (nb::handle element : elements)
          if (nodeKind(element) == "Starred")
            return readStarredTuple(elements, where);
      Expr *expr = source.newExpr(kind == "Tuple" ? ExprKind::Tuple : ExprKind::List, where);
      for (nb::handle element : elements)
        expr->operands.push_back(readExpr(element));
      return expr;
    }
    if (kind == "Dict") {
      // {k: v, ...}: operands are the keys and values in turn; `{**d}` is not supported.
      Expr *expr = source.newExpr(ExprKind::Dict, where);
      nb::list keys = nb::cast<nb::list>(node.attr("keys"));
      nb::list values = nb::cast<nb::list>(node.attr("values"));
      for (size_t i = 0; i < keys.size(); ++i) {
        if (keys[i].is_none())
          throwUnsupported("unpacking (**) in dict literals is not supported", where);
        expr->operands.push_back(readExpr(keys[i]));
        expr->operands.push_back(readExpr(values[i]));
      }
      return expr;
    }
    if (kind == "JoinedStr")
      return readFormattedString(node, where);
    if (kind == "Slice") {
      Expr *expr = source.newExpr(ExprKind::Slice, where);
      for (const char *part : {"lower", "upper", "step"}) {
        nb::object value = node.attr(part);
        expr->operands.push_back(value.is_none() ? nullptr : readExpr(value));
      }
      return expr;
    }
    if (kind == "ListComp")
      return readComprehension(node, Accumulation::List, nullptr, nullptr);
    if (kind == "GeneratorExp")
      throwUnsupported("generator expressions are only supported as the argument of sum(), "
                       "any(), all(), min(), max(), list(), set(), frozenset(), dict() or "
                       "sorted()",
                       where);
    if (kind == "SetComp")
      return readComprehension(node, Accumulation::Set, nullptr, nullptr);
    if (kind == "Set") { // {a, b, ...}: the keys in order
      Expr *expr = source.newExpr(ExprKind::Set, where);
      for (nb::handle element : nb::cast<nb::list>(node.attr("elts")))
        expr->operands.push_back(readExpr(element));
      return expr;
    }
    if (kind == "DictComp")
      return readComprehension(node, Accumulation::Dict, nullptr, nullptr);
    if (kind == "Lambda") {
      Expr *expr = source.newExpr(ExprKind::Name, where);
      expr->name = readLocalFunction(node, "", where);
      return expr;
    }
    if (kind == "Yield" || kind == "YieldFrom")
      throwUnsupported(std::string(kind == "Yield" ? "yield" : "yield from") +
                           " is only supported as a statement or as `x = yield v` (the value "
                           "send() passes in); other uses of its value are not supported",
                       where);
    static const std::map<std::string, std::string> names = {
        {"JoinedStr", "f-strings"},
        {"Await", "await"},
        {"NamedExpr", "assignment expressions"},
        {"Starred", "starred expressions"}};
    auto found = names.find(kind);
    throwUnsupported((found != names.end() ? found->second : "the expression " + kind) +
                         (found != names.end() ? " are" : " is") + " not supported yet",
                     where);
  }
};

} // namespace

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
