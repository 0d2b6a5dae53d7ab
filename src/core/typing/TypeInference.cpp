// Type inference by fixpoint: each pass types every statement with the variable types known so
// far, widening a variable's type when it is assigned something new, until a pass changes nothing.
#include "typing/TypeInference.h"
#include "typing/TryTyping.h"

#include "syntax/CaughtExceptions.h"
#include "syntax/LoopUnrolling.h"
#include "types/DatetimeUnits.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"
#include "typing/CallArguments.h"
#include "typing/ConstantArguments.h"
#include "typing/DatetimeTyping.h"
#include "typing/DictTyping.h"
#include "typing/Isinstance.h"
#include "typing/JitClassTyping.h"
#include "typing/LiteralUnroll.h"
#include "typing/NamedTupleTyping.h"
#include "typing/ObjectModeBlocks.h"
#include "typing/OptionalTyping.h"
#include "typing/RecordTyping.h"
#include "typing/SetTyping.h"
#include "typing/StringTyping.h"

#include <functional>
#include <optional>
#include <set>

namespace taipan {
namespace {

/// Describes a type for error messages, using the Python spelling of compile-time objects.
std::string describe(const Type *type) {
  if (!type)
    return "<unknown>";
  switch (type->kind()) {
  case TypeKind::Module:
    return "Module(" + type->text() + ")";
  case TypeKind::Builtin:
    return "Function(" + type->text() + ")";
  case TypeKind::JitFunction:
    return "Dispatcher(" + type->function()->name + ")";
  case TypeKind::ExceptionClass:
    return "class(" + type->text() + ")";
  case TypeKind::StringLiteral:
    return "unicode_type";
  case TypeKind::Overload:
    return "Function(" + type->text() + ")";
  case TypeKind::Intrinsic:
    return "Intrinsic(" + type->text() + ")";
  default:
    return type->name();
  }
}

const Type *constantType(const Constant &constant) {
  switch (constant.kind) {
  case Constant::Kind::Int:
    return types::int64();
  case Constant::Kind::UInt:
    return types::uint64();
  case Constant::Kind::Float:
    return types::float64();
  case Constant::Kind::Complex:
    return types::complex128();
  case Constant::Kind::Bool:
    return types::boolean();
  case Constant::Kind::None:
    return types::none();
  case Constant::Kind::String:
    return types::stringLiteral(constant.text);
  case Constant::Kind::Ellipsis:
    return ellipsisType();
  }
  return nullptr;
}

/// One inference pass over a function.
class InferencePass {
public:
  InferencePass(TypedFunction &function, CalleeTyper &callees, bool reportUnknown)
      : function(function), source(*function.source), callees(callees),
        reportUnknown(reportUnknown) {}

  bool run() {
    if (function.expressionTypes.size() != static_cast<size_t>(source.expressionCount()))
      function.expressionTypes.assign(source.expressionCount(), nullptr);
    if (localNames.empty()) {
      collectLocals();
      keepsOptional = optionalPreservingUses(source);
    }
    for (size_t i = 0; i < source.parameters.size(); ++i)
      assignVariable(source.parameters[i].name, function.argumentTypes[i],
                     source.definitionLocation);
    typeBlock(source.body);
    if (source.isGenerator) { // calling it makes a generator of what it yields
      if (function.yieldType && function.returnType != types::generator(function.yieldType)) {
        function.returnType = types::generator(function.yieldType);
        changed = true;
      }
      if (reportUnknown && !function.yieldType)
        throwTypingError("Cannot type generator: it does not yield any value",
                         source.definitionLocation);
    } else if (!returnSeen)
      unifyReturn(types::none(), source.definitionLocation);
    else if (blockCompletes(function, source.body))
      unifyReturn(types::none(), source.definitionLocation);
    if (reportUnknown && !function.returnType)
      throwTypingError("cannot determine the return type of '" + source.name +
                           "' (recursion without a base case?)",
                       source.definitionLocation);
    return changed;
  }

private:
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
  bool reportUnknown;
  bool changed = false;
  bool returnSeen = false;
  std::set<std::string> localNames;
  /// Name expressions whose use keeps an Optional variable optional (OptionalTyping.h); other
  /// uses read its value.
  std::set<int> keepsOptional;
  /// The calls for loops iterate (`for x in zip(a, b)`), by expression id: their library
  /// entries may choose to iterate their arguments in step.
  std::set<int> loopIterables;
  /// The locals assigned once (typing/LiteralUnroll.h), found when first needed.
  std::optional<SingleAssignments> singleAssignments;

  void collectLocals() {
    for (const Parameter &parameter : source.parameters)
      localNames.insert(parameter.name);
    collectLocalsIn(source.body);
  }

  /// Adds the names `block` assigns to localNames.
  void collectLocalsIn(const std::vector<Stmt *> &block) {
    std::function<void(Expr *)> addTarget = [&](Expr *target) {
      if (target->kind == ExprKind::Name)
        localNames.insert(target->name);
      else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
        for (Expr *element : target->operands)
          addTarget(element);
    };
    std::function<void(const std::vector<Stmt *> &)> walk;
    // A comprehension's loop assigns its hidden variables (SyntaxTree.h).
    std::function<void(Expr *)> visit = [&](Expr *expr) {
      if (!expr)
        return;
      if (expr->kind == ExprKind::Comprehension)
        walk(expr->statements);
      for (Expr *operand : expr->operands)
        visit(operand);
    };
    walk = [&](const std::vector<Stmt *> &block) {
      for (Stmt *stmt : block) {
        for (Expr *target : stmt->targets) {
          addTarget(target);
          visit(target);
        }
        visit(stmt->value);
        visit(stmt->test);
        visit(stmt->message);
        walk(stmt->body);
        walk(stmt->orelse);
        for (ExceptHandler &handler : stmt->handlers)
          walk(handler.body);
        walk(stmt->finalbody);
      }
    };
    walk(block);
  }

