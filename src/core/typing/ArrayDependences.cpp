// Array dependences of prange loops: the element accesses of the loop body, their indices
// reduced per dimension to affine forms in the loop variable, and each write compared with
// every access of the same array for two different iterations reaching one element.
#include "typing/ArrayDependences.h"
#include "typing/AffineIndices.h"
#include "typing/TryTyping.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace taipan {
namespace {

/// One position of a subscript's index: an integer, a slice `lower::stride` with a lower
/// bound that is never negative and a positive stride (a view's index k is the array's
/// lower + stride·k; `:` is 0 and 1), a slice the analysis cannot follow, or `...` or `None`,
/// which move the positions after them.
struct IndexSlot {
  enum class Kind { Scalar, Slice, OtherSlice, Shifting } kind;
  IndexForm index; ///< Scalar: the index; Slice: its lower bound
  int64_t stride = 1;
};

/// A dimension of the underlying array, as a view of it sees it: a fixed index, one of the
/// view's own dimensions (its index k is the array's lower + stride·k), or one of them mapped
/// in a way the analysis cannot follow.
struct ViewDim {
  enum class Kind { Fixed, Mapped, Unknown } kind;
  IndexForm index; ///< Fixed: the index; Mapped: the lower bound
  int64_t stride = 1;

  bool isWhole() const {
    return kind == Kind::Mapped && index.isConstant() && index.offset == 0 && stride == 1;
  }
};

/// What an array expression may be: views of arrays named by their keys (`a`, `self.a`,
/// `t[0]`). An exact view knows its dimensions; an inexact one may be any part of the array
/// its key names, or of any array under that key (`t` covers `t[0]` and `t.x`).
struct View {
  std::vector<std::string> exact, inexact;
  std::vector<ViewDim> dims;
};

/// One access of an array's elements: some of them, or (`np.sum(a)`) all.
struct Access {
  const Expr *expr;
  bool write;
  std::vector<IndexForm> dims; ///< per dimension of the array; those left out are Whole
};

enum class Verdict { Independent, Dependent, Undecided };

const char *const ShapeAttributes[] = {"array.shape",  "array.size",     "array.ndim",
                                       "array.dtype",  "array.itemsize", "array.nbytes",
                                       "array.strides"};
const char *const AllocatingFunctions[] = {
    "numpy.empty",      "numpy.zeros",     "numpy.ones",      "numpy.full",     "numpy.empty_like",
    "numpy.zeros_like", "numpy.ones_like", "numpy.full_like", "numpy.arange",   "numpy.linspace",
    "numpy.array",      "numpy.copy",      "numpy.eye",       "numpy.identity", "array.copy"};

/// Where and how a statement binds a name.
struct Binding {
  const Stmt *stmt;
  /// The value bound (`name = value`), the expression the name comes out of (unpacking, a for
  /// loop's iterable), or null for an in-place update (`name += x`).
  const Expr *value;
  bool simple; ///< `name = value`
};

using Bindings = std::map<std::string, std::vector<Binding>>;

void bindTarget(const Expr *target, const Stmt *stmt, const Expr *value, bool simple,
                Bindings &into) {
  if (target->kind == ExprKind::Name) {
    into[target->name].push_back({stmt, value, simple});
  } else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
    // `x, y = a[::2], a[1::2]` binds each name to its own value.
    bool pairwise = simple && value &&
                    (value->kind == ExprKind::Tuple || value->kind == ExprKind::List) &&
                    value->operands.size() == target->operands.size();
    for (size_t i = 0; i < target->operands.size(); ++i)
      bindTarget(target->operands[i], stmt, pairwise ? value->operands[i] : value, pairwise, into);
  }
}

void collectBindings(const std::vector<Stmt *> &block, Bindings &into);

void collectComprehensionBindings(const Expr *expr, Bindings &into) {
  if (!expr)
    return;
  if (expr->kind == ExprKind::Comprehension)
    collectBindings(expr->statements, into);
  for (const Expr *operand : expr->operands)
    collectComprehensionBindings(operand, into);
}

