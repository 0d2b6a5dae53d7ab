// Array typing. Elementwise results follow the scalar rules of NumericPromotion on the dtypes;
// broadcasting gives the larger ndim; new arrays are C-contiguous.
#include "typing/ArrayTyping.h"

#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace taipan {
namespace {

/// A shape argument: an integer or a tuple of integers. Returns the ndim, or -1.
int shapeDimensions(const Type *shape) {
  if (shape->isIntegerLike())
    return 1;
  if (shape->isTuple() && std::all_of(shape->elements().begin(), shape->elements().end(),
                                      [](const Type *t) { return t->isIntegerLike(); }))
    return static_cast<int>(shape->elements().size());
  return -1;
}

const Type *newArray(const Type *dtype, int ndim) { return types::array(dtype, ndim, 'C', false); }

/// The dtype of an array or scalar operand of an elementwise operation.
const Type *elementOf(const Type *type) { return type->isArray() ? type->dtype() : type; }

int broadcastDimensions(const std::vector<const Type *> &operands) {
  int ndim = 0;
  for (const Type *operand : operands)
    if (operand->isArray())
      ndim = std::max(ndim, operand->ndim());
  return ndim;
}

/// Parameter names of the numpy functions and array methods, for binding keywords.
const std::map<std::string, std::vector<std::string>> &numpyParameters() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"empty", {"shape", "dtype"}},
      {"zeros", {"shape", "dtype"}},
      {"ones", {"shape", "dtype"}},
      {"full", {"shape", "fill_value", "dtype"}},
      {"empty_like", {"a", "dtype"}},
      {"zeros_like", {"a", "dtype"}},
      {"ones_like", {"a", "dtype"}},
      {"full_like", {"a", "fill_value", "dtype"}},
      {"arange", {"start", "stop", "step", "dtype"}},
      {"linspace", {"start", "stop", "num", "endpoint"}},
      {"eye", {"N", "M", "k", "dtype"}},
      {"identity", {"n", "dtype"}},
      {"copy", {"a"}},
      {"asarray", {"a", "dtype"}},
      {"array", {"object", "dtype"}},
      {"astype", {"a", "dtype"}},
      {"fill", {"a", "value"}},
      {"ravel", {"a"}},
      {"flatten", {"a"}},
      {"transpose", {"a"}},
      {"reshape", {"a", "shape"}},
      {"sum", {"a", "axis"}},
      {"prod", {"a", "axis"}},
      {"min", {"a", "axis"}},
      {"max", {"a", "axis"}},
      {"amin", {"a", "axis"}},
      {"amax", {"a", "axis"}},
      {"mean", {"a", "axis"}},
      {"std", {"a", "axis"}},
      {"var", {"a", "axis"}},
      {"argmin", {"a", "axis"}},
      {"argmax", {"a", "axis"}},
      {"any", {"a", "axis"}},
      {"all", {"a", "axis"}},
      {"cumsum", {"a"}},
      {"cumprod", {"a"}},
      {"nonzero", {"a"}},
      {"sort", {"a"}},
      {"argsort", {"a"}},
      {"dot", {"a", "b"}},
      {"random.seed", {"seed"}},
      {"random.random", {"size"}},
      {"random.random_sample", {"size"}},
      {"random.sample", {"size"}},
      {"random.standard_normal", {"size"}},
      {"random.uniform", {"low", "high", "size"}},
      {"random.normal", {"loc", "scale", "size"}},
      {"random.randint", {"low", "high", "size"}},
      {"random.shuffle", {"x"}},
      {"random.permutation", {"x"}},
      {"random.choice", {"a", "size"}},
  };
  return table;
}

} // namespace

bool isNumpyFunction(const std::string &function) {
  static const std::set<std::string> others = {"random.rand", "random.randn", "ndindex",
                                               "ndenumerate", "nditer"};
  return numpyParameters().count(function) || others.count(function);
}

const Type *sliceType() { return types::builtin("slice"); }
const Type *ellipsisType() { return types::builtin("ellipsis"); }

