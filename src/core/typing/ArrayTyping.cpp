// Array typing: indexing and elementwise operators and ufuncs. Elementwise results follow the
// scalar rules of NumericPromotion on the dtypes; broadcasting gives the larger ndim.
#include "typing/ArrayTyping.h"

#include "library/Library.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <algorithm>
#include <set>

namespace taipan {
namespace {

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

const std::set<std::string> &floatUfuncs() {
  static const std::set<std::string> names = {
      "sqrt",    "exp",     "exp2",    "log",     "log2",      "log10",   "log1p",
      "expm1",   "sin",     "cos",     "tan",     "arcsin",    "arccos",  "arctan",
      "sinh",    "cosh",    "tanh",    "arcsinh", "arccosh",   "arctanh", "deg2rad",
      "rad2deg", "degrees", "radians", "cbrt",    "reciprocal"};
  return names;
}

const std::set<std::string> &sameTypeUfuncs() {
  static const std::set<std::string> names = {"abs",    "absolute", "negative", "positive",
                                              "square", "sign",     "floor",    "ceil",
                                              "trunc",  "rint",     "fabs"};
  return names;
}

const std::set<std::string> &binaryUfuncs() {
  static const std::set<std::string> names = {
      "arctan2",  "hypot",    "minimum", "maximum",     "power",        "add",
      "subtract", "multiply", "divide",  "true_divide", "floor_divide", "fmin",
      "fmax",     "copysign", "mod",     "remainder",   "fmod"};
  return names;
}

/// where(condition, x, y) and clip(a, low, high): elementwise with three operands.
const std::set<std::string> &ternaryUfuncs() {
  static const std::set<std::string> names = {"where", "clip"};
  return names;
}

const std::set<std::string> &predicateUfuncs() {
  static const std::set<std::string> names = {"isnan", "isinf", "isfinite", "signbit"};
  return names;
}

} // namespace

const Type *sliceType() { return types::builtin("slice"); }
const Type *ellipsisType() { return types::builtin("ellipsis"); }

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
  if (op == BinaryOp::MatMult) { // numpy.dot's type rule
    LibraryCall dot;
    dot.function = Library::get().find("numpy.dot");
    dot.argumentTypes = {left, right};
    dot.location = location;
    return dot.function->type(dot);
  }
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

bool isUfunc(const std::string &name) {
  if (name.rfind("numpy.", 0) != 0)
    return false;
  std::string ufunc = name.substr(6);
  return floatUfuncs().count(ufunc) || sameTypeUfuncs().count(ufunc) ||
         binaryUfuncs().count(ufunc) || predicateUfuncs().count(ufunc) ||
         ternaryUfuncs().count(ufunc);
}

const Type *ufuncScalarType(const std::string &name, const std::vector<const Type *> &operands) {
  std::string ufunc = name.substr(6);
  for (const Type *operand : operands)
    if (!operand->isNumber())
      return nullptr;
  // NumPy's loops: float results keep float32, and small integers compute in float32
  // (NumPy uses float16 for 8-bit integers, which taipan does not have).
  auto floatOf = [](const Type *type) -> const Type * {
    if (type->isComplex())
      return type;
    if (type->isFloat())
      return type;
    return type->isBoolean() || type->bits() <= 16 ? types::float32() : types::float64();
  };
  static const std::set<std::string> complexCapable = {
      "sqrt", "exp",  "log",  "log10",   "sin",     "cos",     "tan",  "arcsin", "arccos", "arctan",
      "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "log2", "log1p",  "expm1"};
  if (floatUfuncs().count(ufunc) && operands.size() == 1)
    return operands[0]->isComplex() && !complexCapable.count(ufunc) ? nullptr
                                                                    : floatOf(operands[0]);
  if (predicateUfuncs().count(ufunc) && operands.size() == 1)
    return operands[0]->isComplex() && ufunc == "signbit" ? nullptr : types::boolean();
  if (sameTypeUfuncs().count(ufunc) && operands.size() == 1) {
    const Type *operand = operands[0];
    if (ufunc == "abs" || ufunc == "absolute")
      return operand->isComplex() ? types::floating(operand->bits() / 2) : operand;
    if (ufunc == "fabs")
      return floatOf(operand);
    if (ufunc == "floor" || ufunc == "ceil" || ufunc == "trunc")
      return operand->isBoolean() || operand->isInteger() ? operand : floatOf(operand);
    if (ufunc == "rint")
      return floatOf(operand);
    if (ufunc == "sign" && operand->isComplex())
      return nullptr;
    return operand->isBoolean() && ufunc != "square" ? types::integer(8, true) : operand;
  }
  if (ternaryUfuncs().count(ufunc) && operands.size() == 3) {
    if (ufunc == "where")
      return promoteDtypes(operands[1], operands[2]);
    return promoteDtypes(promoteDtypes(operands[0], operands[1]), operands[2]);
  }
  if (binaryUfuncs().count(ufunc) && operands.size() == 2) {
    const Type *common = promoteDtypes(operands[0], operands[1]);
    if (ufunc == "arctan2" || ufunc == "hypot" || ufunc == "copysign" || ufunc == "divide" ||
        ufunc == "true_divide")
      return common->isComplex() && ufunc != "divide" && ufunc != "true_divide" ? nullptr
             : (common->isInteger() || common->isBoolean()) &&
                     (ufunc == "divide" || ufunc == "true_divide")
                 ? types::float64()
                 : floatOf(common);
    if (ufunc == "fmod" || ufunc == "mod" || ufunc == "remainder" || ufunc == "floor_divide" ||
        ufunc == "power")
      return common->isBoolean() ? types::integer(8, true) : common;
    return common;
  }
  return nullptr;
}

const Type *dtypeFromArgument(const Type *argument) {
  if (argument->kind() != TypeKind::Builtin)
    return nullptr;
  const Type *scalar = scalarConstructorType(argument->text());
  return scalar && scalar->isNumber() ? scalar : nullptr;
}

const Type *typeNumpyCall(const std::string &name, const std::vector<const Type *> &arguments,
                          const std::vector<Expr *> &argumentExprs,
                          const std::vector<std::string> &keywords, SourceLocation location) {
  (void)argumentExprs;
  if (!keywords.empty())
    throwUnsupported("keyword arguments to " + name + " are not supported", location);
  if (isUfunc(name)) {
    std::vector<const Type *> scalars;
    for (const Type *argument : arguments)
      scalars.push_back(elementOf(argument));
    const Type *scalar = ufuncScalarType(name, scalars);
    if (!scalar)
      throwNoOverload(name, arguments, location);
    int ndim = broadcastDimensions(arguments);
    bool anyArray =
        std::any_of(arguments.begin(), arguments.end(), [](const Type *t) { return t->isArray(); });
    return anyArray ? newArray(scalar, ndim) : scalar;
  }
  throwUnsupported(name + " is not supported yet", location);
}

} // namespace taipan