/// Every binding of a name in `block` and the blocks nested in it (comprehensions included).
void collectBindings(const std::vector<Stmt *> &block, Bindings &into) {
  for (const Stmt *stmt : block) {
    if (stmt->kind == StmtKind::Assign)
      for (const Expr *target : stmt->targets)
        bindTarget(target, stmt, stmt->value, true, into);
    else if (stmt->kind == StmtKind::AugAssign)
      bindTarget(stmt->targets[0], stmt, nullptr, false, into);
    else if (stmt->kind == StmtKind::For)
      bindTarget(stmt->targets[0], stmt, stmt->value, false, into);
    collectComprehensionBindings(stmt->value, into);
    collectComprehensionBindings(stmt->test, into);
    for (const Expr *target : stmt->targets)
      collectComprehensionBindings(target, into);
    if (stmt->kind == StmtKind::Try) {
      forEachTryBlock(stmt,
                      [&](const std::vector<Stmt *> &inner) { collectBindings(inner, into); });
    } else {
      collectBindings(stmt->body, into);
      collectBindings(stmt->orelse, into);
    }
  }
}

/// Source-like text of an expression, for messages.
std::string describe(const Expr *expr) {
  if (!expr)
    return "";
  const auto &operands = expr->operands;
  switch (expr->kind) {
  case ExprKind::Name:
    return expr->name;
  case ExprKind::Constant:
    if (expr->constant.kind == Constant::Kind::Int || expr->constant.kind == Constant::Kind::UInt)
      return std::to_string(expr->constant.intValue);
    return expr->constant.kind == Constant::Kind::None ? "None" : "...";
  case ExprKind::BinOp: {
    static const std::map<BinaryOp, const char *> symbols = {
        {BinaryOp::Add, " + "},    {BinaryOp::Sub, " - "},       {BinaryOp::Mult, "*"},
        {BinaryOp::Div, " / "},    {BinaryOp::FloorDiv, " // "}, {BinaryOp::Mod, " % "},
        {BinaryOp::Pow, "**"},     {BinaryOp::LShift, " << "},   {BinaryOp::RShift, " >> "},
        {BinaryOp::BitAnd, " & "}, {BinaryOp::BitOr, " | "},     {BinaryOp::BitXor, " ^ "},
        {BinaryOp::MatMult, " @ "}};
    auto operand = [&](const Expr *side) {
      bool wrap = side->kind == ExprKind::BinOp && expr->binaryOp != BinaryOp::Add &&
                  expr->binaryOp != BinaryOp::Sub;
      return wrap ? "(" + describe(side) + ")" : describe(side);
    };
    return operand(operands[0]) + symbols.at(expr->binaryOp) + operand(operands[1]);
  }
  case ExprKind::UnaryOp:
    return (expr->unaryOp == UnaryOp::Neg   ? "-"
            : expr->unaryOp == UnaryOp::Pos ? "+"
            : expr->unaryOp == UnaryOp::Not ? "not "
                                            : "~") +
           describe(operands[0]);
  case ExprKind::Attribute:
    return describe(operands[0]) + "." + expr->name;
  case ExprKind::Subscript:
    return describe(operands[0]) + "[" + describe(operands[1]) + "]";
  case ExprKind::Tuple: {
    std::string text;
    for (const Expr *element : operands)
      text += (text.empty() ? "" : ", ") + describe(element);
    return text;
  }
  case ExprKind::Slice:
    return describe(operands[0]) + ":" + describe(operands[1]) +
           (operands[2] ? ":" + describe(operands[2]) : "");
  case ExprKind::Call: {
    std::string text = describe(operands[0]) + "(";
    for (size_t i = 1; i < operands.size(); ++i)
      text += (i > 1 ? ", " : "") + describe(operands[i]);
    return text + ")";
  }
  default:
    return "...";
  }
}

std::optional<int64_t> constantInteger(const Expr *expr) {
  if (!expr)
    return std::nullopt;
  if (expr->kind == ExprKind::Constant && expr->constant.kind == Constant::Kind::Int)
    return expr->constant.intValue;
  if (expr->kind == ExprKind::UnaryOp && expr->unaryOp == UnaryOp::Neg) {
    std::optional<int64_t> value = constantInteger(expr->operands[0]);
    if (value && *value != INT64_MIN)
      return -*value;
  }
  return std::nullopt;
}