std::vector<int> bindNumpyArguments(const std::string &function, size_t positional,
                                    const std::vector<std::string> &keywords,
                                    SourceLocation location) {
  const auto &table = numpyParameters();
  auto found = table.find(function);
  size_t total = positional + keywords.size();
  if (found == table.end()) {
    if (!keywords.empty())
      throwUnsupported("keyword arguments to numpy." + function + " are not supported", location);
    std::vector<int> order(total);
    for (size_t i = 0; i < total; ++i)
      order[i] = static_cast<int>(i);
    return order;
  }
  const std::vector<std::string> &names = found->second;
  if (function == "reshape" && positional > names.size() && keywords.empty()) {
    std::vector<int> order(positional); // a.reshape(d0, d1, ...)
    for (size_t i = 0; i < positional; ++i)
      order[i] = static_cast<int>(i);
    return order;
  }
  if (positional > names.size())
    throwTypingError("numpy." + function + "() takes at most " + std::to_string(names.size()) +
                         " arguments",
                     location);
  std::vector<int> order(names.size(), -1);
  for (size_t i = 0; i < positional; ++i)
    order[i] = static_cast<int>(i);
  for (size_t k = 0; k < keywords.size(); ++k) {
    auto position = std::find(names.begin(), names.end(), keywords[k]);
    if (position == names.end())
      throwTypingError("numpy." + function + "() got an unexpected keyword argument '" +
                           keywords[k] + "'",
                       location);
    order[position - names.begin()] = static_cast<int>(positional + k);
  }
  while (!order.empty() && order.back() < 0)
    order.pop_back();
  return order;
}

std::vector<IndexPieceKind>
classifyIndex(const Type *array, const std::vector<const Type *> &pieces, SourceLocation location) {
  std::vector<IndexPieceKind> kinds;
  int consumed = 0;
  bool ellipsis = false;
  for (const Type *piece : pieces) {
    if (piece->isIntegerLike() && !piece->isBoolean()) {
      kinds.push_back(IndexPieceKind::Integer);
      ++consumed;
    } else if (piece == sliceType()) {
      kinds.push_back(IndexPieceKind::Slice);
      ++consumed;
    } else if (piece->isNone()) {
      kinds.push_back(IndexPieceKind::NewAxis);
    } else if (piece == ellipsisType()) {
      if (ellipsis)
        throwTypingError("an index can only have a single ellipsis ('...')", location);
      ellipsis = true;
      kinds.push_back(IndexPieceKind::Ellipsis);
    } else if (piece->isArray() && piece->ndim() == 1 && pieces.size() == 1 && array->ndim() == 1 &&
               (piece->dtype()->isBoolean() || piece->dtype()->isInteger())) {
      kinds.push_back(piece->dtype()->isBoolean() ? IndexPieceKind::BooleanArray
                                                  : IndexPieceKind::IntegerArray);
      ++consumed;
    } else {
      throwTypingError("cannot index an array with a value of type " + piece->name() +
                           (piece->isArray() ? " (only a 1-D mask or integer array may index a "
                                               "1-D array)"
                                             : ""),
                       location);
    }
  }
  if (consumed > array->ndim())
    throwTypingError("too many indices for array: array is " + std::to_string(array->ndim()) +
                         "-dimensional, but " + std::to_string(consumed) + " were indexed",
                     location);
  std::vector<IndexPieceKind> expanded;
  for (IndexPieceKind kind : kinds) {
    if (kind == IndexPieceKind::Ellipsis)
      expanded.insert(expanded.end(), array->ndim() - consumed, IndexPieceKind::Slice);
    else
      expanded.push_back(kind);
  }
  return expanded;
}

const Type *typeArrayIndex(const Type *array, const std::vector<const Type *> &pieces,
                           SourceLocation location) {
  std::vector<IndexPieceKind> kinds = classifyIndex(array, pieces, location);
  if (!kinds.empty() &&
      (kinds[0] == IndexPieceKind::BooleanArray || kinds[0] == IndexPieceKind::IntegerArray))
    return newArray(array->dtype(), 1);
  int consumed = 0, resultDimensions = 0;
  bool onlyLeadingIntegers = true, sawOther = false;
  for (IndexPieceKind kind : kinds) {
    if (kind == IndexPieceKind::Integer) {
      ++consumed;
      onlyLeadingIntegers &= !sawOther;
    } else {
      sawOther = true;
      if (kind == IndexPieceKind::Slice) {
        ++consumed;
        ++resultDimensions;
      } else {
        ++resultDimensions; // a new axis
      }
    }
  }
  resultDimensions += array->ndim() - consumed;
  // a[...] of a 0-d array is a 0-d view; a full integer index is an element.
  bool hasEllipsis = std::find(pieces.begin(), pieces.end(), ellipsisType()) != pieces.end();
  if (resultDimensions == 0 && !hasEllipsis)
    return array->dtype();
  // a[i] and a[i, j] of a C array stay C; anything with a slice may not be contiguous.
  char layout = (onlyLeadingIntegers && !sawOther && array->layout() == 'C') ? 'C' : 'A';
  return types::array(array->dtype(), resultDimensions, layout, array->isReadonly());
}