  void assignVariable(const std::string &name, const Type *type, SourceLocation location) {
    if (!type)
      return;
    if (!type->isRuntimeValue() && type->kind() != TypeKind::StringLiteral &&
        type->kind() != TypeKind::JitFunction && type->kind() != TypeKind::Builtin &&
        type->kind() != TypeKind::DType && type->kind() != TypeKind::Module)
      throwTypingError("cannot assign a value of type " + describe(type) + " to variable '" + name +
                           "'",
                       location);
    const Type *&slot = function.variableTypes[name];
    const Type *unified = unifyWithOptional(slot, type);
    if (!unified)
      throwTypingError("cannot unify " + describe(slot) + " and " + describe(type) +
                           " for variable '" + name + "'",
                       location);
    if (unified != slot) {
      slot = unified;
      changed = true;
    }
    auto &names = function.assignmentsByLine[location.line];
    if (std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }

  void unifyReturn(const Type *type, SourceLocation location) {
    if (!type)
      return;
    if (type->kind() == TypeKind::StringLiteral)
      type = types::unicode(); // a returned literal is a string value
    const Type *unified = unifyWithOptional(function.returnType, type);
    if (!unified)
      throwTypingError("cannot unify the return types " + describe(function.returnType) + " and " +
                           describe(type) + " of '" + source.name + "'",
                       location);
    if (unified != function.returnType) {
      function.returnType = unified;
      changed = true;
    }
  }

  const Type *record(Expr *expr, const Type *type) {
    if (!type && reportUnknown)
      throwTypingError("cannot determine the type of this expression", expr->location);
    if (static_cast<size_t>(expr->id) >= function.expressionTypes.size()) // a synthetic one
      function.expressionTypes.resize(source.expressionCount(), nullptr);
    function.expressionTypes[expr->id] = type;
    return type;
  }

  void typeBlock(const std::vector<Stmt *> &block) {
    for (Stmt *stmt : block) {
      typeStatement(stmt);
      if (!statementCompletes(function, stmt))
        break; // what follows is dead code, as Numba removes it
    }
  }

  void typeStatement(Stmt *stmt) {
    switch (stmt->kind) {
    case StmtKind::Assign: {
      const Type *value = typeExpr(stmt->value);
      for (Expr *target : stmt->targets)
        assignTarget(target, value);
      break;
    }
    case StmtKind::AugAssign: {
      Expr *target = stmt->targets[0];
      if (stmt->augmentedOp == BinaryOp::MatMult) {
        // In place, a matrix product would overwrite operands it still reads (NumPy copies;
        // Numba refuses): refused, with the spelling that works.
        const Type *current = typeExpr(target);
        const Type *value = typeExpr(stmt->value);
        if ((current && current->isArray()) || (value && value->isArray()))
          throwUnsupported("in-place matrix multiplication (a @= b) is not supported; write "
                           "a = a @ b",
                           stmt->location);
      }
      if (target->kind == ExprKind::Subscript || target->kind == ExprKind::Attribute) {
        const Type *current = typeExpr(target);
        const Type *value = typeExpr(stmt->value);
        if (current && value) {
          const Type *result =
              current->isArray() || value->isArray()
                  ? typeElementwiseBinary(stmt->augmentedOp, current, value, stmt->location, false,
                                          isNumberLiteral(stmt->value))
                  : binaryResultType(stmt->augmentedOp, current, value);
          if (!current->isArray() && !value->isArray())
            if (const Type *datetime =
                    datetimeBinaryResultType(stmt->augmentedOp, current, value, stmt->location))
              result = datetime;
          if (!result) // l[i] += 'x' of strings
            result = stringBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
          if (!result)
            throwTypingError(std::string("unsupported operand types for ") +
                                 binaryOpSymbol(stmt->augmentedOp) + "=: " + describe(current) +
                                 " and " + describe(value),
                             stmt->location);
          checkArrayStore(target, current, result);
        }
        break;
      }
      if (target->kind != ExprKind::Name)
        throwUnsupported("augmented assignment to this target is not supported yet",
                         target->location);
      const Type *current = typeExpr(target);
      const Type *value = typeExpr(stmt->value);
      if (current && value && current->isList()) {
        typeListInPlace(stmt, target, value);
        break;
      }
      if (current && value && current->isSet()) {
        typeSetAugmentedAssign(stmt, current, value);
        break;
      }
      if (current && value) {
        const Type *result =
            stringBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
        if (!result)
          result = datetimeBinaryResultType(stmt->augmentedOp, current, value, stmt->location);
        if (!result)
          result = typeElementwiseBinary(stmt->augmentedOp, current, value, stmt->location, false,
                                         isNumberLiteral(stmt->value));
        if (!result)
          result = binaryResultType(stmt->augmentedOp, current, value);
        if (!result)
          throwTypingError(std::string("unsupported operand types for ") +
                               binaryOpSymbol(stmt->augmentedOp) + "=: " + describe(current) +
                               " and " + describe(value),
                           stmt->location);
        if (current->isArray()) {
          // a += b updates the array in place: its type stays, its dtype takes the result.
          if (current->isReadonly())
            throwTypingError("cannot modify a read-only array in place (" +
                                 std::string(binaryOpSymbol(stmt->augmentedOp)) + "=)",
                             stmt->location);
          if (value->isArray() && value->ndim() > current->ndim())
            throwTypingError("cannot broadcast " + describe(value) + " into " + describe(current),
                             stmt->location);
        } else {
          assignVariable(target->name, result, stmt->location);
        }
      }
      break;
    }
    case StmtKind::ExprStmt:
      typeExpr(stmt->value);
      break;
    case StmtKind::Return:
      returnSeen = true;
      if (source.isGenerator) { // ends the generator: StopIteration
        const Type *value = stmt->value ? typeExpr(stmt->value) : types::none();
        if (value && !value->isNone())
          throwUnsupported("return with a value in a generator is not supported (the value of "
                           "its StopIteration); use a bare return",
                           stmt->location);
        break;
      }
      unifyReturn(stmt->value ? typeExpr(stmt->value) : types::none(), stmt->location);
      break;
    case StmtKind::Yield:
      typeYield(stmt);
      break;
    case StmtKind::If:
      if (std::optional<bool> decided = decideCondition(stmt->test)) {
        typeBlock(*decided ? stmt->body : stmt->orelse);
        break;
      }
      typeCondition(stmt->test);
      typeBlock(stmt->body);
      typeBlock(stmt->orelse);
      break;
    case StmtKind::While:
      typeCondition(stmt->test);
      typeBlock(stmt->body);
      typeBlock(stmt->orelse);
      break;
    case StmtKind::For:
      typeFor(stmt);
      break;
    case StmtKind::Raise:
      if (stmt->value)
        typeRaised(stmt->value);
      break;
    case StmtKind::Assert:
      typeCondition(stmt->test);
      if (stmt->message)
        typeExceptionArgument(stmt->message);
      break;
    case StmtKind::Try:
      typeTry(stmt);
      break;
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Pass:
      break;
    }
  }

  /// `yield value`: the generator's items are the unification of every value it yields.
  void typeYield(Stmt *stmt) {
    const Type *type = stmt->value ? typeExpr(stmt->value) : types::none();
    if (!type)
      return;
    if (type->kind() == TypeKind::StringLiteral)
      type = types::unicode(); // a yielded literal is a string value
    if (!type->isRuntimeValue())
      throwTypingError("cannot yield a value of type " + describe(type), stmt->location);
    const Type *unified = unifyWithOptional(function.yieldType, type);
    if (!unified)
      throwTypingError("Can't unify yield type from the following types: " +
                           describe(function.yieldType) + ", " + describe(type),
                       stmt->location);
    if (unified != function.yieldType) {
      function.yieldType = unified;
      changed = true;
    }
    if (stmt->targets.empty())
      return;
    // `x = yield v`: x is what send() passes, None after next() (runtime/Generators.h).
    const Type *sent = generatorSentType(function.yieldType);
    if (!sent)
      throwUnsupported("the value of a yield expression (send()) is supported in generators "
                       "yielding numbers or tuples of them, not " +
                           describe(function.yieldType),
                       stmt->location);
    assignTarget(stmt->targets[0], sent);
  }

  /// Every block of a try statement is typed: any statement of the body may raise, so each
  /// handler is reachable. An except clause names exception classes only.
  void typeTry(Stmt *stmt) {
    typeBlock(stmt->body);
    for (ExceptHandler &handler : stmt->handlers) {
      for (Expr *named : handlerClasses(handler)) {
        const Type *type = typeExpr(named);
        if (type && type->kind() != TypeKind::ExceptionClass)
          throwUnsupported("an except clause must name exception classes, not " + describe(type),
                           named->location);
      }
      typeBlock(handler.body);
    }
    typeBlock(stmt->orelse);
    typeBlock(stmt->finalbody);
  }

  /// The value of a condition when types alone decide it, recorded in staticConditions:
  /// comparisons of None with a value (`x is None`, `x is not None`, `x == None`, `ord == 2`
  /// when ord is None), constants, and `not`/`and`/`or` of those. Otherwise nothing.
  std::optional<bool> decideCondition(Expr *test) {
    std::optional<bool> decided = staticTruth(test);
    if (decided)
      function.staticConditions[test->id] = *decided;
    else
      function.staticConditions.erase(test->id);
    return decided;
  }

  std::optional<bool> staticTruth(Expr *expr) {
    switch (expr->kind) {
    case ExprKind::Constant:
      return constantTruth(expr->constant);
    case ExprKind::Name: {
      const Type *type = typeExpr(expr);
      if (type && type->isNone())
        return false;
      auto global = function.globals.find(expr->id);
      if (global != function.globals.end() && global->second.kind == GlobalValue::Kind::Constant)
        return constantTruth(global->second.constant);
      return std::nullopt;
    }
    case ExprKind::UnaryOp:
      if (expr->unaryOp == UnaryOp::Not)
        if (std::optional<bool> operand = staticTruth(expr->operands[0]))
          return !*operand;
      return std::nullopt;
    case ExprKind::BoolOp:
      // `a and b` is false once an operand is, `a or b` true once one is; an undecided operand
      // before that leaves the whole undecided.
      for (Expr *operand : expr->operands) {
        std::optional<bool> value = staticTruth(operand);
        if (!value)
          return std::nullopt;
        if (*value != expr->isAnd)
          return *value;
      }
      return expr->isAnd;
    case ExprKind::Compare: {
      if (expr->compareOps.size() != 1)
        return std::nullopt;
      CompareOp op = expr->compareOps[0];
      bool identity = op == CompareOp::Is || op == CompareOp::Eq;
      if (!identity && op != CompareOp::IsNot && op != CompareOp::NotEq)
        return std::nullopt;
      const Type *left = typeExpr(expr->operands[0]);
      const Type *right = typeExpr(expr->operands[1]);
      if (!left || !right || (!left->isNone() && !right->isNone()) || left->isOptional() ||
          right->isOptional())
        return std::nullopt; // an optional value is None or not at run time
      if (left->isArray() || right->isArray())
        return std::nullopt; // `a == None` is elementwise in NumPy
      return (left->isNone() && right->isNone()) == identity;
    }
    case ExprKind::Call: {
      const Type *callee = typeExpr(expr->callee());
      if (isIsinstance(callee))
        return decideIsinstance(expr);
      if (callee && callee->kind() == TypeKind::Builtin && callee->text() == "hasattr" &&
          typeExpr(expr))
        return function.libraryCalls.at(expr->id).form != 0;
      return std::nullopt;
    }
    default:
      return std::nullopt;
    }
  }

  static bool isIsinstance(const Type *callee) {
    return callee && callee->kind() == TypeKind::Builtin && callee->text() == "isinstance";
  }

  /// isinstance(value, classes): decided from the value's type (typing/Isinstance.h) and
  /// recorded as the library call's form and, when known while compiling, as a static
  /// condition, so that the branch it rules out is pruned. Its classes are named, not typed as
  /// values; nullopt while the value's type is unknown.
  std::optional<IsinstanceAnswer> typeIsinstance(Expr *expr) {
    if (expr->positionalCount() != 2 || !expr->keywordNames.empty())
      throwTypingError("isinstance() takes 2 positional arguments", expr->location);
    if (expr->operands[1]->kind == ExprKind::Name) // an optional variable is None or not
      keepsOptional.insert(expr->operands[1]->id);
    const Type *value = typeExpr(expr->operands[1]);
    if (!value)
      return std::nullopt;
    IsinstanceAnswer answer =
        isinstanceAnswer(value, isinstanceClasses(expr->operands[2]), expr->location);
    LibraryCall call;
    call.function = Library::get().find("isinstance");
    call.location = expr->location;
    call.arguments = {expr->operands[1]};
    call.argumentTypes = {value};
    call.resultType = types::boolean();
    call.form = static_cast<unsigned>(answer);
    function.libraryCalls[expr->id] = std::move(call);
    if (answer == IsinstanceAnswer::True || answer == IsinstanceAnswer::False)
      function.staticConditions[expr->id] = answer == IsinstanceAnswer::True;
    return answer;
  }

  /// isinstance(...) as a condition: its answer when known while compiling.
  std::optional<bool> decideIsinstance(Expr *expr) {
    std::optional<IsinstanceAnswer> answer = typeIsinstance(expr);
    if (!answer || *answer == IsinstanceAnswer::WhenNotNone ||
        *answer == IsinstanceAnswer::WhenNone)
      return std::nullopt;
    return *answer == IsinstanceAnswer::True;
  }

  /// The qualified names of the classes isinstance's second argument names: a global class,
  /// a module's (np.float32), or a tuple of those, nested as isinstance allows.
  std::vector<std::string> isinstanceClasses(Expr *classes) {
    if (classes->kind == ExprKind::Tuple) {
      std::vector<std::string> names;
      for (Expr *item : classes->operands)
        for (std::string &name : isinstanceClasses(item))
          names.push_back(std::move(name));
      return names;
    }
    auto cached = function.globals.find(classes->id);
    if (cached == function.globals.end()) {
      GlobalValue value;
      if (classes->kind == ExprKind::Name && !localNames.count(classes->name)) {
        value = source.resolver->resolveName(classes->name);
      } else if (classes->kind == ExprKind::Attribute) {
        const Type *base = typeExpr(classes->operands[0]);
        if (base && base->kind() == TypeKind::Module)
          value = source.resolver->resolveAttribute(function.globals.at(classes->operands[0]->id),
                                                    classes->name);
      }
      cached = function.globals.emplace(classes->id, std::move(value)).first;
    }
    if (cached->second.className.empty())
      throwTypingError("isinstance() arg 2 must be a class, or a tuple of classes, named by a "
                       "global or a module attribute",
                       classes->location);
    return {cached->second.className};
  }

  static std::optional<bool> constantTruth(const Constant &constant) {
    switch (constant.kind) {
    case Constant::Kind::None:
      return false;
    case Constant::Kind::Bool:
    case Constant::Kind::Int:
    case Constant::Kind::UInt:
      return constant.intValue != 0;
    case Constant::Kind::Float:
      return constant.floatValue != 0.0;
    case Constant::Kind::String:
      return !constant.text.empty();
    default:
      return std::nullopt;
    }
  }

  void typeCondition(Expr *test) {
    const Type *type = typeExpr(test);
    if (isClassInstance(type)) { // `if p:`: bool(p), the class's __bool__ (or its fallbacks)
      OverloadMember member = source.resolver->findMember(type, "__bool__");
      if (member.registryId < 0 || member.isAttribute)
        throwTypingError("jitclass " + type->text() + " has no truth value (__bool__)",
                         test->location);
      std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
          member.registryId, {type}, {}, {}, false, test->location);
      CallBinding binding;
      binding.arguments = {test};
      binding.callee = callees.typeCallee(implementation.get(), {type}, test->location);
      int key = attributeSetterKey(test); // a condition is never an assignment target
      function.calls[key] = binding;
      function.overloadImplementations[key] = std::move(implementation);
      return;
    }
    static const std::set<TypeKind> containers = {
        TypeKind::List,  TypeKind::Dict,     TypeKind::DictView, TypeKind::Set,
        TypeKind::Range, TypeKind::Datetime, TypeKind::Timedelta};
    // Containers are true when not empty (lowering's truthValue), as in Python.
    if (type && !type->isNumber() && !type->isNone() && !type->isTuple() && !type->isString() &&
        !containers.count(type->kind()))
      throwTypingError("cannot use a value of type " + describe(type) + " as a condition",
                       test->location);
  }

  void typeRaised(Expr *value) {
    const Type *type = typeExpr(value);
    if (isCaughtExceptionName(value)) // `raise e` in `except ... as e`
      return;
    if (type && type->kind() == TypeKind::ExceptionClass)
      return;
    if (value->kind == ExprKind::Call && value->callee()->kind != ExprKind::Attribute) {
      const Type *calleeType = function.expressionTypes[value->callee()->id];
      if (calleeType && calleeType->kind() == TypeKind::ExceptionClass)
        return;
    }
    throwUnsupported("can only raise an exception class, or an instance built from constant "
                     "arguments",
                     value->location);
  }

  void typeExceptionArgument(Expr *argument) {
    const Type *type = typeExpr(argument);
    if (type && !type->isNumber() && !type->isNone() && !type->isString())
      throwUnsupported("exception arguments must be constants or numbers, not " + describe(type),
                       argument->location);
  }

  void assignTarget(Expr *target, const Type *value) {
    if (target->kind == ExprKind::Name) {
      assignVariable(target->name, value, target->location);
      record(target, function.variableTypes[target->name]);
      return;
    }
    if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
      if (!value) {
        for (Expr *element : target->operands)
          assignTarget(element, nullptr);
        return;
      }
      if (!value->isTuple())
        throwTypingError("cannot unpack a value of type " + describe(value), target->location);
      if (value->elements().size() != target->operands.size())
        throwTypingError("cannot unpack " + std::to_string(value->elements().size()) +
                             " values into " + std::to_string(target->operands.size()) + " targets",
                         target->location);
      for (size_t i = 0; i < target->operands.size(); ++i)
        assignTarget(target->operands[i], value->elements()[i]);
      record(target, value);
      return;
    }
    if (target->kind == ExprKind::Subscript) {
      const Type *base = typeExpr(target->operands[0]);
      if (base && isClassInstance(base)) { // p[i] = v: the class's __setitem__
        if (value)
          typeClassItemStore(target, base, value);
        return;
      }
      if (base && base->isLiteralList())
        throwTypingError("Cannot mutate a literal list (a list of items of different types)",
                         target->location);
      if (base && base->isDict()) { // d[k] = v, which may type `{}` (typeDictStore)
        const Type *key = typeExpr(target->operands[1]);
        if (key && value)
          typeDictStore(target, key, value);
        return;
      }
      const Type *slot = typeExpr(target);
      if (slot && value)
        checkArrayStore(target, slot, value);
      return;
    }
    if (target->kind == ExprKind::Attribute) { // r.x = v, a[i].x = v: a record's field
      const Type *instance = classInstanceOf(typeExpr(target->operands[0]));
      if (instance) { // p.x = v, p.prop = v (p may be an optional instance, checked)
        if (value)
          typeClassAttributeStore(target, instance, value);
        return;
      }
      const Type *slot = typeExpr(target);
      const Type *base = typeOf(target->operands[0]);
      if (slot && value)
        checkRecordStore(target, base, slot, value);
      return;
    }
    throwUnsupported("cannot assign to this target", target->location);
  }