class DependenceAnalysis {
public:
  DependenceAnalysis(const TypedFunction &function, const Stmt *loop)
      : function(function), loop(loop), loopVariable(loop->targets[0]->name) {
    collectBindings(function.source->body, functionBindings);
    collectBindings(loop->body, bodyBindings);
    loopVariableAssigned = bodyBindings.count(loopVariable) > 0;
    for (const Parameter &parameter : function.source->parameters)
      parameters.insert(parameter.name);
    findSweeps();
    readBounds();
  }

  ArrayDependences run() {
    visitBlock(loop->body);
    ArrayDependences result;
    std::set<std::string> notes;
    for (const auto &[key, accesses] : exact)
      for (const Access &write : accesses) {
        if (!write.write)
          continue;
        for (const Access &other : accesses) {
          std::string why;
          Verdict verdict = comparePair(write, other, why);
          if (verdict == Verdict::Dependent) {
            result.dependence = dependenceReason(key, write, other);
            return result;
          }
          if (verdict == Verdict::Undecided)
            notes.insert(note(write, other, why));
        }
      }
    // An access through an alias the analysis cannot follow may reach any element of the
    // arrays under its key: undecided against every access of them when one of the two writes.
    for (const auto &[prefix, accesses] : inexact)
      for (const Access &access : accesses) {
        std::string why = "'" + describe(access.expr) + "' may be any part of '" + prefix +
                          "', an alias the analysis does not follow";
        for (const auto &[key, others] : exact)
          if (covers(prefix, key))
            for (const Access &other : others)
              if (access.write || other.write)
                notes.insert(access.write ? note(access, other, why) : note(other, access, why));
        if (access.write)
          for (const auto &[otherPrefix, others] : inexact)
            if (covers(prefix, otherPrefix) || covers(otherPrefix, prefix))
              for (const Access &other : others)
                notes.insert(note(access, other, why));
      }
    result.undecided.assign(notes.begin(), notes.end());
    return result;
  }

private:
  const TypedFunction &function;
  const Stmt *loop;
  const std::string loopVariable;
  bool loopVariableAssigned = false;
  Bindings functionBindings, bodyBindings;
  std::set<std::string> parameters, sweeps;
  /// The loop variable's first and last values and its step, where constant.
  LoopRange range;
  std::map<std::string, std::vector<Access>> exact, inexact;

  int fileLine(const Expr *expr) const { return function.source->fileLine(expr->location.line); }

  const Type *typeOf(const Expr *expr) const { return expr ? function.typeOf(expr) : nullptr; }
  bool isArray(const Expr *expr) const {
    const Type *type = typeOf(expr);
    return type && type->isArray();
  }
  /// Whether a value of this type holds arrays the analysis must follow (not a number, string
  /// or None).
  bool mayHoldArrays(const Expr *expr) const {
    const Type *type = typeOf(expr);
    return type && !type->isNumber() && !type->isString() && !type->isNone() &&
           !type->isDatetimeLike();
  }
  std::string libraryName(const Expr *expr) const {
    auto call = function.libraryCalls.find(expr->id);
    return call == function.libraryCalls.end() ? "" : call->second.function->name;
  }
  bool assignedInBody(const std::string &name) const { return bodyBindings.count(name) > 0; }

  // ---- the loop's iteration space ----

  void readBounds() {
    auto call = function.libraryCalls.find(loop->value->id);
    if (call == function.libraryCalls.end())
      return;
    std::vector<const Expr *> arguments;
    for (const Expr *argument : call->second.arguments)
      if (argument)
        arguments.push_back(argument);
    if (arguments.empty())
      return;
    std::optional<int64_t> first = arguments.size() == 1 ? 0 : constantInteger(arguments[0]);
    std::optional<int64_t> stop =
        constantInteger(arguments.size() == 1 ? arguments[0] : arguments[1]);
    std::optional<int64_t> step = arguments.size() == 3 ? constantInteger(arguments[2]) : 1;
    range.start = first;
    range.step = step;
    if (!step || *step == 0)
      return;
    if (*step > 0) {
      range.lowest = first;
      if (stop && *stop != INT64_MIN)
        range.highest = *stop - 1;
    } else {
      range.highest = first;
      if (stop && *stop != INT64_MAX)
        range.lowest = *stop + 1;
    }
  }

