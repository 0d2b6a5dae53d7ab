// Reading a function's expressions: names, operators, calls, containers, f-strings, and the
// comprehensions and generator expressions that become loops (syntax/Comprehensions.h).
#include "AstReading.h"

#include "GlobalResolution.h"

#include "syntax/Comprehensions.h"

#include <nanobind/stl/string.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace nb = nanobind;

namespace taipan::bindings {

const std::string *AstReader::comprehensionVariable(const std::string &name) const {
  for (auto scope = comprehensionScopes.rbegin(); scope != comprehensionScopes.rend(); ++scope) {
    auto found = scope->find(name);
    if (found != scope->end())
      return &found->second;
  }
  return nullptr;
}

std::string AstReader::aliased(const std::string &name) {
  auto found = aliases.find(name);
  return found == aliases.end() ? name : found->second;
}

void AstReader::bindComprehensionTarget(nb::handle target, const std::string &prefix,
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

bool AstReader::constantValue(nb::handle node, Expr *expr, nb::object &value) {
  auto folded = foldedValues.find(expr);
  if (folded != foldedValues.end()) {
    value = folded->second;
    return true;
  }
  if (expr->kind == ExprKind::Constant) {
    if (nodeKind(node) == "Constant") {
      value = node.attr("value");
      return true;
    }
    if (expr->constant.kind == Constant::Kind::Int) // negated in place by readExpr
      value = nb::steal(PyLong_FromLongLong(expr->constant.intValue));
    else if (expr->constant.kind == Constant::Kind::Float)
      value = nb::steal(PyFloat_FromDouble(expr->constant.floatValue));
    return value.is_valid();
  }
  if (expr->kind != ExprKind::Tuple || nodeKind(node) != "Tuple")
    return false;
  nb::list elements = nb::cast<nb::list>(node.attr("elts"));
  if (elements.size() != expr->operands.size())
    return false;
  nb::list values;
  for (size_t i = 0; i < elements.size(); ++i) {
    nb::object element;
    if (!constantValue(elements[i], expr->operands[i], element))
      return false;
    values.append(element);
  }
  value = nb::tuple(values);
  return true;
}

Expr *AstReader::foldConstant(nb::handle node, const std::vector<nb::handle> &operandNodes,
                              Expr *unfolded) {
  // The cheap test first: most operators have an operand that is no constant.
  for (Expr *operand : unfolded->operands)
    if (operand->kind != ExprKind::Constant && operand->kind != ExprKind::Tuple &&
        !foldedValues.count(operand))
      return unfolded;
  nb::list values;
  for (size_t i = 0; i < operandNodes.size(); ++i) {
    nb::object value;
    if (!constantValue(operandNodes[i], unfolded->operands[i], value))
      return unfolded;
    values.append(value);
  }
  nb::object folded = nb::module_::import_("taipan.constant_folding").attr("fold")(node, values);
  if (folded.is_none())
    return unfolded; // CPython runs it: it raises (1 / 0) or its result is too large to fold
  Expr *result = foldedExpr(nb::tuple(folded)[0], unfolded->location);
  if (!result)
    return unfolded;
  for (Expr *operand : unfolded->operands)
    forgetFolded(operand);
  return result;
}

Expr *AstReader::foldedExpr(nb::handle value, SourceLocation where) {
  Expr *expr = nullptr;
  Constant constant;
  if (readConstant(value, constant)) {
    expr = source.newExpr(ExprKind::Constant, where);
    expr->constant = constant;
  } else if (PyTuple_Check(value.ptr())) {
    expr = source.newExpr(ExprKind::Tuple, where);
    for (nb::handle element : nb::borrow<nb::tuple>(value)) {
      Expr *item = foldedExpr(element, where);
      if (!item) {
        forgetFolded(expr);
        return nullptr;
      }
      expr->operands.push_back(item);
    }
  } else if (PyLong_Check(value.ptr())) { // beyond uint64: a name no Python code can spell
    nb::object digits = nb::steal(PyObject_Str(value.ptr()));
    if (!digits) { // past str()'s digit limit; hex has none
      PyErr_Clear();
      digits = nb::steal(PyNumber_ToBase(value.ptr(), 16));
    }
    expr = source.newExpr(ExprKind::Name, where);
    expr->name = nb::cast<std::string>(digits);
  } else {
    return nullptr;
  }
  foldedValues[expr] = nb::borrow(value);
  return expr;
}

void AstReader::forgetFolded(Expr *expr) {
  foldedValues.erase(expr);
  if (expr->kind == ExprKind::Tuple)
    for (Expr *element : expr->operands)
      forgetFolded(element);
}

Expr *AstReader::readStarredTuple(nb::list elements, SourceLocation where) {
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

Expr *AstReader::readComprehension(nb::handle node, Accumulation accumulation, Expr *consumer,
                                   Expr *start) {
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
  bool generatorScope = nodeKind(node) == "GeneratorExp";
  generatorScopeDepth += generatorScope;
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
  generatorScopeDepth -= generatorScope;

  return buildComprehension(source, where, result, accumulation, std::move(clauses), element,
                            consumer, start, value);
}

Expr *AstReader::readDictOfPairs(nb::handle call, SourceLocation where) {
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

/// A tuple or list display without starred items: `(a, b)`, `[a, b]`.
static bool isPlainDisplay(nb::handle node) {
  std::string kind = nodeKind(node);
  if (kind != "Tuple" && kind != "List")
    return false;
  for (nb::handle element : nb::cast<nb::list>(node.attr("elts")))
    if (nodeKind(element) == "Starred")
      return false;
  return true;
}

Expr *AstReader::readJoinOfGenerator(nb::handle call, SourceLocation where) {
  nb::handle function = call.attr("func");
  nb::list arguments = nb::cast<nb::list>(call.attr("args"));
  if (nodeKind(function) != "Attribute" || nb::cast<std::string>(function.attr("attr")) != "join" ||
      arguments.size() != 1 || nodeKind(arguments[0]) != "GeneratorExp" ||
      nb::len(nb::object(call.attr("keywords"))) != 0)
    return nullptr;
  // str.join makes a list of its argument first (PySequence_Fast), so joining a generator
  // expression is joining the list comprehension of the same clauses.
  Expr *expr = source.newExpr(ExprKind::Call, where);
  expr->operands = {readExpr(function),
                    readComprehension(arguments[0], Accumulation::List, nullptr, nullptr)};
  return expr;
}

Expr *AstReader::readGeneratorConsumer(nb::handle call, SourceLocation where) {
  static const std::map<std::string, Accumulation> consumers = {
      {"sum", Accumulation::Sum},      {"any", Accumulation::Any}, {"all", Accumulation::All},
      {"min", Accumulation::Min},      {"max", Accumulation::Max}, {"list", Accumulation::List},
      {"sorted", Accumulation::List},  {"set", Accumulation::Set}, {"dict", Accumulation::Dict},
      {"frozenset", Accumulation::Set}};
  nb::handle function = call.attr("func");
  nb::list arguments = nb::cast<nb::list>(call.attr("args"));
  if (Expr *pairs = readDictOfPairs(call, where))
    return pairs;
  if (Expr *joined = readJoinOfGenerator(call, where))
    return joined;
  if (nodeKind(function) != "Name" || arguments.size() == 0 ||
      nodeKind(arguments[0]) != "GeneratorExp")
    return nullptr;
  std::string name = nb::cast<std::string>(function.attr("id"));
  auto found = consumers.find(name);
  if (found == consumers.end() || closures.count(name) || comprehensionVariable(name))
    return nullptr;
  size_t keywords = nb::len(nb::object(call.attr("keywords")));
  // min() and max() with key= or default= take the list of the items, made first (their
  // accumulation loop knows neither keyword); only the order of the key's calls relative to
  // the generator's own effects differs from CPython's.
  bool listed = keywords != 0 && (name == "min" || name == "max");
  bool sorted = name == "sorted", wrapped = sorted || listed || name == "frozenset";
  if (arguments.size() > (name == "sum" ? 2u : 1u) || (keywords != 0 && !sorted && !listed))
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
  Expr *result =
      readComprehension(arguments[0], listed ? Accumulation::List : found->second, consumer, start);
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

Expr *AstReader::readFormattedString(nb::handle node, SourceLocation where) {
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

Expr *AstReader::readExpr(nb::handle node) {
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
    if (load && !comprehensionScopes.empty()) // the first iterable is read outside them
      expr->readScope = generatorScopeDepth ? ReadScope::Nested : ReadScope::Comprehension;
    // Globals are frozen constants in compiled code, so writing one cannot work.
    if (declaredOutside.count(expr->name) && nodeKind(node.attr("ctx")) == "Store")
      throwUnsupported("assigning to the global variable '" + expr->name +
                           "' is not supported in compiled code",
                       where);
    return expr;
  }
  if (kind == "Constant") {
    Expr *expr = source.newExpr(ExprKind::Constant, where);
    nb::object value = node.attr("value");
    if (!readConstant(value, expr->constant)) {
      if (PyLong_Check(value.ptr())) // beyond uint64: an enclosing operator may fold it
        return foldedExpr(value, where);
      throwUnsupported("this constant is not supported in compiled code", where);
    }
    return expr;
  }
  if (kind == "BinOp") {
    Expr *expr = source.newExpr(ExprKind::BinOp, where);
    expr->binaryOp = binaryOp(nodeKind(node.attr("op")), where);
    nb::object left = node.attr("left"), right = node.attr("right");
    expr->operands = {readExpr(left), readExpr(right)};
    return foldConstant(node, {left, right}, expr);
  }
  if (kind == "UnaryOp") {
    Expr *expr = source.newExpr(ExprKind::UnaryOp, where);
    std::string op = nodeKind(node.attr("op"));
    expr->unaryOp = op == "USub"     ? UnaryOp::Neg
                    : op == "UAdd"   ? UnaryOp::Pos
                    : op == "Invert" ? UnaryOp::Invert
                                     : UnaryOp::Not;
    nb::object operandNode = node.attr("operand");
    expr->operands = {readExpr(operandNode)};
    // -1 and -2.5, the common folds, negate in place (constantValue reads them back).
    Expr *operand = expr->operands[0];
    if (expr->unaryOp == UnaryOp::Neg && operand->kind == ExprKind::Constant &&
        (operand->constant.kind == Constant::Kind::Int ||
         operand->constant.kind == Constant::Kind::Float) &&
        operand->constant.intValue != INT64_MIN) {
      foldedValues.erase(operand); // its value is no longer the operand's
      operand->location = where;
      operand->constant.intValue = -operand->constant.intValue;
      operand->constant.floatValue = -operand->constant.floatValue;
      return operand;
    }
    return foldConstant(node, {operandNode}, expr);
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
        argument->readScope = ReadScope::Nested; // the inner function reads it
        expr->operands.push_back(argument);
      }
    } else {
      expr->operands.push_back(readExpr(function));
    }
    nb::list arguments = nb::cast<nb::list>(node.attr("args"));
    for (size_t i = 0; i < arguments.size(); ++i) {
      nb::handle argument = arguments[i];
      if (nodeKind(argument) == "Starred" && isPlainDisplay(argument.attr("value"))) {
        // f(*(a, b)) and f(*[a, b]) are f(a, b): Python evaluates the items in order, then
        // calls, so they are ordinary positional arguments of any callee.
        for (nb::handle element : nb::cast<nb::list>(argument.attr("value").attr("elts")))
          expr->operands.push_back(readExpr(element));
        continue;
      }
      if (nodeKind(argument) == "Starred") {
        // f(*t): typing spreads the tuple t (a variable, or any expression evaluated once, as
        // complex(*cmath.polar(z))) into positional arguments.
        nb::handle value = argument.attr("value");
        if (i + 1 != arguments.size() || expr->starredOperand != 0)
          throwUnsupported("'*' in a call is supported only on its last positional argument",
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
    nb::object container = node.attr("value");
    expr->operands = {readExpr(container), readExpr(slice)};
    return foldConstant(node, {container, slice}, expr);
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
  static const std::map<std::string, std::string> names = {{"JoinedStr", "f-strings"},
                                                           {"Await", "await"},
                                                           {"NamedExpr", "assignment expressions"},
                                                           {"Starred", "starred expressions"}};
  auto found = names.find(kind);
  throwUnsupported((found != names.end() ? found->second : "the expression " + kind) +
                       (found != names.end() ? " are" : " is") + " not supported yet",
                   where);
}

} // namespace taipan::bindings