const Type *typeArrayAttribute(const Type *array, const std::string &name) {
  int ndim = array->ndim();
  const Type *dimensionTuple = types::tuple(std::vector<const Type *>(ndim, types::int64()));
  if (name == "shape" || name == "strides")
    return dimensionTuple;
  if (name == "ndim" || name == "size" || name == "itemsize" || name == "nbytes")
    return types::int64();
  if (name == "dtype")
    return types::builtin("numpy." + array->dtype()->name());
  if (name == "flat")
    return types::array(array->dtype(), 1, 'C', array->isReadonly());
  if (name == "T") {
    char layout = array->layout() == 'C' ? 'F' : array->layout() == 'F' ? 'C' : 'A';
    return types::array(array->dtype(), ndim, ndim <= 1 ? array->layout() : layout,
                        array->isReadonly());
  }
  if (name == "real" || name == "imag") {
    const Type *dtype = array->dtype();
    if (dtype->isComplex())
      return types::array(types::floating(dtype->bits() / 2), ndim, 'A', array->isReadonly());
    return name == "real" ? array : types::array(dtype, ndim, 'C', true);
  }
  return nullptr;
}

std::string arrayMethodName(const std::string &method) {
  static const std::set<std::string> methods = {
      "copy", "astype", "reshape", "ravel",   "flatten", "transpose", "fill",   "sum",
      "prod", "min",    "max",     "mean",    "std",     "var",       "argmin", "argmax",
      "any",  "all",    "cumsum",  "cumprod", "sort",    "argsort",   "nonzero"};
  return methods.count(method) ? "array." + method : "";
}

const Type *promoteDtypes(const Type *a, const Type *b) {
  if (a == b)
    return a;
  if (a->isBoolean())
    return b;
  if (b->isBoolean())
    return a;
  // Types that fit in float32 (and complex64) without loss.
  auto narrow = [](const Type *type) {
    return type->isComplex() ? type->bits() == 64
           : type->isFloat() ? type->bits() <= 32
                             : type->bits() <= 16;
  };
  if (a->isComplex() || b->isComplex())
    return types::complex(narrow(a) && narrow(b) ? 64 : 128);
  if (a->isFloat() || b->isFloat())
    return types::floating(narrow(a) && narrow(b) ? 32 : 64);
  if (a->isSigned() == b->isSigned())
    return a->bits() >= b->bits() ? a : b;
  const Type *unsignedOne = a->isSigned() ? b : a;
  const Type *signedOne = a->isSigned() ? a : b;
  if (unsignedOne->bits() < signedOne->bits())
    return signedOne;
  if (unsignedOne->bits() == 64)
    return types::float64();
  return types::integer(unsignedOne->bits() * 2, true);
}

namespace {

/// 0 bool, 1 integer, 2 float, 3 complex.
int numberKind(const Type *type) {
  return type->isBoolean() ? 0 : type->isInteger() ? 1 : type->isFloat() ? 2 : 3;
}

/// NumPy 2 (NEP 50): a Python number literal beside an array takes the array's dtype when it is
/// of the same or a lower kind; a float literal beside an int array is float64.
const Type *weakScalar(const Type *literal, const Type *arrayDtype) {
  if (numberKind(literal) <= numberKind(arrayDtype))
    return arrayDtype;
  return numberKind(literal) == 2 ? types::float64() : types::complex128();
}

} // namespace