  // ---- index forms ----

  /// An expression with one value in every iteration: constants, names the body never
  /// assigns, arithmetic on them, shapes and lengths of such arrays.
  bool isInvariant(const Expr *expr) const {
    switch (expr->kind) {
    case ExprKind::Constant:
      return true;
    case ExprKind::Name:
      return expr->name != loopVariable && !assignedInBody(expr->name);
    case ExprKind::BinOp:
    case ExprKind::UnaryOp:
      return std::all_of(expr->operands.begin(), expr->operands.end(),
                         [&](const Expr *operand) { return isInvariant(operand); });
    case ExprKind::Attribute: {
      std::string name = libraryName(expr);
      return std::find(std::begin(ShapeAttributes), std::end(ShapeAttributes), name) !=
                 std::end(ShapeAttributes) &&
             isInvariant(expr->operands[0]);
    }
    case ExprKind::Subscript: {
      const Type *base = typeOf(expr->operands[0]);
      return base && base->isTuple() && isInvariant(expr->operands[0]) &&
             isInvariant(expr->operands[1]);
    }
    case ExprKind::Call:
      return libraryName(expr) == "len" && expr->operands.size() == 2 &&
             isInvariant(expr->operands[1]);
    default:
      return false;
    }
  }

  /// Variables bound only by an inner `for j in range(...)` with invariant arguments.
  void findSweeps() {
    for (const auto &[name, bindings] : bodyBindings) {
      if (name == loopVariable || bindings.size() != 1)
        continue;
      const Stmt *stmt = bindings[0].stmt;
      if (stmt->kind != StmtKind::For || stmt->targets[0]->kind != ExprKind::Name ||
          stmt->value->kind != ExprKind::Call)
        continue;
      std::string callee = libraryName(stmt->value);
      if (callee != "range" && callee != "taipan.prange")
        continue;
      const auto &operands = stmt->value->operands;
      if (std::all_of(operands.begin() + 1, operands.end(),
                      [&](const Expr *operand) { return isInvariant(operand); }))
        sweeps.insert(name);
    }
  }

  /// The affine form of an integer index. Outside the loop (`inside` false, for views made
  /// before it) only constants have one: a name there may since have changed.
  IndexForm formOf(const Expr *expr, bool inside) const {
    const Type *type = typeOf(expr);
    if (!type || !type->isInteger())
      return {};
    switch (expr->kind) {
    case ExprKind::Constant:
      if (expr->constant.kind == Constant::Kind::Int ||
          (expr->constant.kind == Constant::Kind::UInt && expr->constant.intValue >= 0))
        return IndexForm::constant(expr->constant.intValue);
      return {};
    case ExprKind::Name: {
      if (!inside)
        return {};
      IndexForm form = IndexForm::constant(0);
      if (expr->name == loopVariable) {
        if (loopVariableAssigned)
          return {};
        form.loop = 1;
      } else if (sweeps.count(expr->name)) {
        form.sweeps[expr->name] = 1;
      } else if (!assignedInBody(expr->name)) {
        form.invariants[expr->name] = 1;
      } else {
        return {};
      }
      return form;
    }
    case ExprKind::UnaryOp:
      if (expr->unaryOp == UnaryOp::Neg)
        return combine(IndexForm::constant(0), formOf(expr->operands[0], inside), -1);
      if (expr->unaryOp == UnaryOp::Pos)
        return formOf(expr->operands[0], inside);
      return {};
    case ExprKind::BinOp: {
      IndexForm left = formOf(expr->operands[0], inside);
      IndexForm right = formOf(expr->operands[1], inside);
      if (expr->binaryOp == BinaryOp::Add)
        return combine(left, right, 1);
      if (expr->binaryOp == BinaryOp::Sub)
        return combine(left, right, -1);
      if (expr->binaryOp == BinaryOp::Mult && left.isConstant())
        return combine(IndexForm::constant(0), right, left.offset);
      if (expr->binaryOp == BinaryOp::Mult && right.isConstant())
        return combine(IndexForm::constant(0), left, right.offset);
      return {};
    }
    default:
      return {};
    }
  }