  /// `p[i]`, `p + q`, `p == q` with a jitclass instance `p` on the left (its operands typed):
  /// a call of the class's method (`__getitem__`, `__add__`, `__eq__`), self first.
  const Type *typeClassOperator(Expr *expr, const std::string &method, const std::string &what) {
    const Type *self = typeOf(expr->operands[0]);
    OverloadMember member = source.resolver->findMember(self, method);
    if (member.registryId < 0 || member.isAttribute)
      throwTypingError("jitclass " + self->text() + " does not support '" + what +
                           "' (it defines no " + method + ")",
                       expr->location);
    return typeOverloadCall(expr, types::overload(member.registryId, method), expr->operands[0]);
  }

  /// `x in p` / `x not in p` of a jitclass instance: a call of its __contains__(self, x), bound
  /// to the operands in that order (lowering negates it for `not in`).
  const Type *typeClassContains(Expr *expr, const Type *instance, const Type *item) {
    OverloadMember member = source.resolver->findMember(instance, "__contains__");
    if (member.registryId < 0 || member.isAttribute)
      throwTypingError("jitclass " + instance->text() +
                           " does not support 'in' (it defines no __contains__)",
                       expr->location);
    std::vector<const Type *> arguments = {instance, item};
    std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
        member.registryId, arguments, {}, {}, false, expr->location);
    CallBinding binding;
    binding.arguments = {expr->operands[1], expr->operands[0]};
    binding.callee = callees.typeCallee(implementation.get(), arguments, expr->location);
    function.calls[expr->id] = binding;
    function.overloadImplementations[expr->id] = std::move(implementation);
    return binding.callee->returnType ? types::boolean() : nullptr;
  }

