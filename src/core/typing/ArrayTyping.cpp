// Array typing: indexing and elementwise operators and ufuncs. Elementwise results follow the
// scalar rules of NumericPromotion on the dtypes; broadcasting gives the larger ndim.
#include "typing/ArrayTyping.h"

#include "registry/Library.h"
#include "types/CharSequences.h"
#include "types/DatetimeUnits.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"
#include "typing/DatetimeTyping.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

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

} // namespace

bool isScalarIndexArray(const Type *type) {
  return type->isArray() && type->ndim() == 0 && type->dtype()->isInteger();
}

const Type *sliceType() { return types::builtin("slice"); }
const Type *ellipsisType() { return types::builtin("ellipsis"); }

std::vector<IndexPieceKind>
classifyIndex(const Type *array, const std::vector<const Type *> &pieces, SourceLocation location) {
  std::vector<IndexPieceKind> kinds;
  int consumed = 0;
  bool ellipsis = false;
  for (const Type *piece : pieces) {
    if ((piece->isIntegerLike() && !piece->isBoolean()) || isScalarIndexArray(piece)) {
      kinds.push_back(IndexPieceKind::Integer); // a 0-d integer array is its integer (NumPy)
      ++consumed;
    } else if (piece == sliceType() || piece->kind() == TypeKind::Slice) {
      kinds.push_back(IndexPieceKind::Slice);
      ++consumed;
    } else if (piece->isNone()) {
      kinds.push_back(IndexPieceKind::NewAxis);
    } else if (piece == ellipsisType()) {
      if (ellipsis)
        throwTypingError("an index can only have a single ellipsis ('...')", location);
      ellipsis = true;
      kinds.push_back(IndexPieceKind::Ellipsis);
    } else if (piece->isArray() && piece->ndim() >= 1 && piece->dtype()->isInteger()) {
      // An integer array of any dimensions, alone or among integers, slices, None, '...' and
      // other index arrays: NumPy's advanced indexing (LowerArraySelections.cpp).
      kinds.push_back(IndexPieceKind::IntegerArray);
      ++consumed;
    } else if (piece->isArray() && piece->ndim() >= 1 && piece->dtype()->isBoolean()) {
      // A mask of k dimensions indexes k axes (as the k index arrays of its true positions).
      kinds.insert(kinds.end(), static_cast<size_t>(piece->ndim()), IndexPieceKind::BooleanArray);
      consumed += piece->ndim();
    } else {
      throwTypingError(
          "cannot index an array with a value of type " + piece->name() +
              (piece->isArray() ? " (an index array must hold integers or booleans)" : ""),
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

bool isSelection(const std::vector<IndexPieceKind> &kinds) {
  return std::any_of(kinds.begin(), kinds.end(), [](IndexPieceKind kind) {
    return kind == IndexPieceKind::BooleanArray || kind == IndexPieceKind::IntegerArray;
  });
}

const Type *typeArrayIndex(const Type *array, const std::vector<const Type *> &pieces,
                           SourceLocation location) {
  std::vector<IndexPieceKind> kinds = classifyIndex(array, pieces, location);
  if (isSelection(kinds)) {
    // A new array (NumPy's advanced indexing): the index arrays broadcast together to one
    // shape, which stands for the axes they and the integers index; slices and new axes keep
    // theirs, and the axes no piece names follow.
    int broadcastDimensions = 0, indexedAxes = 0, keptAxes = 0;
    for (const Type *piece : pieces)
      if (piece->isArray() && !isScalarIndexArray(piece)) // a mask gives one axis
        broadcastDimensions =
            std::max(broadcastDimensions, piece->dtype()->isBoolean() ? 1 : piece->ndim());
    for (IndexPieceKind kind : kinds) {
      indexedAxes += kind == IndexPieceKind::NewAxis ? 0 : 1;
      keptAxes += kind == IndexPieceKind::Slice || kind == IndexPieceKind::NewAxis ? 1 : 0;
    }
    return newArray(array->dtype(), broadcastDimensions + keptAxes + array->ndim() - indexedAxes);
  }
  int consumed = 0, resultDimensions = 0;
  for (IndexPieceKind kind : kinds) {
    if (kind == IndexPieceKind::Integer) {
      ++consumed;
    } else {
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
  if (resultDimensions == 0 && !hasEllipsis) // an item, as compiled code reads it
    return types::itemValueType(array->dtype());
  return types::array(array->dtype(), resultDimensions, viewLayout(array, pieces),
                      array->isReadonly());
}

char viewLayout(const Type *array, const std::vector<const Type *> &pieces) {
  // Numba's rule (typing/arraydecl.py, get_array_index_type): the pieces before an ellipsis
  // (left) and after it (right); a C array stays C when nothing follows the ellipsis and the
  // left pieces are integers but for the innermost, which may be a unit-step slice (a[i],
  // a[i:j], a[i, :n]); an F array mirrors it. A full integer index places the ellipsis
  // anywhere. A new axis, a stepped slice or a slice before another piece gives 'A'.
  char layout = array->layout();
  if (layout != 'C' && layout != 'F')
    return 'A';
  std::vector<const Type *> left, right;
  bool afterEllipsis = false;
  int indexed = 0; // the axes the pieces name, an ellipsis's not counted
  for (const Type *piece : pieces) {
    if (piece == ellipsisType()) {
      afterEllipsis = true;
      continue;
    }
    (afterEllipsis ? right : left).push_back(piece);
    indexed += piece->isNone() ? 0 : 1;
  }
  auto keepsContiguity = [](const Type *piece, bool innermost) {
    if (piece->isIntegerLike() && !piece->isBoolean())
      return true;
    return innermost && piece->kind() == TypeKind::Slice && !piece->sliceHasStep();
  };
  auto staysContiguous = [&](const std::vector<const Type *> &outerToInner) {
    for (size_t i = 0; i < outerToInner.size(); ++i)
      if (!keepsContiguity(outerToInner[i], i + 1 == outerToInner.size()))
        return false;
    return true;
  };
  bool full = indexed == array->ndim();
  if (layout == 'C') {
    if (full) {
      left.insert(left.end(), right.begin(), right.end());
      right.clear();
    }
    return right.empty() && staysContiguous(left) ? 'C' : 'A';
  }
  if (full) {
    right.insert(right.begin(), left.begin(), left.end());
    left.clear();
  }
  std::reverse(right.begin(), right.end());
  return left.empty() && staysContiguous(right) ? 'F' : 'A';
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
  if (l->isDatetimeLike() || r->isDatetimeLike()) {
    // datetime64/timedelta64 items: the scalar operators' rules (units, NaT), item by item
    if ((!l->isNumber() && !l->isDatetimeLike()) || (!r->isNumber() && !r->isDatetimeLike()))
      fail();
    return newArray(datetimeBinaryResultType(op, l, r, location),
                    broadcastDimensions({left, right}));
  }
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
  // datetime64/timedelta64 items: the scalar comparisons' rules (units; NaT is unordered)
  if ((elementOf(left)->isDatetimeLike() || elementOf(right)->isDatetimeLike()) &&
      checkDatetimeComparison(op, elementOf(left), elementOf(right), location))
    return newArray(types::boolean(), broadcastDimensions({left, right}));
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

namespace {

/// The dtype NumPy's `np.dtype(text)` gives for a string ('int32', 'i4', '<f8', 'd', 'M8[D]',
/// 'timedelta64[s]', 'complex'), or nullptr for a string naming no dtype taipan has (a
/// non-native byte order, 'g', strings, objects).
const Type *dtypeFromText(std::string text) {
  if (!text.empty() && (text[0] == '<' || text[0] == '=' || text[0] == '|'))
    text.erase(0, 1);
  // datetime64/timedelta64 with an optional [unit].
  for (const char *prefix : {"M8", "datetime64", "m8", "timedelta64"}) {
    std::string start(prefix);
    if (text.compare(0, start.size(), start) != 0)
      continue;
    std::string rest = text.substr(start.size());
    std::string unit;
    if (!rest.empty()) {
      if (rest.size() < 3 || rest.front() != '[' || rest.back() != ']')
        continue;
      unit = rest.substr(1, rest.size() - 2);
    }
    int code = datetimeUnitCode(unit);
    if (code < 0)
      return nullptr;
    return start[0] == 'M' || start[0] == 'd' ? types::datetime(code) : types::timedelta(code);
  }
  // Fixed-width strings: U<n> (`<U4`), S<n> (`|S5`), a<n>; a zero or missing width is no type.
  if (text.size() > 1 && (text[0] == 'U' || text[0] == 'S' || text[0] == 'a') &&
      std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    int64_t length = text.size() > 10 ? 0 : std::stoll(text.substr(1));
    return length > 0 ? types::charSequence(length, text[0] == 'U') : nullptr;
  }
  // NumPy's one-letter codes and C names, as "name=dtype" words.
  static const std::map<std::string, std::string> aliases = [] {
    std::map<std::string, std::string> table;
    std::istringstream words(
        "?=bool b=int8 B=uint8 h=int16 H=uint16 i=int32 I=uint32 l=int64 L=uint64 q=int64 Q=uint64 "
        "p=int64 P=uint64 e=float16 f=float32 d=float64 F=complex64 D=complex128 int=int64 "
        "uint=uint64 float=float64 complex=complex128 int_=int64 byte=int8 ubyte=uint8 short=int16 "
        "ushort=uint16 longlong=int64 ulonglong=uint64 long=int64 ulong=uint64 single=float32 "
        "csingle=complex64 cdouble=complex128");
    for (std::string word; words >> word;)
      table[word.substr(0, word.find('='))] = word.substr(word.find('=') + 1);
    return table;
  }();
  auto alias = aliases.find(text);
  if (alias != aliases.end())
    text = alias->second;
  const Type *scalar = types::scalarByName(text);
  return scalar && scalar->isNumber() ? scalar : nullptr;
}

} // namespace

const Type *dtypeFromArgument(const Type *argument) {
  if (argument->kind() == TypeKind::StringLiteral)
    return dtypeFromText(argument->text());
  if (argument->kind() == TypeKind::DType) // a dtype object global: a record dtype
    return argument->dtype()->isRecord() || argument->dtype()->isNumber() ||
                   types::isCharSequence(argument->dtype())
               ? argument->dtype()
               : nullptr;
  if (argument->kind() != TypeKind::Builtin)
    return nullptr;
  const Type *scalar = scalarConstructorType(argument->text());
  if (!scalar && argument->text().rfind("numpy.", 0) == 0) { // a datetime array's a.dtype
    const Type *unit = dtypeFromText(argument->text().substr(6));
    return unit && unit->isDatetimeLike() ? unit : nullptr;
  }
  return scalar && scalar->isNumber() ? scalar : nullptr;
}

} // namespace taipan