  std::vector<IndexSlot> slotsOf(const Expr *index, bool inside) const {
    std::vector<const Expr *> parts;
    if (index->kind == ExprKind::Tuple)
      parts.assign(index->operands.begin(), index->operands.end());
    else
      parts.push_back(index);
    std::vector<IndexSlot> slots;
    for (const Expr *part : parts) {
      if (part->kind == ExprKind::Slice) {
        const Expr *lower = part->operands[0], *stride = part->operands[2];
        IndexForm start = lower ? formOf(lower, inside) : IndexForm::constant(0);
        std::optional<int64_t> step = stride ? constantInteger(stride) : 1;
        if (start.kind == IndexForm::Kind::Affine && !range.mayBeNegative(start) && step &&
            *step > 0)
          slots.push_back({IndexSlot::Kind::Slice, start, *step});
        else
          slots.push_back({IndexSlot::Kind::OtherSlice, {}});
      } else if (part->kind == ExprKind::Constant &&
                 (part->constant.kind == Constant::Kind::Ellipsis ||
                  part->constant.kind == Constant::Kind::None)) {
        slots.push_back({IndexSlot::Kind::Shifting, {}});
      } else {
        slots.push_back({IndexSlot::Kind::Scalar, formOf(part, inside)});
      }
    }
    return slots;
  }

  // ---- which arrays an expression may be ----

  /// The key of an array reached through a name, or through attributes and constant subscripts
  /// of a tuple or record (`self.a`, `t[0]`) whose root name no statement assigns; "" else.
  std::string pathKey(const Expr *expr) const {
    if (expr->kind == ExprKind::Name)
      return expr->name;
    const Expr *base = expr->operands.empty() ? nullptr : expr->operands[0];
    if (!base || isArray(base))
      return "";
    std::string root;
    if (expr->kind == ExprKind::Attribute)
      root = pathKey(base);
    else if (expr->kind == ExprKind::Subscript && typeOf(base) && typeOf(base)->isTuple() &&
             constantInteger(expr->operands[1]) >= 0) // t[-1] would be a second key
      root = pathKey(base);
    if (root.empty())
      return "";
    std::string name = root.substr(0, root.find_first_of(".["));
    if (functionBindings.count(name))
      return "";
    return expr->kind == ExprKind::Attribute
               ? root + "." + expr->name
               : root + "[" + std::to_string(*constantInteger(expr->operands[1])) + "]";
  }

  bool isAllocation(const Expr *expr) const {
    if (!isArray(expr))
      return false;
    if (expr->kind == ExprKind::BinOp || expr->kind == ExprKind::UnaryOp ||
        expr->kind == ExprKind::Compare)
      return true; // NumPy's operators make a new array
    std::string name = expr->kind == ExprKind::Call ? libraryName(expr) : "";
    return std::find(std::begin(AllocatingFunctions), std::end(AllocatingFunctions), name) !=
           std::end(AllocatingFunctions);
  }

  /// The keys of every name holding arrays that `expr` mentions, and, through their bindings,
  /// of the arrays those may be views of.
  void mentionedKeys(const Expr *expr, std::set<std::string> &keys) const {
    if (!expr || isAllocation(expr))
      return;
    if (expr->kind == ExprKind::Name && mayHoldArrays(expr) && keys.insert(expr->name).second) {
      for (const Bindings *bindings : {&functionBindings, &bodyBindings}) {
        auto found = bindings->find(expr->name);
        if (found != bindings->end())
          for (const Binding &binding : found->second)
            mentionedKeys(binding.value, keys);
      }
    }
    for (const Expr *operand : expr->operands)
      mentionedKeys(operand, keys);
  }

  View inexactView(const Expr *expr) const {
    std::set<std::string> keys;
    mentionedKeys(expr, keys);
    View view;
    view.inexact.assign(keys.begin(), keys.end());
    return view;
  }