  /// `p[i] = value` of a jitclass instance: a call of its __setitem__(self, i, value), recorded
  /// under attributeSetterKey as a property's setter is.
  void typeClassItemStore(Expr *target, const Type *instance, const Type *value) {
    const Type *index = typeExpr(target->operands[1]);
    if (!index)
      return;
    OverloadMember setter = source.resolver->findMember(instance, "__setitem__");
    if (setter.registryId < 0 || setter.isAttribute)
      throwTypingError("jitclass " + instance->text() +
                           " does not support item assignment (it defines no __setitem__)",
                       target->location);
    std::vector<const Type *> arguments = {instance, index, value};
    std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
        setter.registryId, arguments, {}, {}, false, target->location);
    CallBinding binding;
    binding.arguments = {target->operands[0], target->operands[1]};
    binding.callee = callees.typeCallee(implementation.get(), arguments, target->location);
    int key = attributeSetterKey(target);
    function.calls[key] = binding;
    function.overloadImplementations[key] = std::move(implementation);
  }

  /// `p.name = value` of a jitclass instance: into a field (converted as classFieldAccepts
  /// allows), or a call of the property's setter, recorded under attributeSetterKey.
  void typeClassAttributeStore(Expr *target, const Type *instance, const Type *value) {
    if (const Type *field = classFieldType(instance, target->name)) {
      if (!classFieldAccepts(field, value))
        throwTypingError("cannot store a value of type " + describe(value) + " into the field '" +
                             target->name + "' of type " + describe(field) + " of jitclass " +
                             instance->text(),
                         target->location);
      record(target, field);
      return;
    }
    OverloadMember setter = source.resolver->findMember(instance, propertySetterName(target->name));
    if (setter.registryId < 0) {
      OverloadMember getter = source.resolver->findMember(instance, target->name);
      throwTypingError(getter.registryId >= 0
                           ? "cannot set attribute '" + target->name + "' of jitclass " +
                                 instance->text() + ": it is a property without a setter"
                           : "jitclass " + instance->text() + " has no field or property '" +
                                 target->name + "' to set",
                       target->location);
    }
    std::shared_ptr<FunctionSource> implementation = source.resolver->implementOverload(
        setter.registryId, {instance, value}, {}, {}, false, target->location);
    CallBinding binding;
    binding.arguments = {target->operands[0]};
    binding.callee = callees.typeCallee(implementation.get(), {instance, value}, target->location);
    int key = attributeSetterKey(target);
    function.calls[key] = binding;
    function.overloadImplementations[key] = std::move(implementation);
  }

  /// `record.name = value` or `record['name'] = value`: a number into a number field, a record
  /// into a nested record of its type (copied). Subarray fields are assigned per element.
  void checkRecordStore(Expr *target, const Type *base, const Type *slot, const Type *value) {
    if (!base || !base->isRecord())
      throwUnsupported("cannot assign to an attribute of a value of type " + describe(base),
                       target->location);
    if (slot->isArray()) { // a subarray field takes a number or an array broadcast into it
      const Type *element = value->isArray() ? value->dtype() : value;
      if (!recordStoreAllowed(slot->dtype(), element) ||
          (value->isArray() && value->ndim() > slot->ndim()))
        throwTypingError("cannot store a value of type " + describe(value) + " into the " +
                             "subarray field of type " + describe(slot),
                         target->location);
      return;
    }
    if (!recordStoreAllowed(slot, value))
      throwTypingError("cannot store a value of type " + describe(value) + " into the field " +
                           "of type " + describe(slot) + " of " + describe(base),
                       target->location);
  }

  /// `array[index] = value`: a number into an element, or a number or array broadcast into a view.
  void checkArrayStore(Expr *target, const Type *slot, const Type *value) {
    const Type *base = typeOf(target->operands[0]);
    if (target->kind == ExprKind::Attribute && classInstanceOf(base)) { // p.x += v
      typeClassAttributeStore(target, classInstanceOf(base), value);
      return;
    }
    if (target->kind == ExprKind::Subscript && isClassInstance(base)) { // p[i] += v
      typeClassItemStore(target, base, value);
      return;
    }
    if (base->isDict()) { // d[k] += v
      typeDictStore(target, typeOf(target->operands[1]), value);
      return;
    }
    if (base->isRecord() || target->kind == ExprKind::Attribute) { // r['x'] = v, r.x += v
      checkRecordStore(target, base, slot, value);
      return;
    }
    if (base->isArray() && slot->isRecord()) { // a[i] = r copies the record's bytes
      if (base->isReadonly() || !recordStoreAllowed(slot, value))
        throwTypingError("cannot store a value of type " + describe(value) + " into " +
                             describe(base),
                         target->location);
      return;
    }
    if (base->isPointer()) {
      if (!value->isNumber() || (value->isComplex() && !slot->isComplex()))
        throwTypingError("cannot store a value of type " + describe(value) + " through " +
                             describe(base),
                         target->location);
      return;
    }
    if (base->isList()) {
      checkListStore(target, value);
      return;
    }
    if (!base->isArray())
      throwTypingError("cannot assign to an item of a value of type " + describe(base),
                       target->location);
    if (base->isReadonly())
      throwTypingError("cannot assign to an item of a read-only array", target->location);
    const Type *element = value->isArray() ? value->dtype() : value;
    if (element->isDatetimeLike() || base->dtype()->isDatetimeLike()) {
      // Same kind, and a unit that converts exactly to the array's (coarser or equal).
      if (element->kind() != base->dtype()->kind() ||
          !datetimeConversionFactor(element->datetimeUnit(), base->dtype()->datetimeUnit()))
        throwTypingError("cannot store a value of type " + describe(value) + " into " +
                             describe(base),
                         target->location);
      return;
    }
    if (!element->isNumber() || (element->isComplex() && !base->dtype()->isComplex()))
      throwTypingError("cannot store a value of type " + describe(value) + " into " +
                           describe(base),
                       target->location);
    if (value->isArray() && (!slot->isArray() || value->ndim() > slot->ndim()))
      throwTypingError("cannot broadcast " + describe(value) + " into " + describe(slot),
                       target->location);
  }

  /// The item type of iterating over `iterable`, or nullptr when it is not iterable.
  static const Type *iterationItemType(const Type *iterable, SourceLocation location) {
    if (iterable->kind() == TypeKind::Range)
      return types::int64();
    if (iterable->isUniformTuple())
      return iterable->elements().front();
    if (iterable->isArray() && iterable->ndim() > 0)
      return typeArrayIndex(iterable, {types::int64()}, location);
    if (iterable->isList())
      return iterable->itemType();
    if (iterable->isDict() || iterable->isSet())
      return iterable->keyType();
    if (iterable->isDictView())
      return iterable->viewItemType();
    if (iterable->isGenerator())
      return iterable->yieldType();
    if (iterable->isString()) // its characters
      return types::unicode();
    return nullptr;
  }

  /// A for loop over np.ndindex, np.ndenumerate or np.nditer: typed by typeIndexIteration.
  bool typeIndexIterationLoop(Stmt *stmt) {
    Expr *call = stmt->value;
    if (call->kind != ExprKind::Call || !call->keywordNames.empty())
      return false;
    const Type *callee = typeExpr(call->callee());
    if (callee && callee->kind() == TypeKind::Builtin && isIndexIteration(callee->text()))
      return typeIndexIteration(stmt, callee->text());
    return false;
  }

  /// `for ... in enumerate(a)` / `zip(a, b)` whose library entry chose to iterate the arguments
  /// in step (some is an array or a range): the item is the tuple of their items, after the
  /// index for enumerate. False when the loop iterates a value.
  bool typeInStepIteration(Stmt *stmt) {
    Expr *call = stmt->value;
    auto library = function.libraryCalls.find(call->id);
    if (call->kind != ExprKind::Call || library == function.libraryCalls.end() ||
        library->second.iteration == LibraryIteration::OverResult)
      return false;
    const LibraryCall &iterated = library->second;
    std::vector<const Type *> parts;
    bool counted = iterated.iteration == LibraryIteration::CountedArgumentsInStep;
    if (counted)
      parts.push_back(types::int64());
    // enumerate's second argument is its start, not an iterable
    for (size_t i = 0; i < (counted ? 1 : iterated.arguments.size()); ++i) {
      const Type *item =
          iterationItemType(iterated.argumentTypes[i], iterated.arguments[i]->location);
      if (!item)
        throwTypingError("cannot iterate over a value of type " +
                             describe(iterated.argumentTypes[i]),
                         iterated.arguments[i]->location);
      parts.push_back(item);
    }
    assignTarget(stmt->targets[0], types::tuple(parts));
    return true;
  }

  /// `for index in np.ndindex(shape)`, `for index, value in np.ndenumerate(a)` and `for x in
  /// np.nditer(a)`: a loop over an index space in C order (the call itself is typed as none).
  bool typeIndexIteration(Stmt *stmt, const std::string &name) {
    Expr *call = stmt->value;
    std::vector<const Type *> arguments;
    for (size_t i = 1; i < call->operands.size(); ++i) {
      arguments.push_back(typeExpr(call->operands[i]));
      if (!arguments.back())
        return true; // not known yet: the next pass decides
    }
    const Type *item = nullptr;
    if (name == "numpy.ndindex") {
      // ndindex(3, 4) or ndindex((3, 4)): integers, or one tuple of integers.
      std::vector<const Type *> extents = arguments;
      if (arguments.size() == 1 && arguments[0]->isTuple())
        extents = arguments[0]->elements();
      for (const Type *extent : extents)
        if (!extent->isInteger())
          throwTypingError("np.ndindex() takes integers or a tuple of integers, not " +
                               describeArgumentTypes(arguments),
                           call->location);
      item = types::tuple(std::vector<const Type *>(extents.size(), types::int64()));
    } else {
      if (arguments.size() != 1 || !arguments[0]->isArray())
        throwTypingError(name.substr(6) + "() takes one array, not " +
                             describeArgumentTypes(arguments),
                         call->location);
      const Type *array = arguments[0];
      if (name == "numpy.nditer") {
        item = types::array(array->dtype(), 0, 'C', array->isReadonly());
      } else {
        const Type *index = types::tuple(std::vector<const Type *>(array->ndim(), types::int64()));
        item = types::tuple({index, array->dtype()});
      }
    }
    record(call, types::none());
    assignTarget(stmt->targets[0], item);
    typeBlock(stmt->body);
    typeBlock(stmt->orelse);
    return true;
  }

  void typeFor(Stmt *stmt) {
    if (typeIndexIterationLoop(stmt)) {
      typeBlock(stmt->body);
      typeBlock(stmt->orelse);
      return;
    }
    loopIterables.insert(stmt->value->id);
    const Type *iterable = typeExpr(stmt->value);
    if (typeUnrolledLoop(stmt, iterable))
      return;
    if (iterable && iterable->isTuple() && iterable->elements().empty()) {
      typeBlock(stmt->orelse); // `for x in ()`, `zip()`: the body never runs
      return;
    }
    const Type *element = nullptr;
    // An in-step iteration types its target itself (the call is none).
    if (iterable && !typeInStepIteration(stmt)) {
      if (iterable->kind() == TypeKind::Range)
        element = types::int64();
      else if (iterable->isString())
        element = types::unicode();
      else if (iterable->isUniformTuple())
        element = iterable->elements().front();
      else if (iterable->isArray() && iterable->ndim() > 0)
        element = typeArrayIndex(iterable, {types::int64()}, stmt->value->location);
      else if (iterable->isList() || (iterable->isTuple() && iterable->elements().empty()))
        element = iterable->isList() ? iterable->itemType() : nullptr;
      else if (iterable->isDict()) // the keys, in insertion order
        element = iterable->keyType();
      else if (iterable->isDictView()) // keys, values or (key, value) pairs, in order
        element = iterable->viewItemType();
      else if (iterable->isGenerator())
        element = iterable->yieldType();
      else if (iterable->isSet()) // the keys, in CPython's table order
        element = iterable->keyType();
      else
        throwTypingError("cannot iterate over a value of type " + describe(iterable) +
                             (iterable->isTuple() ? " (only tuples of one element type)" : ""),
                         stmt->value->location);
    }
    if (element)
      assignTarget(stmt->targets[0], element);
    typeBlock(stmt->body);
    typeBlock(stmt->orelse);
  }

  /// `for x in literal_unroll(t)` over a tuple of items of different types (or string
  /// literals): each copy of the body (syntax/LoopUnrolling.h) is typed with its item's type.
  /// False when the loop is an ordinary one.
  bool typeUnrolledLoop(Stmt *stmt, const Type *iterable) {
    Expr *call = stmt->value;
    bool unrollCall = call->kind == ExprKind::Call && call->positionalCount() == 1 &&
                      call->keywordNames.empty() && !call->starredOperand;
    const Type *callee = unrollCall ? function.typeOf(call->callee()) : nullptr;
    if (!callee || callee->kind() != TypeKind::Builtin || callee->text() != "taipan.literal_unroll")
      return false;
    if (!iterable || !iterable->isTuple()) {
      function.unrolledLoops.erase(stmt);
      return !iterable; // unknown yet: its body waits for the next pass
    }
    if (!singleAssignments)
      singleAssignments = findSingleAssignments(source);
    ConstantStringContext context{function.globals, *singleAssignments, function.expressionTypes};
    std::vector<const Type *> items = unrolledItemTypes(iterable, call->operands[1], context);
    if (items.empty() && !iterable->elements().empty()) { // an ordinary loop
      function.unrolledLoops.erase(stmt);
      return false;
    }
    UnrolledLoop &loop = function.unrolledLoops[stmt];
    loop.container = call->operands[1];
    loop.itemTypes = items;
    loop.copies.clear();
    for (size_t i = 0; i < items.size(); ++i) {
      const UnrolledLoopCopy &copy = unrolledLoopCopy(source, stmt, i);
      loop.copies.push_back(&copy);
      collectLocalsIn(copy.body);
      addLocalTarget(copy.target);
      std::set<int> optionalUses = optionalPreservingUses(copy.body);
      keepsOptional.insert(optionalUses.begin(), optionalUses.end());
      assignTarget(copy.target, items[i]);
      typeBlock(copy.body);
    }
    typeBlock(stmt->orelse);
    return true;
  }

  /// The string `expr` always holds, when compiling knows it (typing/LiteralUnroll.h).
  std::optional<std::string> knownString(const Expr *expr) {
    if (!singleAssignments)
      singleAssignments = findSingleAssignments(source);
    return constantString(expr, {function.globals, *singleAssignments, function.expressionTypes});
  }

  void addLocalTarget(Expr *target) {
    if (target->kind == ExprKind::Name)
      localNames.insert(target->name);
    else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List)
      for (Expr *element : target->operands)
        addLocalTarget(element);
  }

  const Type *typeExpr(Expr *expr) {
    if (!expr)
      return nullptr;
    return record(expr, computeType(expr));
  }

  const Type *globalType(Expr *expr, const GlobalValue &value) {
    switch (value.kind) {
    case GlobalValue::Kind::Constant:
      return constantType(value.constant);
    case GlobalValue::Kind::ConstantArray:
      return value.arrayType;
    case GlobalValue::Kind::ConstantTuple: {
      std::vector<const Type *> elements;
      for (const Constant &item : value.items) // strings as run-time values, as in a literal
        elements.push_back(item.kind == Constant::Kind::String ? types::unicode()
                                                               : constantType(item));
      return types::tuple(elements);
    }
    case GlobalValue::Kind::Module:
      return types::module(value.name);
    case GlobalValue::Kind::Builtin:
      if (const LibraryValue *libraryValue = Library::get().findValue(value.name))
        return libraryValue->type; // cuda.laneid, cuda.warpsize
      return types::builtin(value.name);
    case GlobalValue::Kind::JitFunction:
      return types::jitFunction(value.function.get());
    case GlobalValue::Kind::ExceptionClass:
      return types::exceptionClass(value.exceptionId, value.name);
    case GlobalValue::Kind::ExternalFunction:
    case GlobalValue::Kind::DType:
      return value.functionType;
    case GlobalValue::Kind::Overload:
      return types::overload(value.registryId, value.name);
    case GlobalValue::Kind::Intrinsic:
      return types::intrinsic(value.registryId, value.name);
    case GlobalValue::Kind::Unsupported:
      throwTypingError("'" + expr->name + "' " +
                           (value.reason.empty() ? "is a value of type " + value.name +
                                                       ", which compiled code cannot use"
                                                 : value.reason),
                       expr->location);
    case GlobalValue::Kind::Missing:
      throwTypingError("name '" + expr->name + "' is not defined", expr->location);
    }
    return nullptr;
  }

  const Type *computeType(Expr *expr) {
    switch (expr->kind) {
    case ExprKind::Constant:
      return constantType(expr->constant);
    case ExprKind::Name:
      return typeName(expr);
    case ExprKind::Attribute:
      return typeAttribute(expr);
    case ExprKind::BinOp: {
      const Type *left = typeExpr(expr->operands[0]);
      const Type *right = typeExpr(expr->operands[1]);
      if (!left || !right)
        return nullptr;
      if (isClassInstance(left)) // p + q: the class's __add__
        return typeClassOperator(expr, binaryOperatorMethod(expr->binaryOp),
                                 binaryOpSymbol(expr->binaryOp));
      if (const Type *string = stringBinaryResultType(expr->binaryOp, left, right, expr->location))
        return string;
      if (const Type *datetime =
              datetimeBinaryResultType(expr->binaryOp, left, right, expr->location))
        return datetime;
      if (expr->binaryOp == BinaryOp::MatMult && (left->isArray() || right->isArray()))
        return typeLibraryOperands(expr, Library::get().find("numpy.dot"), expr->operands);
      if ((left->isDictView() || right->isDictView()) &&
          (expr->binaryOp == BinaryOp::BitOr || expr->binaryOp == BinaryOp::BitAnd ||
           expr->binaryOp == BinaryOp::Sub || expr->binaryOp == BinaryOp::BitXor))
        return typeLibraryOperands( // d.keys() & s (library/DictViews.cpp)
            expr, Library::get().find(std::string("dictview.") + binaryOpSymbol(expr->binaryOp)),
            expr->operands);
      if (left->isList() || right->isList()) // list + list, list * n (library/Lists.cpp)
        return typeListOperator(expr, binaryOpSymbol(expr->binaryOp), expr->operands);
      if (left->isSet() || right->isSet()) // a | b, a & b, a - b, a ^ b (library/Sets.cpp)
        return typeSetOperator(expr, binaryOpSymbol(expr->binaryOp), expr->operands);
      if (const Type *array = typeElementwiseBinary(expr->binaryOp, left, right, expr->location,
                                                    isNumberLiteral(expr->operands[0]),
                                                    isNumberLiteral(expr->operands[1])))
        return array;
      const Type *result = binaryResultType(expr->binaryOp, left, right);
      if (!result)
        throwTypingError(std::string("unsupported operand types for ") +
                             binaryOpSymbol(expr->binaryOp) + ": " + describe(left) + " and " +
                             describe(right),
                         expr->location);
      return result;
    }
    case ExprKind::UnaryOp: {
      const Type *operand = typeExpr(expr->operands[0]);
      if (!operand)
        return nullptr;
      if (isClassInstance(operand) && !unaryOperatorMethod(expr->unaryOp).empty()) // -p, ~p
        return typeClassOperator(expr, unaryOperatorMethod(expr->unaryOp),
                                 unaryOperatorMethod(expr->unaryOp));
      if (const Type *array = typeElementwiseUnary(expr->unaryOp, operand, expr->location))
        return array;
      if (const Type *datetime = datetimeUnaryResultType(expr->unaryOp, operand, expr->location))
        return datetime;
      const Type *result = unaryResultType(expr->unaryOp, operand);
      if (!result)
        throwTypingError("bad operand type for unary operator: " + describe(operand),
                         expr->location);
      return result;
    }
    case ExprKind::BoolOp: {
      const Type *result = nullptr;
      bool unknown = false;
      for (Expr *operand : expr->operands) {
        // An operand whose truth types decide, and which ends the evaluation (false for
        // `and`, true for `or`), leaves the operands after it dead: they are not typed.
        std::optional<bool> truth =
            operand == expr->operands.back() ? std::nullopt : staticTruth(operand);
        bool shortCircuits = truth && *truth != expr->isAnd;
        if (shortCircuits)
          function.staticConditions[operand->id] = *truth;
        else
          function.staticConditions.erase(operand->id);
        const Type *type = typeExpr(operand);
        if (!type) {
          unknown = true;
          continue;
        }
        const Type *unified = unifyTypes(result, type);
        if (!unified)
          throwTypingError("the operands of and/or have incompatible types " + describe(result) +
                               " and " + describe(type),
                           operand->location);
        result = unified;
        if (shortCircuits)
          break;
      }
      return unknown ? nullptr : result;
    }
    case ExprKind::Compare: {
      bool unknown = false;
      std::vector<const Type *> operands;
      for (Expr *operand : expr->operands) {
        operands.push_back(typeExpr(operand));
        unknown |= !operands.back();
      }
      if (unknown)
        return nullptr;
      if (expr->compareOps.size() == 1 && isClassInstance(operands[1]) &&
          (expr->compareOps[0] == CompareOp::In || expr->compareOps[0] == CompareOp::NotIn))
        return typeClassContains(expr, operands[1], operands[0]); // x in p: its __contains__
      if (isClassInstance(operands[0]) && expr->compareOps.size() == 1 &&
          !comparisonMethod(expr->compareOps[0]).empty()) // p == q: the class's __eq__
        return typeClassOperator(expr, comparisonMethod(expr->compareOps[0]),
                                 compareOpSymbol(expr->compareOps[0]));
      for (size_t i = 0; i < expr->compareOps.size(); ++i)
        if ((expr->compareOps[i] == CompareOp::Is || expr->compareOps[i] == CompareOp::IsNot) &&
            !identityIsDecidable(operands[i], operands[i + 1]))
          throwTypingError(std::string("'") + compareOpSymbol(expr->compareOps[i]) + "' between " +
                               describe(operands[i]) + " and " + describe(operands[i + 1]) +
                               " is not supported: arrays, ranges, lists, dicts, sets and strings "
                               "have no object identity in compiled code",
                           expr->location);
      bool identity =
          expr->compareOps[0] == CompareOp::Is || expr->compareOps[0] == CompareOp::IsNot;
      if (!identity && operands.back()->isDictView() &&
          (expr->compareOps[0] == CompareOp::In || expr->compareOps[0] == CompareOp::NotIn)) {
        if (expr->compareOps.size() != 1)
          throwUnsupported("chained comparisons with 'in' a dict view are not supported",
                           expr->location);
        return typeLibraryOperands(
            expr,
            Library::get().find("dictview." + std::string(compareOpSymbol(expr->compareOps[0]))),
            expr->operands);
      }
      if (!identity && (operands[0]->isDict() || operands.back()->isDict())) {
        if (expr->compareOps.size() != 1)
          throwUnsupported("chained comparisons of dicts are not supported", expr->location);
        return typeDictOperator(expr, compareOpSymbol(expr->compareOps[0]), expr->operands);
      }
      if (!identity && (operands[0]->isSet() || operands.back()->isSet())) {
        if (expr->compareOps.size() != 1)
          throwUnsupported("chained comparisons of sets are not supported", expr->location);
        return typeSetOperator(expr, compareOpSymbol(expr->compareOps[0]), expr->operands);
      }
      if (!identity && (operands[0]->isList() || operands.back()->isList())) {
        if (expr->compareOps.size() != 1)
          throwUnsupported("chained comparisons of lists are not supported", expr->location);
        return typeListOperator(expr, compareOpSymbol(expr->compareOps[0]), expr->operands);
      }
      if (expr->compareOps.size() == 1 && !identity)
        if (const Type *array = typeElementwiseCompare(expr->compareOps[0], operands[0],
                                                       operands[1], expr->location))
          return array;
      for (size_t i = 0; i < expr->compareOps.size(); ++i) {
        CompareOp op = expr->compareOps[i];
        if ((op == CompareOp::Is || op == CompareOp::IsNot))
          continue; // identity of values: decided by type, or by value for None
        if (isStringComparison(op, operands[i], operands[i + 1]))
          continue;
        if (checkDatetimeComparison(op, operands[i], operands[i + 1], expr->location))
          continue;
        if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
            (operands[i]->isNone() || operands[i + 1]->isNone()))
          continue; // None equals only None
        if ((op == CompareOp::In || op == CompareOp::NotIn) && operands[i + 1]->isGenerator()) {
          const Type *item = operands[i + 1]->yieldType();
          if (!comparisonOperandType(CompareOp::Eq, operands[i], item) &&
              !isStringComparison(CompareOp::Eq, operands[i], item))
            throwTypingError("cannot look for " + describe(operands[i]) + " among the items (" +
                                 describe(item) + ") of a generator",
                             expr->location);
          continue;
        }
        if ((op == CompareOp::Eq || op == CompareOp::NotEq) &&
            ((operands[i]->isString() && operands[i + 1]->isNumber()) ||
             (operands[i]->isNumber() && operands[i + 1]->isString())))
          continue; // a string never equals a number
        if (op == CompareOp::In || op == CompareOp::NotIn) {
          if (!operands[i + 1]->isTuple())
            throwUnsupported("'in' is supported on tuples only", expr->location);
          continue;
        }
        if (!comparisonOperandType(op, operands[i], operands[i + 1]))
          throwTypingError(std::string("cannot compare ") + describe(operands[i]) + " " +
                               compareOpSymbol(op) + " " + describe(operands[i + 1]),
                           expr->location);
      }
      return types::boolean();
    }
    case ExprKind::IfExp: {
      if (std::optional<bool> decided = decideCondition(expr->operands[0]))
        return typeExpr(expr->operands[*decided ? 1 : 2]);
      typeCondition(expr->operands[0]);
      const Type *body = typeExpr(expr->operands[1]);
      const Type *orelse = typeExpr(expr->operands[2]);
      // One branch still unknown (a recursive call while its function is inferred): the other
      // branch's type for now, as for a function's returns; later passes unify both.
      if (!body || !orelse)
        return body ? body : orelse;
      const Type *unified = unifyWithOptional(body, orelse);
      if (!unified)
        throwTypingError("the branches of the conditional expression have incompatible types " +
                             describe(body) + " and " + describe(orelse),
                         expr->location);
      return unified;
    }
    case ExprKind::Tuple: {
      std::vector<const Type *> elements;
      bool unknown = false;
      for (Expr *operand : expr->operands) {
        elements.push_back(typeExpr(operand));
        unknown |= !elements.back();
        if (elements.back() && elements.back()->kind() == TypeKind::StringLiteral)
          elements.back() = types::unicode(); // a run-time value, as in Numba
      }
      return unknown ? nullptr : types::tuple(elements);
    }
    case ExprKind::Subscript:
      return typeSubscript(expr);
    case ExprKind::Call:
      return typeCall(expr);
    case ExprKind::List:
      return typeListLiteral(expr);
    case ExprKind::Comprehension:
      return typeComprehension(expr);
    case ExprKind::Dict: { // {k: v, ...}: the "dict.{}" entry (library/Dicts.cpp)
      bool unknown = false;
      for (Expr *operand : expr->operands)
        unknown |= !typeExpr(operand);
      return unknown ? nullptr : typeDictOperator(expr, "{}", expr->operands);
    }
    case ExprKind::Set: { // {a, b, ...}: the "set.{}" entry (library/Sets.cpp)
      bool unknown = false;
      for (Expr *operand : expr->operands)
        unknown |= !typeExpr(operand);
      return unknown ? nullptr : typeSetOperator(expr, "{}", expr->operands);
    }
    case ExprKind::Slice:
      for (Expr *part : expr->operands) {
        const Type *type = part ? typeExpr(part) : nullptr;
        if (type && !type->isInteger() && !type->isBoolean() && !type->isNone())
          throwTypingError("slice bounds must be integers, not " + describe(type), part->location);
      }
      return sliceType();
    }
    return nullptr;
  }

  const Type *typeName(Expr *expr) {
    if (expr->name.rfind("$taipan.", 0) == 0) // made by rewriteCaughtExceptions, objmode
      return types::builtin(expr->name.substr(1));
    if (localNames.count(expr->name)) {
      auto found = function.variableTypes.find(expr->name);
      if (found == function.variableTypes.end())
        return nullptr;
      if (found->second && found->second->isOptional() && !keepsOptional.count(expr->id))
        return found->second->optionalValue(); // read as a value: lowering checks for None
      return found->second;
    }
    auto cached = function.globals.find(expr->id);
    if (cached == function.globals.end())
      cached = function.globals.emplace(expr->id, source.resolver->resolveName(expr->name)).first;
    return globalType(expr, cached->second);
  }

  const Type *typeAttribute(Expr *expr) {
    Expr *base = expr->operands[0];
    const Type *baseType = typeExpr(base);
    if (!baseType)
      return nullptr;
    if (baseType->kind() == TypeKind::Module) {
      auto cached = function.globals.find(expr->id);
      if (cached == function.globals.end()) {
        // A module global, or a variable or parameter holding one (getattr(np, 'pi')).
        GlobalValue module;
        auto global = function.globals.find(base->id);
        if (global != function.globals.end()) {
          module = global->second;
        } else {
          module.kind = GlobalValue::Kind::Module;
          module.name = baseType->text();
        }
        GlobalValue value = source.resolver->resolveAttribute(module, expr->name);
        if (value.kind == GlobalValue::Kind::Missing)
          throwTypingError("module '" + module.name + "' has no attribute '" + expr->name + "'",
                           expr->location);
        cached = function.globals.emplace(expr->id, std::move(value)).first;
      }
      return globalType(expr, cached->second);
    }
    if (baseType->kind() == TypeKind::Builtin) {
      // Namespaces of builtins: cuda.threadIdx.x, cuda.shared.array, cuda.atomic.add...
      std::string qualified = baseType->text() + "." + expr->name;
      if (const LibraryValue *libraryValue = Library::get().findValue(qualified))
        return libraryValue->type;
      if (!isKnownBuiltin(qualified))
        throwTypingError("unknown attribute '" + expr->name + "' of " + baseType->text(),
                         expr->location);
      return types::builtin(qualified);
    }
    if (baseType->isArray()) {
      // The library's array attributes and methods ("array.shape", "array.sum").
      if (const LibraryFunction *entry = Library::get().find("array." + expr->name))
        return entry->isAttribute ? typeLibraryAttribute(expr, entry) : types::builtin(entry->name);
      if (const Type *view =
              typeRecordFieldView(baseType, expr->name, expr->location)) // a.x of records
        return view;
    } else if (baseType->isRecord()) {
      return typeRecordField(baseType, expr->name, expr->location);
    } else if (classInstanceOf(baseType)) {
      if (const Type *field = classFieldType(classInstanceOf(baseType), expr->name)) // p.x
        return field;
    } else if (baseType->isNamedTuple() && baseType->fieldIndex(expr->name) >= 0) {
      return baseType->elements()[static_cast<size_t>(baseType->fieldIndex(expr->name))];
    } else if (baseType->isNamedTuple() && expr->name == "_replace") {
      return types::builtin("namedtuple._replace"); // typeNamedTupleReplace types the call
    } else {
      if (baseType->isLiteralList())
        refuseLiteralListMutation(expr->name, expr->location);
      if (const Type *attribute = typeValueAttribute(baseType, expr->name))
        return attribute;
      std::string method = methodBuiltinName(baseType, expr->name);
      if (!method.empty())
        return types::builtin(method);
    }
    if (const Type *member = typeMemberOverload(expr, baseType))
      return member;
    if (baseType->kind() == TypeKind::Overload) { // Point.static_method of a jitclass
      OverloadMember member = source.resolver->findMember(baseType, expr->name);
      if (member.registryId >= 0 && !member.isAttribute)
        return types::overload(member.registryId, expr->name);
    }
    if (baseType->kind() == TypeKind::DType && baseType->dtype()->isNamedTuple()) {
      // P._fields, P._make(...): a named tuple class's members (taipan.namedtuples), which
      // take no instance.
      OverloadMember member = source.resolver->findMember(baseType, expr->name);
      if (member.registryId >= 0) {
        const Type *overload = types::overload(member.registryId, expr->name);
        return member.isAttribute ? typeOverloadCall(expr, overload, nullptr) : overload;
      }
    }
    throwTypingError("unknown attribute '" + expr->name + "' of type " + describe(baseType),
                     expr->location);
  }

  /// The list methods that change a list, refused on a LiteralList, which cannot change.
  static void refuseLiteralListMutation(const std::string &method, SourceLocation location) {
    static const std::set<std::string> mutating = {"append", "extend", "insert", "remove",
                                                   "pop",    "clear",  "sort",   "reverse"};
    if (mutating.count(method))
      throwTypingError("Cannot mutate a literal list (a list of items of different types): "
                       "list." +
                           method + "() is not supported on it",
                       location);
  }

  /// `value.name` implemented in Python (overload_method, overload_attribute): a method is an
  /// Overload the call binds the value to; an attribute is a call of its implementation with
  /// the value. nullptr when there is neither.
  const Type *typeMemberOverload(Expr *expr, const Type *baseType) {
    if (!baseType->isRuntimeValue())
      return nullptr;
    OverloadMember member = source.resolver->findMember(baseType, expr->name);
    if (member.registryId < 0)
      return nullptr;
    const Type *overload = types::overload(member.registryId, expr->name);
    if (!member.isAttribute)
      return overload;
    return typeOverloadCall(expr, overload, expr->operands[0]);
  }

  /// A call of a function implemented in Python: its typing functions choose an implementation
  /// for the argument types (`self` first, for a method or attribute), which is then typed as
  /// a call of that jitted function.
  /// With `declined`, a function taipan also implements itself may decline: then it is set
  /// and nothing is recorded.
  const Type *typeOverloadCall(Expr *expr, const Type *overload, Expr *self,
                               bool *declined = nullptr) {
    std::vector<const Type *> positional;
    if (self)
      positional.push_back(typeOf(self));
    size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
    for (size_t i = 1; i < keywordStart; ++i)
      positional.push_back(typeOf(expr->operands[i]));
    std::vector<const Type *> keywordTypes;
    for (size_t i = keywordStart; i < expr->operands.size(); ++i)
      keywordTypes.push_back(typeOf(expr->operands[i]));
    bool mayDecline = declined && !self && isKnownBuiltin(overload->text());
    std::shared_ptr<FunctionSource> implementation =
        source.resolver->implementOverload(overload->registryId(), positional, expr->keywordNames,
                                           keywordTypes, mayDecline, expr->location);
    if (!implementation) {
      *declined = true;
      function.calls.erase(expr->id);
      function.overloadImplementations.erase(expr->id);
      return nullptr;
    }
    FunctionSource *callee = implementation.get();
    function.overloadImplementations[expr->id] = std::move(implementation);
    return typeJitCall(expr, callee, self);
  }

  /// A call of a library function: its arguments bound to its parameters (the value a method
  /// is called on first), its constant argument evaluated, then its type rule; the binding and
  /// what the rule decided are kept for lowering.
  const Type *typeLibraryCall(Expr *expr, const LibraryFunction *entry) {
    Expr *callee = expr->callee();
    std::vector<Expr *> positional;
    if (isMethodCall(callee))
      positional.push_back(callee->operands[0]);
    size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
    positional.insert(positional.end(), expr->operands.begin() + 1,
                      expr->operands.begin() + keywordStart);
    std::vector<Expr *> keywordValues(expr->operands.begin() + keywordStart, expr->operands.end());
    LibraryCall call;
    call.function = entry;
    call.location = expr->location;
    call.arguments = Library::bindArguments(*entry, positional, expr->keywordNames, keywordValues,
                                            expr->location);
    for (Expr *argument : call.arguments)
      call.argumentTypes.push_back(argument ? viewAsList(typeOf(argument), entry) : nullptr);
    if (const std::optional<LibraryConstantArgument> &declared = entry->constantArgument) {
      std::optional<std::vector<int64_t>> values;
      if (declared->position < call.arguments.size())
        values = constantIntegers(call.arguments[declared->position], function.globals);
      if (!values)
        throwTypingError(entry->name + declared->requirement, expr->location);
      call.constants = std::move(*values);
    }
    call.iteratedByLoop = loopIterables.count(expr->id) > 0;
    call.resultType = entry->type(call);
    if (entry->ufunc && entry->ufunc->scalarFunction)
      typeUfuncElementCallee(call);
    const Type *result = call.resultType;
    function.libraryCalls[expr->id] = std::move(call);
    return result;
  }

  /// A dict view passed to a library function is a list of its items made at the call
  /// (`sorted(d.items())`, `list(d.keys())`, `enumerate(d.values())`; lowering converts it,
  /// FunctionLowering::lowerLibraryCall), except to the functions that read the dict itself
  /// (`len`, `in`, the view's own entries) and those lowering their own arguments.
  static const Type *viewAsList(const Type *type, const LibraryFunction *entry) {
    if (!type || !type->isDictView() || entry->lowersArguments || entry->name == "len" ||
        entry->name.rfind("dictview.", 0) == 0)
      return type;
    return types::list(type->viewItemType());
  }

  /// A user ufunc's call: its scalar function typed for the loop's input types, and a new
  /// loop's output (a DUFunc's) taken from that function's return type once it is known.
  void typeUfuncElementCallee(LibraryCall &call) {
    call.elementCallee = callees.typeCallee(call.function->ufunc->scalarFunction.get(),
                                            call.loop.inputs, call.location);
    if (call.loop.output)
      return;
    const Type *returned = call.elementCallee->returnType;
    if (returned && !returned->isNumber())
      throwTypingError("the ufunc " + call.function->name +
                           " returns a value that is not a number: " + describe(returned),
                       call.location);
    call.loop.output = returned; // nullptr while the callee's type is unknown (recursion)
    call.resultType = returned ? ufuncResultType(call) : nullptr;
  }

  /// A read of a library attribute (`a.shape`): a call of its entry with the value, recorded
  /// under the attribute expression.
  const Type *typeLibraryAttribute(Expr *expr, const LibraryFunction *entry) {
    return typeLibraryOperands(expr, entry, {expr->operands[0]});
  }

  /// `[a, b, c]`: a list of the items' unified type; `[]` is a list whose item type the
  /// appends that follow give it (list(undefined) until then).
  /// A comprehension's loop is typed where it stands; its value is its hidden variable's. A
  /// generator expression's consumer must be the builtin it was read as.
  const Type *typeComprehension(Expr *expr) {
    if (!expr->operands.empty()) {
      Expr *consumer = expr->operands[0];
      auto cached = function.globals.find(consumer->id);
      if (!localNames.count(consumer->name) && cached == function.globals.end())
        cached =
            function.globals.emplace(consumer->id, source.resolver->resolveName(consumer->name))
                .first;
      if (localNames.count(consumer->name) || cached->second.kind != GlobalValue::Kind::Builtin ||
          cached->second.name != consumer->name)
        throwUnsupported("a generator expression is only supported as the argument of the "
                         "builtin " +
                             consumer->name + "(), and '" + consumer->name +
                             "' here is another object",
                         consumer->location);
    }
    typeBlock(expr->statements);
    auto found = function.variableTypes.find(expr->name);
    return found == function.variableTypes.end() ? nullptr : found->second;
  }

  /// `[a, b, ...]`: a list of the items' unified type, or, when they do not unify
  /// (`[1, 'a']`), Numba's LiteralList: the tuple of the items, which cannot change.
  const Type *typeListLiteral(Expr *expr) {
    const Type *item = nullptr;
    std::vector<const Type *> items;
    bool unifies = true;
    for (Expr *operand : expr->operands) {
      const Type *type = typeExpr(operand);
      if (!type)
        return nullptr;
      if (type->kind() == TypeKind::StringLiteral)
        type = types::unicode(); // an item is a run-time value, as in Numba
      if (!type->isRuntimeValue() || type->isNone())
        throwTypingError("a list cannot hold a value of type " + describe(type), operand->location);
      items.push_back(type);
      if (!unifies)
        continue;
      const Type *unified = unifyTypes(item, type);
      if (!unified)
        unifies = false;
      item = unified;
    }
    return unifies ? types::list(item) : types::literalList(items);
  }

  /// An operator on lists (`+`, `*`, `in`, `==`, `[]`...), typed by its library entry
  /// "list.<operator>" (library/Lists.cpp) and recorded under the expression.
  const Type *typeListOperator(Expr *expr, const std::string &symbol,
                               std::vector<Expr *> operands) {
    const LibraryFunction *entry = Library::get().find("list." + symbol);
    if (!entry) {
      std::vector<const Type *> types;
      for (Expr *operand : operands)
        types.push_back(typeOf(operand));
      throwTypingError("unsupported operand types for " + symbol + ": " +
                           describeArgumentTypes(types),
                       expr->location);
    }
    return typeLibraryOperands(expr, entry, std::move(operands));
  }

  /// `l += iterable` (list.extend) and `l *= n` (list.*=) change the list in place, as Python's
  /// do (another name for the list sees the change); the call is recorded under the target.
  void typeListInPlace(Stmt *stmt, Expr *target, const Type *value) {
    std::string method = stmt->augmentedOp == BinaryOp::Add    ? "list.extend"
                         : stmt->augmentedOp == BinaryOp::Mult ? "list.*="
                                                               : "";
    if (method.empty())
      throwTypingError(std::string("unsupported operand types for ") +
                           binaryOpSymbol(stmt->augmentedOp) + "=: " + describe(typeOf(target)) +
                           " and " + describe(value),
                       stmt->location);
    if (method == "list.extend")
      widenListVariable(target, method, {value});
    typeLibraryOperands(target, Library::get().find(method), {target, stmt->value});
  }

  /// `l.append(x)` (insert, extend) on a list variable widens the variable's item type, as
  /// Numba unifies a list's item type over the function: `l = []` then `l.append(1.5)` makes l
  /// a list(float64).
  void widenListVariable(Expr *list, const std::string &method,
                         const std::vector<const Type *> &arguments) {
    if (list->kind != ExprKind::Name || !localNames.count(list->name) || arguments.empty())
      return;
    // A typed list's item type is fixed once known (its stores convert or are refused).
    if (typeOf(list) && !typeOf(list)->isReflected() && typeOf(list)->itemType())
      return;
    const Type *item = nullptr;
    if (method == "list.append" || method == "list.insert")
      item = arguments.back();
    if (item && item->kind() == TypeKind::StringLiteral)
      item = types::unicode();
    else if (method == "list.extend")
      item = iterationItemType(arguments.back(), list->location);
    if (item && (item->isRuntimeValue() && !item->isNone()))
      if (const Type *widened = unifyTypes(typeOf(list), types::listLike(typeOf(list), item)))
        assignVariable(list->name, widened, list->location);
  }

  /// An operator on dicts (`{}`, `[]`, `in`, `==`), typed by its library entry "dict.<operator>"
  /// (library/Dicts.cpp) and recorded under the expression.
  const Type *typeDictOperator(Expr *expr, const std::string &symbol,
                               std::vector<Expr *> operands) {
    const LibraryFunction *entry = Library::get().find("dict." + symbol);
    if (!entry)
      throwTypingError("unsupported operand types for " + symbol + ": " +
                           describe(typeOf(operands[0])) + " and " + describe(typeOf(operands[1])),
                       expr->location);
    return typeLibraryOperands(expr, entry, std::move(operands));
  }

  /// An operator on sets (`{a, b}`, `|`, `in`, `<=`...), typed by its library entry
  /// "set.<operator>" (library/Sets.cpp) and recorded under the expression.
  const Type *typeSetOperator(Expr *expr, const std::string &symbol, std::vector<Expr *> operands) {
    const LibraryFunction *entry = Library::get().find("set." + symbol);
    if (!entry)
      throwTypingError("unsupported operand types for " + symbol + ": " +
                           describe(typeOf(operands[0])) + " and " + describe(typeOf(operands[1])),
                       expr->location);
    return typeLibraryOperands(expr, entry, std::move(operands));
  }

  /// `s.add(x)` and `s.update(iterable)` on a set variable widen its key type, as appends
  /// widen a list's: `s = set()` then `s.add(1.5)` makes s a set of float64.
  void widenSetVariable(Expr *set, const std::string &method,
                        const std::vector<const Type *> &arguments) {
    if (set->kind != ExprKind::Name || !localNames.count(set->name) || arguments.size() != 1)
      return;
    const Type *stored = nullptr;
    if (method == "set.add") {
      if (const Type *key = dictKeyType(arguments[0]))
        stored = types::set(key);
    } else if (method == "set.update") {
      stored = setOfIterable(arguments[0]);
    }
    if (stored)
      if (const Type *widened = unifyTypes(typeOf(set), stored))
        assignVariable(set->name, widened, set->location);
  }

  /// `s |= t`, `&=`, `-=`, `^=`: the set is updated in place (a `|=` may type `set()`).
  void typeSetAugmentedAssign(Stmt *stmt, const Type *current, const Type *value) {
    BinaryOp op = stmt->augmentedOp;
    if ((op != BinaryOp::BitOr && op != BinaryOp::BitAnd && op != BinaryOp::Sub &&
         op != BinaryOp::BitXor) ||
        !value->isSet())
      throwTypingError(std::string("unsupported operand types for ") + binaryOpSymbol(op) +
                           "=: " + describe(current) + " and " + describe(value),
                       stmt->location);
    Expr *target = stmt->targets[0];
    if (op == BinaryOp::BitOr)
      if (const Type *widened = unifyTypes(current, value)) {
        assignVariable(target->name, widened, target->location);
        current = widened;
      }
    if (current->keyType() && value->keyType() && !dictAcceptsKey(current, value->keyType()))
      throwTypingError(std::string("cannot update a ") + describe(current) + " with " +
                           describe(value) + " (" + binaryOpSymbol(op) + "=)",
                       stmt->location);
  }

  /// `d[k] = v`: widens a dict variable's key and value types to take the store (so `{}` is
  /// typed by the stores that follow, as in Numba), then checks the store fits.
  /// Whether `name` is one of the function's parameters: a dict or typed list passed in is the
  /// caller's (a typed.Dict or typed.List), whose types are fixed, so stores never widen it (a
  /// widened copy would leave the caller's container unchanged).
  bool isParameter(const std::string &name) const {
    for (const Parameter &parameter : source.parameters)
      if (parameter.name == name)
        return true;
    return false;
  }

  /// A number stored into a container whose types are fixed must keep its kind: no float into
  /// an integer slot, no complex into a real one, only booleans into booleans.
  static bool keepsNumberKind(const Type *expected, const Type *value) {
    if (!expected || !expected->isNumber() || !value->isNumber() || expected == value)
      return true;
    if (expected->isBoolean())
      return value->isBoolean();
    if (expected->isInteger())
      return value->isIntegerLike();
    return expected->isComplex() || !value->isComplex();
  }

  void typeDictStore(Expr *target, const Type *key, const Type *value) {
    Expr *base = target->operands[0];
    const Type *dict = typeOf(base);
    const Type *stored = dictTypeOfStore(key, value, target->location);
    bool fixed = base->kind == ExprKind::Name && isParameter(base->name) && dict->keyType();
    if (fixed && !keepsNumberKind(dict->valueType(), value))
      throwTypingError("cannot store a value of type " + describe(value) + " into a " +
                           describe(dict) + " (a dict passed in keeps its types)",
                       target->location);
    if (base->kind == ExprKind::Name && localNames.count(base->name) && !fixed) {
      const Type *widened = unifyTypes(dict, stored);
      if (!widened)
        throwTypingError("cannot store a key of type " + describe(key) + " and a value of type " +
                             describe(value) + " into a " + describe(dict),
                         target->location);
      assignVariable(base->name, widened, base->location);
      dict = widened;
    }
    if (!dict->keyType() || !dictAcceptsKey(dict, key) || !dictAcceptsValue(dict, value))
      throwTypingError("cannot store a key of type " + describe(key) + " and a value of type " +
                           describe(value) + " into a " + describe(dict),
                       target->location);
  }

  /// `d.setdefault(k, v)` and `d.update(other)` widen a dict variable as a store does.
  void widenDictVariable(Expr *dict, const std::string &method,
                         const std::vector<const Type *> &arguments, SourceLocation location) {
    if (dict->kind != ExprKind::Name || !localNames.count(dict->name) ||
        (isParameter(dict->name) && typeOf(dict)->keyType()))
      return;
    const Type *stored = nullptr;
    if (method == "dict.setdefault" && arguments.size() == 2 && !arguments[1]->isNone())
      stored = dictTypeOfStore(arguments[0], arguments[1], location);
    else if (method == "dict.update" && arguments.size() == 1 && arguments[0]->isDict())
      stored = arguments[0];
    if (stored)
      if (const Type *widened = unifyTypes(typeOf(dict), stored))
        assignVariable(dict->name, widened, dict->location);
  }

  /// `l[i] = x` stores an item converted to the list's item type; `l[a:b] = other` a list.
  void checkListStore(Expr *target, const Type *value) {
    const Type *list = typeOf(target->operands[0]);
    bool slice = target->operands[1]->kind == ExprKind::Slice;
    const Type *expected = slice ? list : list->itemType();
    bool accepted = slice
                        ? value->isList() &&
                              (!value->itemType() ||
                               unifyTypes(list->itemType(), value->itemType()) == list->itemType())
                        : expected && unifyTypes(expected, value) == expected;
    if (!accepted && expected && expected->isNumber() && value->isNumber())
      accepted = list->isReflected() ? !value->isComplex() || expected->isComplex()
                                     : keepsNumberKind(expected, value); // fixed item type
    if (!accepted)
      throwTypingError("cannot store a value of type " + describe(value) + " into " +
                           describe(list),
                       target->location);
  }

  /// A library function applied to operands of an expression that is not a call (an attribute
  /// read, the operator `@`), recorded under the expression as a call would be.
  const Type *typeLibraryOperands(Expr *expr, const LibraryFunction *entry,
                                  std::vector<Expr *> operands) {
    LibraryCall call;
    call.function = entry;
    call.location = expr->location;
    call.arguments = std::move(operands);
    for (Expr *operand : call.arguments)
      call.argumentTypes.push_back(typeOf(operand));
    call.resultType = entry->type(call);
    const Type *result = call.resultType;
    function.libraryCalls[expr->id] = std::move(call);
    return result;
  }

  /// A call of an intrinsic: its typing function gives the signature and the LLVM IR body;
  /// numbers convert to the parameter types as they would through a signature.
  const Type *typeIntrinsicCall(Expr *expr, const Type *intrinsic,
                                const std::vector<const Type *> &arguments) {
    if (!expr->keywordNames.empty())
      throwTypingError("keyword arguments to the intrinsic " + intrinsic->text() +
                           " are not supported",
                       expr->location);
    IntrinsicBody body =
        source.resolver->implementIntrinsic(intrinsic->registryId(), arguments, expr->location);
    if (body.parameterTypes.size() != arguments.size())
      throwTypingError("the intrinsic " + intrinsic->text() + " takes " +
                           std::to_string(body.parameterTypes.size()) + " arguments but " +
                           std::to_string(arguments.size()) + " were given",
                       expr->location);
    for (size_t i = 0; i < arguments.size(); ++i)
      if (!arguments[i]->isNumber() || !body.parameterTypes[i]->isNumber() ||
          (arguments[i]->isComplex() && !body.parameterTypes[i]->isComplex()))
        throwTypingError("argument " + std::to_string(i) + " of the intrinsic " +
                             intrinsic->text() + " is " + describe(arguments[i]) +
                             ", which does not convert to " + describe(body.parameterTypes[i]),
                         expr->location);
    if (!body.returnType->isNumber() && !body.returnType->isNone())
      throwTypingError("the intrinsic " + intrinsic->text() +
                           " must return a number or None, not " + describe(body.returnType),
                       expr->location);
    const Type *result = body.returnType;
    function.intrinsics[expr->id] = std::move(body);
    return result;
  }

  const Type *typeSubscript(Expr *expr) {
    const Type *base = typeExpr(expr->operands[0]);
    Expr *index = expr->operands[1];
    if (!base)
      return nullptr;
    if (isClassInstance(base)) { // p[i]: the class's __getitem__
      if (!typeExpr(index))
        return nullptr;
      return typeClassOperator(expr, "__getitem__", "[]");
    }
    if ((base->isRecord() || (base->isArray() && base->dtype()->isRecord())) &&
        index->kind != ExprKind::Tuple) {
      // r['x'] (or r[0]) reads a field; a['x'] is the view a.x (Numba's spellings of the same).
      const Type *indexType = typeExpr(index);
      if (indexType && indexType->isUnicode()) // a name bound to a constant string: r[f]
        if (std::optional<std::string> text = knownString(index))
          indexType = record(index, types::stringLiteral(*text));
      std::string field = accessedRecordField(expr, base, indexType, function.globals);
      if (base->isRecord() && field.empty() && indexType)
        throwTypingError("a record is indexed by a constant field name or position, not by a "
                         "value of type " +
                             describe(indexType),
                         index->location);
      if (base->isRecord() && !field.empty())
        return typeRecordField(base, field, index->location);
      if (!field.empty()) {
        if (const Type *view = typeRecordFieldView(base, field, index->location))
          return view;
        throwTypingError("the array's record dtype " + base->dtype()->name() + " has no field '" +
                             field + "'",
                         index->location);
      }
    }
    if (base->isString()) {
      const Type *indexType = typeExpr(index);
      return indexType ? stringIndexResultType(indexType, index->location) : nullptr;
    }
    if (base->isLiteralList() &&
        !(index->kind == ExprKind::Constant && index->constant.kind == Constant::Kind::Int))
      throwTypingError("Cannot __getitem__ on a literal list, return type cannot be statically "
                       "determined (index it with a constant integer)",
                       index->location);
    if (base->isTuple()) {
      std::vector<int64_t> positions;
      if (index->kind == ExprKind::Slice) {
        if (!constantSliceIndices(index, static_cast<int64_t>(base->elements().size()), positions))
          throwUnsupported("tuples can only be sliced with constant bounds", index->location);
        std::vector<const Type *> elements;
        for (int64_t position : positions)
          elements.push_back(base->elements()[position]);
        return types::tuple(elements);
      }
      if (index->kind == ExprKind::Constant && index->constant.kind == Constant::Kind::Int) {
        int64_t count = static_cast<int64_t>(base->elements().size());
        int64_t position = index->constant.intValue;
        if (position < 0)
          position += count;
        if (position < 0 || position >= count)
          throwTypingError("tuple index out of range", index->location);
        typeExpr(index);
        return base->elements()[position];
      }
      const Type *indexType = typeExpr(index);
      if (indexType && base->isUniformTuple() && (indexType->isInteger() || indexType->isBoolean()))
        return base->elements().front();
      if (indexType)
        throwTypingError("a tuple of type " + describe(base) +
                             " can only be indexed with a constant integer",
                         index->location);
      return nullptr;
    }
    if (base->isDict()) { // d[k] (library/Dicts.cpp)
      if (!typeExpr(index))
        return nullptr;
      return typeDictOperator(expr, "[]", {expr->operands[0], index});
    }
    if (base->isList()) { // l[i], l[a:b] (library/Lists.cpp)
      if (!typeExpr(index))
        return nullptr;
      return typeListOperator(expr, "[]", {expr->operands[0], index});
    }
    if (base->isArray()) {
      if (index->kind != ExprKind::Tuple) {
        // a[t] with a tuple-valued t indexes with its integers.
        const Type *indexType = typeExpr(index);
        if (!indexType)
          return nullptr;
        if (indexType->isTuple()) {
          for (const Type *element : indexType->elements())
            if (!element->isInteger())
              throwTypingError("an array index tuple must hold integers, not " +
                                   describe(indexType),
                               index->location);
          return typeArrayIndex(base, indexType->elements(), expr->location);
        }
      }
      std::vector<const Type *> pieces;
      std::vector<Expr *> pieceExprs =
          index->kind == ExprKind::Tuple ? index->operands : std::vector<Expr *>{index};
      for (Expr *piece : pieceExprs) {
        pieces.push_back(typeExpr(piece));
        if (!pieces.back())
          return nullptr;
      }
      if (index->kind == ExprKind::Tuple)
        record(index, types::tuple(pieces));
      return typeArrayIndex(base, pieces, expr->location);
    }
    if (base->isPointer() && base->pointee() && base->pointee()->isNumber()) {
      // p[i] of a cfunc's CPointer(dtype) argument: the element at p + i, unchecked, as in C.
      const Type *indexType = typeExpr(index);
      if (indexType && !indexType->isInteger())
        throwTypingError("a pointer's index must be an integer, not " + describe(indexType),
                         index->location);
      return indexType ? base->pointee() : nullptr;
    }
    throwTypingError("cannot index a value of type " + describe(base), expr->location);
  }

  const Type *typeCall(Expr *expr) {
    Expr *callee = expr->callee();
    const Type *calleeType = typeExpr(callee);
    if (isIsinstance(calleeType))
      return typeIsinstance(expr) ? types::boolean() : nullptr;
    // A jitted callee is specialised for an optional argument, as in Numba.
    // So are an objmode block's live-ins: the block sees None as None (ObjectModeBlocks.h).
    bool keepsArguments =
        calleeType &&
        (calleeType->kind() == TypeKind::JitFunction ||
         (calleeType->kind() == TypeKind::Builtin && calleeType->text() == ObjectModeCallee + 1));
    if (keepsArguments)
      for (size_t i = 1; i < expr->operands.size(); ++i)
        if (expr->operands[i]->kind == ExprKind::Name)
          keepsOptional.insert(expr->operands[i]->id);
    // np.array([1, 2, 3]): a list literal given to NumPy is just a sequence of numbers.
    if (calleeType && calleeType->kind() == TypeKind::Builtin &&
        (calleeType->text() == "numpy.array" || calleeType->text() == "numpy.asarray") &&
        expr->operands.size() > 1 && expr->operands[1]->kind == ExprKind::List)
      expr->operands[1]->kind = ExprKind::Tuple;
    std::vector<const Type *> arguments;
    std::vector<Expr *> argumentExprs;
    bool unknown = false;
    for (size_t i = 1; i < expr->operands.size(); ++i) {
      arguments.push_back(typeExpr(expr->operands[i]));
      argumentExprs.push_back(expr->operands[i]);
      unknown |= !arguments.back();
    }
    if (!calleeType || unknown)
      return nullptr;
    if (isAttributeQuery(calleeType))
      return typeAttributeQuery(expr, calleeType->text(), arguments);
    if (calleeType->kind() == TypeKind::DType && calleeType->dtype()->isNamedTuple())
      return typeNamedTupleCall(expr, calleeType->dtype(), arguments);
    if (calleeType->kind() == TypeKind::Builtin && calleeType->text() == "namedtuple._replace")
      return typeNamedTupleReplace(expr, arguments);
    if (expr->starredOperand && calleeType->kind() != TypeKind::JitFunction)
      throwUnsupported("'*' in a call is supported only when calling a jitted function, not " +
                           describe(calleeType),
                       expr->operands[expr->starredOperand]->location);
    if (calleeType->kind() == TypeKind::Overload) {
      // When every typing function declines, taipan's own implementation of the function (if
      // it has one) is tried, as Numba tries a function's other definitions.
      bool declined = false;
      Expr *self = isMethodCall(callee) ? callee->operands[0] : nullptr;
      const Type *result = typeOverloadCall(expr, calleeType, self, &declined);
      if (!declined)
        return result;
      calleeType = types::builtin(calleeType->text());
    }
    switch (calleeType->kind()) {
    case TypeKind::Builtin: {
      const std::string &name = calleeType->text();
      std::string method = builtinClassMethod(name);
      if (!method.empty() && arguments.size() == 1 && expr->keywordNames.empty() &&
          isClassInstance(arguments[0])) { // len(p): the class's __len__
        OverloadMember member = source.resolver->findMember(arguments[0], method);
        if (member.registryId < 0 || member.isAttribute)
          throwTypingError(name + "() of jitclass " + arguments[0]->text() + " needs its " +
                               method + " method",
                           expr->location);
        return typeOverloadCall(expr, types::overload(member.registryId, method), nullptr);
      }
      if (const LibraryFunction *entry = Library::get().find(name)) {
        if (isMethodCall(callee) && typeOf(callee->operands[0])->isList())
          widenListVariable(callee->operands[0], name, arguments);
        if (isMethodCall(callee) && typeOf(callee->operands[0])->isDict())
          widenDictVariable(callee->operands[0], name, arguments, expr->location);
        if (isMethodCall(callee) && typeOf(callee->operands[0])->isSet())
          widenSetVariable(callee->operands[0], name, arguments);
        return typeLibraryCall(expr, entry);
      }
      // A name of a library module or namespace that the library lacks (math.isqrt).
      throwUnsupported(name + " is not supported", expr->location);
    }
    case TypeKind::JitFunction:
      return typeJitCall(expr, calleeType->function());
    case TypeKind::Intrinsic:
      return typeIntrinsicCall(expr, calleeType, arguments);
    case TypeKind::ExternalFunction:
      return typeExternalCall(expr, calleeType, arguments);
    case TypeKind::ExceptionClass:
      for (Expr *argument : argumentExprs)
        typeExceptionArgument(argument);
      return calleeType;
    default:
      throwTypingError("cannot call a value of type " + describe(calleeType), expr->location);
    }
  }

  const Type *typeOf(Expr *expr) { return function.expressionTypes[expr->id]; }

  /// `p._replace(x=1)`: a new instance of p's class, the named items replaced and the others
  /// p's (read as `p[i]`, so p must be a variable: it is read once per item).
  static bool isAttributeQuery(const Type *callee) {
    return callee && callee->kind() == TypeKind::Builtin &&
           (callee->text() == "getattr" || callee->text() == "hasattr");
  }

  /// getattr(value, 'name'[, default]) and hasattr(value, 'name'): `value.name` typed as if
  /// written so (a synthetic Attribute expression, made once per call). With a default, and for
  /// hasattr, an attribute the value's type lacks is no error: the call is then the default, or
  /// False. Decided per specialisation, as Numba does, and recorded as a library call whose one
  /// argument is the expression chosen (library/Introspection.cpp); hasattr's answer is also a
  /// static condition.
  const Type *typeAttributeQuery(Expr *expr, const std::string &builtin,
                                 const std::vector<const Type *> &arguments) {
    bool isHasattr = builtin == "hasattr";
    size_t count = expr->positionalCount();
    if (!expr->keywordNames.empty() || count < 2 || count > (isHasattr ? 2u : 3u))
      throwTypingError(builtin + "() takes " + (isHasattr ? "2" : "2 or 3") +
                           " positional arguments",
                       expr->location);
    if (arguments[1]->kind() != TypeKind::StringLiteral)
      throwTypingError(builtin + "() needs a constant attribute name in compiled code (argument "
                                 "'name' must be a literal string)",
                       expr->operands[2]->location);
    bool made = false;
    Expr *attribute = source.syntheticExpr(expr->id, 0, ExprKind::Attribute, expr->location, made);
    if (made) {
      attribute->operands = {expr->operands[1]};
      attribute->name = arguments[1]->text();
    }
    const Type *found = nullptr;
    bool missing = false;
    if (count == 2 && !isHasattr) {
      found = typeExpr(attribute);
    } else {
      try {
        found = typeExpr(attribute);
      } catch (const CompileError &error) {
        if (error.kind == CompileErrorKind::Internal)
          throw;
        missing = true; // the value's type has no such attribute
      }
    }
    if (!found && !missing)
      return nullptr;
    LibraryCall call;
    call.function = Library::get().find(builtin);
    call.location = expr->location;
    if (isHasattr) {
      call.resultType = types::boolean();
      call.form = missing ? 0 : 1;
      function.staticConditions[expr->id] = !missing;
    } else {
      Expr *chosen = missing ? expr->operands[3] : attribute;
      call.arguments = {chosen};
      call.argumentTypes = {typeOf(chosen)};
      call.resultType = typeOf(chosen);
    }
    const Type *result = call.resultType;
    function.libraryCalls[expr->id] = std::move(call);
    return result;
  }

  const Type *typeNamedTupleReplace(Expr *expr, const std::vector<const Type *> &arguments) {
    Expr *base = expr->callee()->operands[0];
    const Type *named = typeOf(base);
    if (expr->positionalCount() != 0 || expr->starredOperand)
      throwTypingError("_replace() takes keyword arguments only", expr->location);
    if (base->kind != ExprKind::Name)
      throwUnsupported("_replace() is supported on a variable holding the named tuple",
                       expr->location);
    std::vector<Expr *> items;
    std::vector<const Type *> itemTypes;
    for (size_t i = 0; i < named->elements().size(); ++i) {
      items.push_back(tupleItem(source, base, static_cast<int>(i)));
      itemTypes.push_back(typeExpr(items.back()));
    }
    size_t keywordStart = expr->operands.size() - expr->keywordNames.size();
    for (size_t k = 0; k < expr->keywordNames.size(); ++k) {
      int field = named->fieldIndex(expr->keywordNames[k]);
      if (field < 0)
        throwTypingError("_replace() got an unexpected field name '" + expr->keywordNames[k] + "'",
                         expr->location);
      items[static_cast<size_t>(field)] = expr->operands[keywordStart + k];
      itemTypes[static_cast<size_t>(field)] = arguments[k];
    }
    LibraryCall call;
    call.function = Library::get().find("namedtuple.new");
    call.location = expr->location;
    const Type *shape =
        types::namedTuple(named->text(), named->namedTupleClass(), named->fieldNames(), {});
    call.resultType =
        bindNamedTupleCall(expr, shape, items, itemTypes, {}, call.arguments, call.argumentTypes);
    const Type *result = call.resultType;
    function.libraryCalls[expr->id] = std::move(call);
    return result;
  }

  /// `Point(1, y=2)`, `type(p)(*t)`: a named tuple class called; its arguments bound to the
  /// fields (typing/NamedTupleTyping.h) make the call of "namedtuple.new" (library/Tuples.cpp).
  const Type *typeNamedTupleCall(Expr *expr, const Type *namedClass,
                                 const std::vector<const Type *> &arguments) {
    size_t positionalCount = expr->positionalCount();
    std::vector<Expr *> positional;
    std::vector<const Type *> positionalTypes;
    for (size_t i = 0; i < positionalCount; ++i) {
      Expr *operand = expr->operands[1 + i];
      if (expr->starredOperand == 1 + i) { // *t: its items, in order
        for (Expr *item : spreadStarred(operand)) {
          positional.push_back(item);
          positionalTypes.push_back(typeOf(item));
        }
        continue;
      }
      positional.push_back(operand);
      positionalTypes.push_back(arguments[i]);
    }
    std::vector<const Type *> keywordTypes(arguments.begin() + positionalCount, arguments.end());
    if (positional.size() + keywordTypes.size() < namedClass->fieldNames().size() &&
        !expr->starredOperand) {
      // Fields left out: the class's constructor with its field defaults (taipan.namedtuples),
      // when it has defaults.
      OverloadMember constructor = source.resolver->findMember(namedClass, "__new__");
      if (constructor.registryId >= 0)
        return typeOverloadCall(expr, types::overload(constructor.registryId, "__new__"), nullptr);
    }
    LibraryCall call;
    call.function = Library::get().find("namedtuple.new");
    call.location = expr->location;
    call.resultType = bindNamedTupleCall(expr, namedClass, positional, positionalTypes,
                                         keywordTypes, call.arguments, call.argumentTypes);
    const Type *result = call.resultType;
    function.libraryCalls[expr->id] = std::move(call);
    return result;
  }

  /// The items of `*t` in a call, t a tuple variable: `t[0]`, `t[1]`, ... (typed).
  std::vector<Expr *> spreadStarred(Expr *tuple) {
    const Type *type = typeOf(tuple);
    if (!type->isTuple())
      throwTypingError("'*' in a call needs a tuple, not " + describe(type), tuple->location);
    std::vector<Expr *> items;
    for (size_t i = 0; i < type->elements().size(); ++i) {
      items.push_back(tupleItem(source, tuple, static_cast<int>(i)));
      typeExpr(items.back());
    }
    return items;
  }

  /// value.method(...): an attribute of a run-time value, not of a module or namespace.
  bool isMethodCall(Expr *callee) {
    const Type *base = callee->kind == ExprKind::Attribute ? typeOf(callee->operands[0]) : nullptr;
    return base && !function.globals.count(callee->id) &&
           (base->isRuntimeValue() || base->kind() == TypeKind::StringLiteral);
  }

  static bool isNumberLiteral(const Expr *expr) {
    if (expr->kind != ExprKind::Constant)
      return false;
    Constant::Kind kind = expr->constant.kind;
    return kind == Constant::Kind::Int || kind == Constant::Kind::Float ||
           kind == Constant::Kind::Complex || kind == Constant::Kind::Bool;
  }

  /// A call of a foreign function: arguments convert to the declared parameter types as for a
  /// signature, and an array passes its data to a pointer parameter of its dtype (or void*).
  const Type *typeExternalCall(Expr *expr, const Type *callee,
                               const std::vector<const Type *> &arguments) {
    const std::vector<const Type *> &parameters = callee->parameterTypes();
    const std::string &name = callee->text();
    if (!expr->keywordNames.empty())
      throwTypingError("keyword arguments to the foreign function " + name + " are not supported",
                       expr->location);
    if (arguments.size() != parameters.size())
      throwTypingError(name + "() takes " + std::to_string(parameters.size()) + " arguments but " +
                           std::to_string(arguments.size()) + " were given",
                       expr->location);
    for (size_t i = 0; i < parameters.size(); ++i) {
      const Type *parameter = parameters[i];
      const Type *argument = arguments[i];
      bool accepted = false;
      if (parameter->isPointer())
        accepted = argument == parameter ||
                   (argument->isArray() &&
                    (!parameter->pointee() || argument->dtype() == parameter->pointee())) ||
                   (argument->isPointer() && !parameter->pointee());
      else // numbers convert as they would through a signature, but complex stays complex
        accepted = parameter->isNumber() && argument->isNumber() &&
                   (parameter->isComplex() || !argument->isComplex());
      if (!accepted)
        throwTypingError("argument " + std::to_string(i + 1) + " of " + name + "() must be " +
                             parameter->name() + ", not " + describe(argument),
                         expr->operands[1 + i]->location);
    }
    return callee->resultType();
  }

  /// Binds the call's arguments (after `self`, when a method's value comes first) to the
  /// callee's parameters and types the callee for them.
  const Type *typeJitCall(Expr *expr, FunctionSource *callee, Expr *self = nullptr) {
    const std::vector<Parameter> &parameters = callee->parameters;
    std::vector<Expr *> positional;
    if (self)
      positional.push_back(self);
    for (size_t i = 1; i <= expr->positionalCount(); ++i) {
      if (i != expr->starredOperand) {
        positional.push_back(expr->operands[i]);
        continue;
      }
      std::vector<Expr *> items = spreadStarred(expr->operands[i]);
      positional.insert(positional.end(), items.begin(), items.end());
    }
    CallBinding binding;
    binding.arguments = bindJitArguments(source, *callee, expr, positional);
    for (size_t i = 0; i < parameters.size(); ++i)
      if (parameters[i].isStar)
        typeExpr(binding.arguments[i]); // the tuple the call packs
    std::vector<bool> bound(parameters.size());
    for (size_t i = 0; i < parameters.size(); ++i)
      bound[i] = binding.arguments[i] != nullptr;
    std::vector<const Type *> parameterTypes;
    for (size_t i = 0; i < parameters.size(); ++i) {
      if (bound[i]) {
        parameterTypes.push_back(typeOf(binding.arguments[i]));
      } else if (parameters[i].hasDefault) {
        parameterTypes.push_back(constantType(parameters[i].defaultValue));
      } else {
        throwTypingError(callee->name + "() missing required argument '" + parameters[i].name + "'",
                         expr->location);
      }
    }
    binding.callee = callees.typeCallee(callee, parameterTypes, expr->location);
    function.calls[expr->id] = binding;
    return binding.callee->returnType;
  }
};

} // namespace