const Type *typeElementwiseBinary(BinaryOp op, const Type *left, const Type *right,
                                  SourceLocation location, bool leftIsLiteral,
                                  bool rightIsLiteral) {
  if (!left->isArray() && !right->isArray())
    return nullptr;
  if (op == BinaryOp::MatMult)
    return typeNumpyCall("numpy.dot", {left, right}, {}, {}, location);
  const Type *l = elementOf(left);
  const Type *r = elementOf(right);
  auto fail = [&]() {
    throwTypingError(std::string("unsupported operand types for ") + binaryOpSymbol(op) + ": " +
                         left->name() + " and " + right->name(),
                     location);
  };
  if (!l->isNumber() || !r->isNumber())
    fail();
  if (!left->isArray() && leftIsLiteral)
    l = weakScalar(l, r);
  if (!right->isArray() && rightIsLiteral)
    r = weakScalar(r, l);
  // Arrays follow NumPy's ufunc types (int8 + int8 is int8), not the scalar rules.
  const Type *common = promoteDtypes(l, r);
  const Type *dtype = common;
  switch (op) {
  case BinaryOp::Div:
    if (common->isInteger() || common->isBoolean())
      dtype = types::float64();
    break;
  case BinaryOp::Sub:
    if (common->isBoolean())
      throwTypingError("numpy boolean subtract, the `-` operator, is not supported; use the "
                       "bitwise_xor, the `^` operator, instead",
                       location);
    break;
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
  case BinaryOp::Pow:
    if (common->isComplex() && op != BinaryOp::Pow)
      fail();
    if (common->isBoolean())
      dtype = types::integer(8, true);
    break;
  case BinaryOp::LShift:
  case BinaryOp::RShift:
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    if (!common->isInteger() && !common->isBoolean())
      fail();
    if (common->isBoolean() && (op == BinaryOp::LShift || op == BinaryOp::RShift))
      dtype = types::integer(8, true);
    break;
  default:
    break;
  }
  return newArray(dtype, broadcastDimensions({left, right}));
}

const Type *typeElementwiseCompare(CompareOp op, const Type *left, const Type *right,
                                   SourceLocation location) {
  if (!left->isArray() && !right->isArray())
    return nullptr;
  if (!comparisonOperandType(op, elementOf(left), elementOf(right)))
    throwTypingError(std::string("cannot compare ") + left->name() + " " + compareOpSymbol(op) +
                         " " + right->name(),
                     location);
  return newArray(types::boolean(), broadcastDimensions({left, right}));
}

const Type *typeElementwiseUnary(UnaryOp op, const Type *operand, SourceLocation location) {
  if (!operand->isArray())
    return nullptr;
  const Type *dtype = operand->dtype();
  const char *problem = nullptr;
  if (op == UnaryOp::Not)
    problem = " (the truth value of an array is ambiguous; use a.any() or a.all())";
  else if (op == UnaryOp::Neg && dtype->isBoolean())
    problem = " (numpy boolean negative, the `-` operator, is not supported; use `~`)";
  else if (op == UnaryOp::Invert && !dtype->isInteger() && !dtype->isBoolean())
    problem = "";
  if (problem)
    throwTypingError("bad operand type for unary operator: " + operand->name() + problem, location);
  return newArray(dtype, operand->ndim());
}

const Type *dtypeFromArgument(const Type *argument) {
  if (argument->kind() != TypeKind::Builtin)
    return nullptr;
  const Type *scalar = scalarConstructorType(argument->text());
  return scalar && scalar->isNumber() ? scalar : nullptr;
}

/// np.random functions: a scalar, or an array when given a size.
const Type *typeNumpyRandom(const std::string &function, const std::vector<const Type *> &arguments,
                            size_t positional, const std::function<const Type *(size_t)> &argument,
                            SourceLocation location) {
  auto sized = [&](const Type *scalar, size_t sizeParameter) -> const Type * {
    const Type *size = argument(sizeParameter);
    if (!size || size->isNone())
      return scalar;
    int ndim = shapeDimensions(size);
    if (ndim < 0)
      throwTypingError("size must be an integer or a tuple of integers", location);
    return newArray(scalar, ndim);
  };
  for (const Type *given : arguments)
    if (!given->isNumber() && !given->isTuple() && !given->isNone() && !given->isArray())
      throwNoOverload("numpy.random." + function, arguments, location);
  if (function == "seed") {
    if (!argument(0) || !argument(0)->isIntegerLike())
      throwNoOverload("numpy.random.seed", arguments, location);
    return types::none();
  }
  if (function == "rand" || function == "randn") {
    // rand(d0, d1, ...): the dimensions are positional integers.
    for (const Type *given : arguments)
      if (!given->isIntegerLike())
        throwNoOverload("numpy.random." + function, arguments, location);
    return positional == 0 ? types::float64()
                           : newArray(types::float64(), static_cast<int>(positional));
  }
  if (function == "random" || function == "random_sample" || function == "sample" ||
      function == "standard_normal")
    return sized(types::float64(), 0);
  if (function == "uniform" || function == "normal")
    return sized(types::float64(), 2);
  if (function == "randint") {
    if (!argument(0) || !argument(0)->isIntegerLike() ||
        (argument(1) && !argument(1)->isIntegerLike()))
      throwNoOverload("numpy.random.randint", arguments, location);
    return sized(types::int64(), 2);
  }
  if (function == "shuffle") {
    if (!argument(0) || !argument(0)->isArray() || argument(0)->layout() != 'C' ||
        argument(0)->isReadonly())
      throwTypingError("np.random.shuffle takes a writable C-contiguous array", location);
    return types::none();
  }
  if (function == "permutation") {
    const Type *given = argument(0);
    if (given && given->isIntegerLike())
      return newArray(types::int64(), 1);
    if (given && given->isArray() && given->ndim() >= 1)
      return newArray(given->dtype(), given->ndim());
    throwNoOverload("numpy.random.permutation", arguments, location);
  }
  if (function == "choice") {
    const Type *given = argument(0);
    const Type *element = given && given->isIntegerLike()                   ? types::int64()
                          : given && given->isArray() && given->ndim() == 1 ? given->dtype()
                                                                            : nullptr;
    if (!element)
      throwNoOverload("numpy.random.choice", arguments, location);
    return sized(element, 1);
  }
  throwUnsupported("numpy.random." + function + " is not supported", location);
}