  View viewOfName(const Expr *expr, int depth) const {
    const std::string &name = expr->name;
    auto isUpdate = [](const Binding &binding) { return !binding.value; };
    if (assignedInBody(name)) {
      // Each iteration binds it before reading it (planParallelLoop checks): only the body's
      // bindings count. One plain binding at the top of the body is followed exactly.
      std::vector<Binding> bindings = bodyBindings.at(name);
      std::erase_if(bindings, isUpdate);
      if (bindings.size() == 1 && bindings[0].simple &&
          std::find(loop->body.begin(), loop->body.end(), bindings[0].stmt) != loop->body.end())
        return viewOf(bindings[0].value, true, depth + 1);
      View view;
      for (const Binding &binding : bindings) {
        View each = inexactView(binding.value);
        view.inexact.insert(view.inexact.end(), each.inexact.begin(), each.inexact.end());
      }
      return view;
    }
    std::vector<Binding> bindings;
    auto found = functionBindings.find(name);
    if (found != functionBindings.end())
      bindings = found->second;
    std::erase_if(bindings, isUpdate);
    if (bindings.size() == 1 && bindings[0].simple && !parameters.count(name) &&
        !isAllocation(bindings[0].value))
      return viewOf(bindings[0].value, false, depth + 1);
    View view;
    view.exact.push_back(name);
    for (const Binding &binding : bindings) {
      View each = inexactView(binding.value);
      view.inexact.insert(view.inexact.end(), each.inexact.begin(), each.inexact.end());
    }
    return view;
  }

  /// The arrays an array expression may be a view of, and how its dimensions map to theirs.
  View viewOf(const Expr *expr, bool inside, int depth) const {
    if (depth > 32)
      return inexactView(expr);
    if (isAllocation(expr))
      return {};
    if (expr->kind == ExprKind::Name && isArray(expr))
      return viewOfName(expr, depth);
    std::string key = expr->kind == ExprKind::Name ? "" : pathKey(expr);
    if (!key.empty() && isArray(expr)) {
      View view;
      view.exact.push_back(key);
      return view;
    }
    if (expr->kind == ExprKind::Subscript && isArray(expr->operands[0]))
      return applySlots(viewOf(expr->operands[0], inside, depth + 1),
                        slotsOf(expr->operands[1], inside));
    return inexactView(expr);
  }

  /// The view `view[slots]`.
  View applySlots(View view, const std::vector<IndexSlot> &slots) const {
    size_t next = 0;
    auto shifting = [&] {
      view.inexact.insert(view.inexact.end(), view.exact.begin(), view.exact.end());
      view.exact.clear();
      view.dims.clear();
      return view;
    };
    for (ViewDim &dim : view.dims) {
      if (dim.kind == ViewDim::Kind::Fixed || next == slots.size())
        continue;
      const IndexSlot &slot = slots[next++];
      if (slot.kind == IndexSlot::Kind::Shifting)
        return shifting();
      if (dim.kind == ViewDim::Kind::Unknown) {
        if (slot.kind == IndexSlot::Kind::Scalar)
          dim = {ViewDim::Kind::Fixed, {}};
      } else if (slot.kind == IndexSlot::Kind::Scalar) {
        // A negative index counts from the end of the view, which is not lower + stride·k.
        bool direct = dim.isWhole();
        dim = {ViewDim::Kind::Fixed, direct ? slot.index
                                     : range.mayBeNegative(slot.index)
                                         ? IndexForm{}
                                         : combine(dim.index, slot.index, dim.stride)};
      } else if (slot.kind == IndexSlot::Kind::Slice) {
        int64_t stride;
        IndexForm lower = combine(dim.index, slot.index, dim.stride);
        if (__builtin_mul_overflow(dim.stride, slot.stride, &stride) ||
            lower.kind != IndexForm::Kind::Affine)
          dim = {ViewDim::Kind::Unknown, {}};
        else
          dim = {ViewDim::Kind::Mapped, lower, stride};
      } else {
        dim = {ViewDim::Kind::Unknown, {}};
      }
    }
    for (; next < slots.size(); ++next) {
      const IndexSlot &slot = slots[next];
      if (slot.kind == IndexSlot::Kind::Shifting)
        return shifting();
      view.dims.push_back({slot.kind == IndexSlot::Kind::Scalar  ? ViewDim::Kind::Fixed
                           : slot.kind == IndexSlot::Kind::Slice ? ViewDim::Kind::Mapped
                                                                 : ViewDim::Kind::Unknown,
                           slot.index, slot.stride});
    }
    return view;
  }