/// Whether a loop body has a `break` of its own (not one of a nested loop).
static bool containsBreak(const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Break)
      return true;
    if (stmt->kind == StmtKind::If && (containsBreak(stmt->body) || containsBreak(stmt->orelse)))
      return true;
    if (stmt->kind == StmtKind::Try) {
      bool found = false;
      forEachTryBlock(
          stmt, [&](const std::vector<Stmt *> &block) { found = found || containsBreak(block); });
      if (found)
        return true;
    }
  }
  return false;
}

bool isIndexIteration(const std::string &builtinName) {
  return builtinName == "numpy.ndindex" || builtinName == "numpy.ndenumerate" ||
         builtinName == "numpy.nditer";
}

bool statementCompletes(const TypedFunction &function, const Stmt *stmt) {
  switch (stmt->kind) {
  case StmtKind::Return:
  case StmtKind::Raise:
  case StmtKind::Break:
  case StmtKind::Continue:
    return false;
  case StmtKind::If: {
    auto decided = function.staticConditions.find(stmt->test->id);
    if (decided != function.staticConditions.end())
      return blockCompletes(function, decided->second ? stmt->body : stmt->orelse);
    return blockCompletes(function, stmt->body) || blockCompletes(function, stmt->orelse);
  }
  case StmtKind::Try:
    return tryStatementCompletes(function, stmt);
  case StmtKind::While: // `while True:` without a break never completes
    return !(stmt->test->kind == ExprKind::Constant &&
             stmt->test->constant.kind != Constant::Kind::None &&
             stmt->test->constant.intValue != 0 && !containsBreak(stmt->body));
  default:
    return true;
  }
}

bool blockCompletes(const TypedFunction &function, const std::vector<Stmt *> &block) {
  for (const Stmt *stmt : block)
    if (!statementCompletes(function, stmt))
      return false;
  return true;
}

bool inferTypesOnce(TypedFunction &function, CalleeTyper &callees, bool reportUnknown) {
  InferencePass pass(function, callees, reportUnknown);
  return pass.run();
}

void inferTypes(TypedFunction &function, CalleeTyper &callees) {
  // Each pass can only widen types, and widening is bounded, so this ends; the cap guards
  // against a bug turning into a hang.
  for (int pass = 0; pass < 64; ++pass)
    if (!inferTypesOnce(function, callees, false))
      return;
  throwTypingError("type inference did not converge", function.source->definitionLocation);
}

} // namespace taipan