const Type *typeNumpyCall(const std::string &name, const std::vector<const Type *> &arguments,
                          const std::vector<Expr *> &argumentExprs,
                          const std::vector<std::string> &keywords, SourceLocation location) {
  (void)argumentExprs;
  bool isMethod = name.rfind("array.", 0) == 0;
  std::string function = name.substr(isMethod ? 6 : 6);
  if (function == "ndindex" || function == "ndenumerate" || function == "nditer")
    throwUnsupported("np." + function + "() can only be iterated by a for loop in compiled code",
                     location);
  size_t positional = arguments.size() - keywords.size();
  std::vector<int> order = bindNumpyArguments(function, positional, keywords, location);
  auto argument = [&](size_t parameter) -> const Type * {
    return parameter < order.size() && order[parameter] >= 0 ? arguments[order[parameter]]
                                                             : nullptr;
  };
  auto dtypeParameter = [&](size_t parameter, const Type *fallback) {
    const Type *given = argument(parameter);
    if (!given || given->isNone())
      return fallback;
    const Type *dtype = dtypeFromArgument(given);
    if (!dtype)
      throwTypingError("dtype must be a NumPy scalar type such as np.float64, not " + given->name(),
                       location);
    return dtype;
  };
  const Type *first = argument(0);
  if (function.rfind("random.", 0) == 0)
    return typeNumpyRandom(function.substr(7), arguments, positional, argument, location);
  if (function == "dot") {
    const Type *left = argument(0), *right = argument(1);
    if (!left || !right || !left->isArray() || !right->isArray() || left->ndim() > 2 ||
        right->ndim() > 2 || left->ndim() == 0 || right->ndim() == 0 || !left->dtype()->isFloat() ||
        left->dtype() != right->dtype())
      throwTypingError("np.dot and @ take 1-D or 2-D float32 or float64 arrays of one dtype, not " +
                           describeArgumentTypes(arguments),
                       location);
    int ndim = left->ndim() + right->ndim() - 2;
    return ndim == 0 ? left->dtype() : newArray(left->dtype(), ndim);
  }
  if (function == "empty" || function == "zeros" || function == "ones" || function == "full") {
    int ndim = first ? shapeDimensions(first) : -1;
    if (ndim < 0)
      throwTypingError("the shape of numpy." + function +
                           " must be an integer or a tuple of integers",
                       location);
    if (function == "full") {
      const Type *fill = argument(1);
      if (!fill || !fill->isNumber())
        throwNoOverload(name, arguments, location);
      return newArray(dtypeParameter(2, fill->isBoolean() ? types::boolean() : fill), ndim);
    }
    return newArray(dtypeParameter(1, types::float64()), ndim);
  }
  if (function == "empty_like" || function == "zeros_like" || function == "ones_like" ||
      function == "full_like") {
    if (!first || !first->isArray())
      throwNoOverload(name, arguments, location);
    return newArray(dtypeParameter(function == "full_like" ? 2 : 1, first->dtype()), first->ndim());
  }
  if (function == "arange") {
    const Type *result = types::int64();
    for (size_t i = 0; i < 3; ++i)
      if (const Type *given = argument(i)) {
        if (!given->isNumber() || given->isComplex())
          throwNoOverload(name, arguments, location);
        result = given->isFloat() ? binaryResultType(BinaryOp::Add, result, given)
                                  : (result->isFloat() ? result : types::int64());
      }
    return newArray(dtypeParameter(3, result), 1);
  }
  if (function == "linspace")
    return newArray(types::float64(), 1);
  if (function == "eye")
    return newArray(dtypeParameter(3, types::float64()), 2);
  if (function == "identity")
    return newArray(dtypeParameter(1, types::float64()), 2);
  if (function == "array" || function == "asarray") {
    if (!first)
      throwNoOverload(name, arguments, location);
    if (first->isArray()) {
      const Type *dtype = dtypeParameter(1, first->dtype());
      return function == "asarray" && dtype == first->dtype() ? first
                                                              : newArray(dtype, first->ndim());
    }
    if (first->isNumber())
      return newArray(dtypeParameter(1, first), 0);
    if (first->isTuple() && !first->elements().empty()) {
      const Type *element = nullptr;
      for (const Type *item : first->elements()) {
        if (!item->isNumber())
          throwUnsupported("numpy." + function + " takes a flat list or tuple of numbers",
                           location);
        element = element ? unifyTypes(element, item) : item;
      }
      return newArray(dtypeParameter(1, element), 1);
    }
    throwNoOverload(name, arguments, location);
  }
  if (!first || !first->isArray())
    throwNoOverload(name, arguments, location);
  const Type *dtype = first->dtype();
  int ndim = first->ndim();
  if (first->isReadonly() && (function == "fill" || (isMethod && function == "sort")))
    throwTypingError("cannot modify a read-only array (" + function + ")", location);
  if (function == "copy")
    return newArray(dtype, ndim);
  if (function == "astype")
    return newArray(dtypeParameter(1, dtype), ndim);
  if (function == "fill") {
    if (!argument(1) || !argument(1)->isNumber())
      throwNoOverload(name, arguments, location);
    return types::none();
  }
  if (function == "ravel" || function == "flatten")
    return newArray(dtype, 1);
  if (function == "transpose")
    return typeArrayAttribute(first, "T");
  if (function == "reshape") {
    // reshape(shape) or reshape(d0, d1, ...)
    int dimensions;
    if (positional == 2)
      dimensions = shapeDimensions(arguments[1]);
    else {
      dimensions = static_cast<int>(positional) - 1;
      for (size_t i = 1; i < positional; ++i)
        if (!arguments[i]->isIntegerLike())
          dimensions = -1;
    }
    if (dimensions < 1)
      throwTypingError("reshape takes a shape: integers or a tuple of integers", location);
    return types::array(dtype, dimensions, 'C', first->isReadonly());
  }
  if (function == "sort" || function == "argsort") {
    if (dtype->isComplex())
      throwUnsupported("sorting complex arrays is not supported", location);
    if (function == "argsort") {
      if (ndim != 1)
        throwUnsupported("argsort is supported on 1-D arrays", location);
      return newArray(types::int64(), 1);
    }
    return isMethod ? types::none() : newArray(dtype, ndim);
  }
  if (function == "cumsum" || function == "cumprod") {
    const Type *accumulator = dtype->isIntegerLike()
                                  ? types::integer(64, dtype->isBoolean() || dtype->isSigned())
                                  : dtype;
    return newArray(accumulator, 1);
  }
  static const std::set<std::string> reductions = {"sum",    "prod", "min", "max", "amin",
                                                   "amax",   "mean", "std", "var", "argmin",
                                                   "argmax", "any",  "all"};
  if (reductions.count(function)) {
    if (dtype->isComplex() && (function == "min" || function == "max" || function == "amin" ||
                               function == "amax" || function == "argmin" || function == "argmax"))
      throwUnsupported(function + " of a complex array is not supported", location);
    const Type *result;
    if (function == "sum" || function == "prod")
      result = dtype->isIntegerLike() ? types::integer(64, dtype->isBoolean() || dtype->isSigned())
                                      : dtype;
    else if (function == "mean" || function == "std" || function == "var")
      result = dtype->isComplex() && function == "mean"  ? dtype
               : dtype->isFloat() && dtype->bits() == 32 ? types::float32()
                                                         : types::float64();
    else if (function == "argmin" || function == "argmax")
      result = types::int64();
    else if (function == "any" || function == "all")
      result = types::boolean();
    else
      result = dtype;
    const Type *axis = argument(1);
    if (!axis || axis->isNone())
      return result;
    if (!axis->isIntegerLike())
      throwTypingError("axis must be an integer", location);
    if (ndim == 1)
      return result;
    return newArray(result, ndim - 1);
  }
  throwUnsupported(name + " is not supported yet", location);
}

} // namespace taipan