  // ---- collecting the body's accesses ----

  void record(const Expr *expr, const View &view, bool write, bool opaque = false) {
    Access access{expr, write, {}};
    // A slice that is not the whole dimension reaches a range of indices the analysis does
    // not compare.
    for (const ViewDim &dim : view.dims)
      access.dims.push_back(dim.kind == ViewDim::Kind::Fixed ? dim.index
                            : dim.isWhole()                  ? IndexForm::whole()
                                                             : IndexForm{});
    for (const std::string &key : view.exact)
      (opaque ? inexact : exact)[key].push_back(access);
    for (const std::string &key : view.inexact)
      inexact[key].push_back(access);
  }

  /// The reads in a subscript's indices, down its chain of subscripts and attributes
  /// (`a[i][idx[j]]`, `t[0][i]`, `self.a[i]`): the chain itself only names the array.
  void visitIndices(const Expr *subscript) {
    const Expr *base = subscript;
    while (base->kind == ExprKind::Subscript || base->kind == ExprKind::Attribute) {
      if (base->kind == ExprKind::Subscript)
        visit(base->operands[1]);
      base = base->operands[0];
    }
    if (base->kind != ExprKind::Name)
      visit(base); // `(a + b)[i]` reads all of a and b
  }

  bool isPath(const Expr *expr) const {
    return expr->kind == ExprKind::Name || !pathKey(expr).empty();
  }

  void visit(const Expr *expr) {
    if (!expr)
      return;
    switch (expr->kind) {
    case ExprKind::Subscript:
      if (isArray(expr->operands[0])) {
        record(expr, viewOf(expr, true, 0), false);
        visitIndices(expr);
        return;
      }
      break;
    case ExprKind::Attribute: {
      std::string name = libraryName(expr);
      if (std::find(std::begin(ShapeAttributes), std::end(ShapeAttributes), name) !=
          std::end(ShapeAttributes))
        return; // reads no element
      break;
    }
    case ExprKind::Call:
      if (libraryName(expr) == "len")
        return;
      if (function.calls.count(expr->id)) {
        // A jitted function may read any element of an array it is given.
        for (size_t i = 1; i < expr->operands.size(); ++i) {
          const Expr *argument = expr->operands[i];
          if (!mayHoldArrays(argument)) {
            visit(argument);
            continue;
          }
          record(argument, viewOf(argument, true, 0), false, true);
          if (argument->kind == ExprKind::Subscript && isArray(argument->operands[0]))
            visitIndices(argument);
          else if (!isPath(argument))
            visit(argument); // `a + b` reads all of a and b
        }
        return;
      }
      break;
    case ExprKind::Comprehension:
      visitBlock(expr->statements);
      break;
    default:
      break;
    }
    if (isArray(expr) && isPath(expr)) {
      record(expr, viewOf(expr, true, 0), false); // the whole array (`np.sum(a)`)
      return;
    }
    if (isPath(expr) && mayHoldArrays(expr) && expr->kind == ExprKind::Name) {
      View view = inexactView(expr); // a tuple or record of arrays, used whole
      record(expr, view, false);
      return;
    }
    for (const Expr *operand : expr->operands)
      visit(operand);
  }

  void visitTarget(const Expr *target) {
    if (target->kind == ExprKind::Subscript && isArray(target->operands[0])) {
      record(target, viewOf(target, true, 0), true);
      visitIndices(target);
    } else if (target->kind == ExprKind::Tuple || target->kind == ExprKind::List) {
      for (const Expr *element : target->operands)
        visitTarget(element);
    } else if (target->kind != ExprKind::Name) {
      // A field of an array's element (`a[i].x = v`, `a[i]['x'] = v`) writes that element.
      const Expr *base = target->operands[0];
      if (base->kind == ExprKind::Subscript && isArray(base->operands[0])) {
        record(base, viewOf(base, true, 0), true);
        visitIndices(base);
        for (size_t i = 1; i < target->operands.size(); ++i)
          visit(target->operands[i]);
        return;
      }
      for (const Expr *operand : target->operands)
        visit(operand);
    }
  }

  /// `row = a[i]` followed exactly (viewOfName): the view it makes reads no element.
  bool isFollowedAlias(const Stmt *stmt) const {
    if (stmt->targets.size() != 1 || stmt->targets[0]->kind != ExprKind::Name ||
        !isArray(stmt->targets[0]))
      return false;
    const auto &bindings = bodyBindings.at(stmt->targets[0]->name);
    return bindings.size() == 1 &&
           std::find(loop->body.begin(), loop->body.end(), stmt) != loop->body.end() &&
           (isPath(stmt->value) ||
            (stmt->value->kind == ExprKind::Subscript && isArray(stmt->value->operands[0])));
  }

  void visitBlock(const std::vector<Stmt *> &block) {
    for (const Stmt *stmt : block) {
      switch (stmt->kind) {
      case StmtKind::Assign:
        for (const Expr *target : stmt->targets)
          visitTarget(target);
        if (!isFollowedAlias(stmt))
          visit(stmt->value);
        else if (stmt->value->kind == ExprKind::Subscript)
          visitIndices(stmt->value);
        break;
      case StmtKind::AugAssign:
      case StmtKind::For:
        visitTarget(stmt->targets[0]);
        visit(stmt->value);
        break;
      default:
        visit(stmt->value);
        visit(stmt->test);
        visit(stmt->message);
        break;
      }
      visitBlock(stmt->body);
      visitBlock(stmt->orelse);
    }
  }

  // ---- comparing accesses ----

  /// Whether `write` in one iteration and `other` in another can reach the same element.
  Verdict comparePair(const Access &write, const Access &other, std::string &why) const {
    size_t count = std::max(write.dims.size(), other.dims.size());
    std::optional<WideInteger> distance;
    bool sameIteration = false;
    const char *undecided = nullptr;
    for (size_t d = 0; d < count; ++d) {
      IndexForm a = d < write.dims.size() ? write.dims[d] : IndexForm::whole();
      IndexForm b = d < other.dims.size() ? other.dims[d] : IndexForm::whole();
      IndexRelation relation = relateIndices(a, b, range);
      switch (relation.kind) {
      case IndexRelation::Kind::Never:
        return Verdict::Independent;
      case IndexRelation::Kind::SameIteration:
        sameIteration = true;
        break;
      case IndexRelation::Kind::Distance:
        if (distance && *distance != relation.distance)
          return Verdict::Independent;
        distance = relation.distance;
        break;
      case IndexRelation::Kind::Always:
        break;
      case IndexRelation::Kind::Undecided:
        undecided = undecided ? undecided : relation.why;
        break;
      }
    }
    // Two indices equal only in one iteration: the accesses are that iteration's own (an
    // index negative in one iteration and wrapping onto another's is not considered here).
    if (sameIteration)
      return Verdict::Independent;
    if (undecided) {
      why = undecided;
      return Verdict::Undecided;
    }
    return Verdict::Dependent;
  }

  static bool covers(const std::string &prefix, const std::string &key) {
    return key == prefix ||
           (key.size() > prefix.size() && key.compare(0, prefix.size(), prefix) == 0 &&
            (key[prefix.size()] == '.' || key[prefix.size()] == '['));
  }

  std::string where(const Access &access) const {
    return describe(access.expr) + " (" + (access.write ? "written" : "read") + " at line " +
           std::to_string(fileLine(access.expr)) + ")";
  }

  std::string dependenceReason(const std::string &key, const Access &write,
                               const Access &other) const {
    std::string text = "iterations depend on each other through array '" + key + "': ";
    if (&write == &other)
      return text + where(write) + " reaches the same element in different iterations";
    return text + where(other) + " reaches an element another iteration writes as " +
           describe(write.expr) + " (line " + std::to_string(fileLine(write.expr)) + ")";
  }

  std::string note(const Access &write, const Access &other, const std::string &why) const {
    std::string pair = &write == &other ? where(write) + " in two iterations"
                                        : where(write) + " and " + where(other);
    return pair + ": cannot tell whether they reach the same element (" + why +
           "); the loop runs in parallel as written, as in Numba";
  }
};

} // namespace

ArrayDependences findArrayDependences(const TypedFunction &function, const Stmt *loop) {
  return DependenceAnalysis(function, loop).run();
}

} // namespace taipan
