// Numba's scalar promotion rules. Integers widen to at least 64 bits and keep a sign when either
// operand is signed; floats follow NumPy (float32 survives only next to small integers).
#include "types/NumericPromotion.h"

#include "types/CharSequences.h"

#include <algorithm>
#include <array>
#include <utility>

namespace taipan {

/// Integer result of arithmetic on two integer-like operands (booleans count as signed).
static const Type *integerResult(const Type *a, const Type *b) {
  int bits = std::max({64, a->isInteger() ? a->bits() : 0, b->isInteger() ? b->bits() : 0});
  bool isSigned = (a->isBoolean() || a->isSigned()) || (b->isBoolean() || b->isSigned());
  return types::integer(bits, isSigned);
}

/// The float type that holds a value of an integer-like or float type, beside a float32.
static int floatBitsFor(const Type *type) {
  if (type->isFloat())
    return type->bits();
  if (type->isBoolean() || (type->isInteger() && type->bits() <= 16))
    return 32;
  return 64;
}

/// Common type of two numbers for arithmetic: the NumPy-style promotion Numba uses.
static const Type *numericCommon(const Type *a, const Type *b) {
  if (!a->isNumber() || !b->isNumber())
    return nullptr;
  if (a->isComplex() || b->isComplex()) {
    // complex64 survives only beside complex64, float32 and small integers.
    auto isNarrow = [](const Type *type) {
      return type->isComplex() ? type->bits() == 64 : floatBitsFor(type) == 32;
    };
    bool narrow = isNarrow(a) && isNarrow(b);
    return types::complex(narrow ? 64 : 128);
  }
  if (a->isFloat() || b->isFloat())
    return types::floating(std::max(floatBitsFor(a), floatBitsFor(b)));
  return integerResult(a, b);
}

/// A first-class function type, or the one a C function at a known address converts to.
static const Type *asFirstClassFunction(const Type *type) {
  return type->kind() == TypeKind::FirstClassFunction ? type : types::firstClassFunctionOf(type);
}

/// Functions of one signature meet as a first-class function value, as Numba's FunctionType
/// unifies: a FunctionType and a C function at an address (a ctypes function, a cfunc, a
/// WrapperAddressProtocol object), or two such C functions. Null for anything else.
static const Type *unifyFirstClassFunctions(const Type *a, const Type *b) {
  bool either =
      a->kind() == TypeKind::FirstClassFunction || b->kind() == TypeKind::FirstClassFunction ||
      (a->kind() == TypeKind::ExternalFunction && b->kind() == TypeKind::ExternalFunction);
  if (!either)
    return nullptr;
  const Type *first = asFirstClassFunction(a);
  return first && first == asFirstClassFunction(b) ? first : nullptr;
}

const Type *unifyTypes(const Type *a, const Type *b) {
  if (a == b)
    return a;
  if (!a)
    return b;
  if (!b)
    return a;
  if (a->isNumber() && b->isNumber()) {
    if (a->isInteger() && b->isInteger()) {
      if (a->isSigned() == b->isSigned())
        return types::integer(std::max(a->bits(), b->bits()), a->isSigned());
      // A signed and an unsigned integer meet in the narrowest signed integer that holds both:
      // the signed one when it is wider, else twice the unsigned width (Numba's safe casts).
      const Type *unsignedOne = a->isSigned() ? b : a;
      const Type *signedOne = a->isSigned() ? a : b;
      if (signedOne->bits() > unsignedOne->bits())
        return signedOne;
      if (unsignedOne->bits() == 64)
        return types::float64(); // int64 and uint64 have no common integer type
      return types::integer(unsignedOne->bits() * 2, true);
    }
    if (a->isBoolean() || b->isBoolean()) {
      const Type *other = a->isBoolean() ? b : a;
      return other->isInteger() ? other : numericCommon(a, b);
    }
    if (a->isFloat() && b->isFloat())
      return types::floating(std::max(a->bits(), b->bits()));
    if (a->isInteger() || b->isInteger())
      return (a->isFloat() || b->isFloat()) ? types::float64() : types::complex128();
    return numericCommon(a, b);
  }
  if (a->isString() && b->isString())
    return types::unicode(); // two different literals, or a literal and a string value
  if (a->kind() == TypeKind::Slice && b->kind() == TypeKind::Slice)
    return types::sliceValue(); // slice2_type is a slice3_type whose step is 1
  if (a->isArray() && b->isArray() && a->dtype() == b->dtype() && a->ndim() == b->ndim())
    // A C array and a strided one share the general layout, as in Numba.
    return types::array(a->dtype(), a->ndim(), a->layout() == b->layout() ? a->layout() : 'A',
                        a->isReadonly() || b->isReadonly());
  if (a->isList() && b->isList() && a->isReflected() == b->isReflected()) {
    // `[]` takes the items it is given later; lists of numbers unify their items, as Numba
    // unifies a list's item type over the function (the literals are then built of it).
    if (!a->itemType() || !b->itemType())
      return a->itemType() ? a : b;
    const Type *item = unifyTypes(a->itemType(), b->itemType());
    return item ? types::listLike(a, item) : nullptr;
  }
  if (a->isDict() && b->isDict()) {
    // `{}` takes the types of the stores that follow; otherwise keys and values unify as a
    // list's items do.
    if (!a->keyType() || !b->keyType())
      return a->keyType() ? a : b;
    const Type *key = unifyTypes(a->keyType(), b->keyType());
    const Type *value = unifyTypes(a->valueType(), b->valueType());
    return key && value ? types::dict(key, value) : nullptr;
  }
  if (a->isSet() && b->isSet()) {
    // `set()` takes the keys of the adds that follow; otherwise keys unify as a list's items do.
    // A set and a frozenset stay apart (one name holding either is not supported).
    if (a->isFrozen() != b->isFrozen())
      return nullptr;
    if (!a->keyType() || !b->keyType())
      return a->keyType() ? a : b;
    const Type *key = unifyTypes(a->keyType(), b->keyType());
    return key ? types::setLike(a, key) : nullptr;
  }
  if (const Type *function = unifyFirstClassFunctions(a, b))
    return function;
  if (a->isLiteralList() || b->isLiteralList())
    return nullptr; // equal ones returned above; Numba does not unify others either
  if (a->isNamedTuple() != b->isNamedTuple() ||
      (a->isNamedTuple() && a->namedTupleClass() != b->namedTupleClass()))
    return nullptr;
  if (a->isTuple() && b->isTuple() && a->elements().size() == b->elements().size()) {
    std::vector<const Type *> elements;
    for (size_t i = 0; i < a->elements().size(); ++i) {
      const Type *element = unifyTypes(a->elements()[i], b->elements()[i]);
      if (!element)
        return nullptr;
      elements.push_back(element);
    }
    if (a->isNamedTuple())
      return types::namedTuple(a->text(), a->namedTupleClass(), a->fieldNames(), elements);
    return types::tuple(elements);
  }
  return nullptr;
}

const Type *binaryOperandType(BinaryOp op, const Type *left, const Type *right) {
  if (!left->isNumber() || !right->isNumber())
    return nullptr;
  switch (op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mult:
    return numericCommon(left, right);
  case BinaryOp::Pow:
    // float32 ** int stays float32, as in Numba.
    if (left->isFloat() && (right->isInteger() || right->isBoolean()))
      return left;
    return numericCommon(left, right);
  case BinaryOp::Div: {
    const Type *common = numericCommon(left, right);
    return common->isInteger() ? types::float64() : common;
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    const Type *common = numericCommon(left, right);
    return common->isComplex() ? nullptr : common;
  }
  case BinaryOp::BitAnd:
  case BinaryOp::BitOr:
  case BinaryOp::BitXor:
    if (left->isBoolean() && right->isBoolean())
      return types::boolean();
    if ((left->isInteger() || left->isBoolean()) && (right->isInteger() || right->isBoolean()))
      return integerResult(left, right);
    return nullptr;
  case BinaryOp::LShift:
  case BinaryOp::RShift:
    if ((left->isInteger() || left->isBoolean()) && (right->isInteger() || right->isBoolean()))
      return types::integer(64, left->isBoolean() || left->isSigned());
    return nullptr;
  case BinaryOp::MatMult:
    return nullptr;
  }
  return nullptr;
}

const Type *binaryResultType(BinaryOp op, const Type *left, const Type *right) {
  if (op == BinaryOp::Add && left->isTuple() && right->isTuple()) {
    // A LiteralList is a list: it adds to another (a list, as Python's is), never to a tuple.
    if (left->isLiteralList() != right->isLiteralList())
      return nullptr;
    std::vector<const Type *> elements = left->elements();
    elements.insert(elements.end(), right->elements().begin(), right->elements().end());
    return left->isLiteralList() ? types::literalList(elements) : types::tuple(elements);
  }
  return binaryOperandType(op, left, right);
}

namespace {
bool holdsValueWithoutIdentity(const Type *type) {
  // A list, dict or set passed twice is unboxed into two blocks, and strings are copied in:
  // their identity in compiled code would not be Python's.
  if (type->isArray() || type->kind() == TypeKind::Range || type->isList() || type->isDict() ||
      type->isSet() || type->isUnicode() || type->kind() == TypeKind::Slice)
    return true;
  return type->isTuple() &&
         std::any_of(type->elements().begin(), type->elements().end(), holdsValueWithoutIdentity);
}
} // namespace

bool identityIsDecidable(const Type *left, const Type *right) {
  return !(holdsValueWithoutIdentity(left) && holdsValueWithoutIdentity(right));
}

const Type *comparisonOperandType(CompareOp op, const Type *left, const Type *right) {
  if (op == CompareOp::Is || op == CompareOp::IsNot || op == CompareOp::In ||
      op == CompareOp::NotIn)
    return nullptr;
  if (left->isNumber() && right->isNumber()) {
    const Type *common = numericCommon(left, right);
    if (left->isBoolean() && right->isBoolean())
      common = types::boolean();
    // A bool against an integer compares in the integer's type: promoted as a signed one, a
    // uint64 above 2**63 would read negative (False < 2**64 - 1 came out False).
    else if (left->isBoolean() && right->isInteger())
      common = right;
    else if (right->isBoolean() && left->isInteger())
      common = left;
    // int64 against uint64 has no common integer type: Numba compares them as float64.
    const Type *unsignedSide = !left->isSigned() ? left : right;
    if (common->isInteger() && (left->isInteger() && right->isInteger()) &&
        left->isSigned() != right->isSigned() && unsignedSide->bits() == 64)
      common = types::float64();
    if (common->isComplex() && op != CompareOp::Eq && op != CompareOp::NotEq)
      return nullptr;
    return common;
  }
  if (left->isNone() && right->isNone())
    return types::none();
  if (left->isString() && right->isString()) // compared as strings (code point order)
    return types::unicode();
  if (left->isTuple() && right->isTuple()) {
    if (left->isLiteralList() != right->isLiteralList())
      return nullptr; // a list and a tuple: Python's == is False, < a TypeError; refused here
    // Lexicographic: every pair of elements both have must compare.
    size_t common = std::min(left->elements().size(), right->elements().size());
    for (size_t i = 0; i < common; ++i)
      if (!comparisonOperandType(op, left->elements()[i], right->elements()[i]) ||
          !comparisonOperandType(CompareOp::Eq, left->elements()[i], right->elements()[i]))
        return nullptr;
    return left;
  }
  return nullptr;
}

const Type *unaryResultType(UnaryOp op, const Type *operand) {
  if (op == UnaryOp::Not)
    return types::boolean();
  if (!operand->isNumber())
    return nullptr;
  if (op == UnaryOp::Invert) {
    if (operand->isBoolean())
      return types::boolean();
    if (operand->isInteger())
      return types::integer(std::max(64, operand->bits()), operand->isSigned());
    return nullptr;
  }
  if (operand->isBoolean())
    return types::int64();
  if (operand->isInteger())
    return types::integer(std::max(64, operand->bits()), operand->isSigned());
  return operand;
}

namespace {

/// The scalars of Numba's casting graph: boolean, int8..int64, uint8..uint64, float16..float64,
/// complex64, complex128.
constexpr int scalarCount = 14;

int scalarIndex(const Type *type) {
  if (type->isBoolean())
    return 0;
  if (!type->isNumber())
    return -1;
  int width = type->bits() == 8 ? 0 : type->bits() == 16 ? 1 : type->bits() == 32 ? 2 : 3;
  if (type->isInteger())
    return (type->isSigned() ? 1 : 5) + width;
  if (type->isFloat())
    return 8 + width;
  if (type->isComplex())
    return type->bits() == 64 ? 12 : 13;
  return -1;
}

using ScalarTable = std::array<std::array<Conversion, scalarCount>, scalarCount>;

/// Numba's rules (rules.py), closed over paths as its castgraph propagates them.
ScalarTable scalarConversions() {
  enum { Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64, C64, C128 };
  ScalarTable table;
  for (int from = 0; from < scalarCount; ++from)
    for (int to = 0; to < scalarCount; ++to)
      table[from][to] = from == to ? Conversion::Exact : Conversion::Impossible;
  auto rule = [&](int from, int to, Conversion forward, Conversion backward) {
    table[from][to] = std::min(table[from][to], forward);
    table[to][from] = std::min(table[to][from], backward);
  };
  const Conversion promote = Conversion::Promote, safe = Conversion::Safe,
                   unsafe = Conversion::Unsafe, none = Conversion::Impossible;
  rule(Bool, I8, safe, unsafe);
  rule(Bool, U8, safe, unsafe);
  for (auto [narrow, wide] : {std::pair{I8, I16},
                              {U8, U16},
                              {I16, I32},
                              {U16, U32},
                              {I32, I64},
                              {U32, U64},
                              {F16, F32},
                              {F32, F64},
                              {C64, C128}})
    rule(narrow, wide, promote, unsafe);
  for (auto [from, to] : {std::pair{U8, I16},
                          {U16, I32},
                          {U32, I64},
                          {I8, F16},
                          {I16, F32},
                          {I32, F64},
                          {I64, F64},
                          {U64, F64}})
    rule(from, to, safe, unsafe);
  rule(I16, F16, unsafe, unsafe);
  rule(I32, F32, unsafe, unsafe);
  rule(F32, C64, safe, none);
  rule(F64, C128, safe, none);
  for (int via = 0; via < scalarCount; ++via) // best paths, each as bad as its worst step
    for (int from = 0; from < scalarCount; ++from)
      for (int to = 0; to < scalarCount; ++to)
        table[from][to] = std::min(table[from][to], std::max(table[from][via], table[via][to]));
  return table;
}

} // namespace

Conversion conversionKind(const Type *from, const Type *to) {
  if (from == to)
    return Conversion::Exact;
  if (to->isOptional()) { // None, a value, or another optional (Optional.h's conversions)
    if (from->isNone())
      return Conversion::Promote;
    if (from->isOptional())
      return conversionKind(from->optionalValue(), to->optionalValue());
    Conversion value = conversionKind(from, to->optionalValue());
    return value == Conversion::Impossible ? value : std::max(value, Conversion::Safe);
  }
  if (from->isArray() && to->isArray()) {
    // Any layout fits 'A'; a writable array may be passed where read-only is declared.
    bool fits = from->dtype() == to->dtype() && from->ndim() == to->ndim() &&
                (to->layout() == 'A' || to->layout() == from->layout()) &&
                (to->isReadonly() || !from->isReadonly());
    return fits ? Conversion::Safe : Conversion::Impossible;
  }
  // Text for a fixed-width string (types/CharSequences.h): truncated or NUL-padded, as NumPy
  // assigns it (Numba's unsafe cast).
  if (types::isCharSequence(to) && (from->isString() || types::isCharSequence(from))) {
    bool otherKind = types::isCharSequence(from) &&
                     types::isUnicodeCharSequence(from) != types::isUnicodeCharSequence(to);
    return otherKind ? Conversion::Impossible : Conversion::Unsafe;
  }
  int fromIndex = scalarIndex(from), toIndex = scalarIndex(to);
  if (fromIndex >= 0 && toIndex >= 0) {
    static const ScalarTable table = scalarConversions();
    return table[fromIndex][toIndex];
  }
  if (to->kind() == TypeKind::FirstClassFunction) {
    // A C function of the signature converts; a jitted function is compiled for it when the
    // value is unboxed (Numba's Dispatcher.can_convert_to, which compiles at once).
    if (types::firstClassFunctionOf(from) == to || from->kind() == TypeKind::JitFunction)
      return Conversion::Safe;
    return Conversion::Impossible;
  }
  if (from->isRecord() && to->isRecord()) {
    // Width subtyping (Numba's Record.can_convert_to): a record whose leading fields are all of
    // `to`'s, with the same names, types and offsets, is read where `to` is declared.
    if (from->fieldNames().size() <= to->fieldNames().size() ||
        from->isAligned() != to->isAligned())
      return Conversion::Impossible;
    for (size_t i = 0; i < to->fieldNames().size(); ++i)
      if (from->fieldNames()[i] != to->fieldNames()[i] ||
          from->fieldTypes()[i] != to->fieldTypes()[i] ||
          from->fieldOffset(i) != to->fieldOffset(i))
        return Conversion::Impossible;
    return Conversion::Safe;
  }
  if (from->isTuple() && to->isTuple() && from->elements().size() == to->elements().size()) {
    Conversion worst = Conversion::Exact;
    for (size_t i = 0; i < from->elements().size(); ++i)
      worst = std::max(worst, conversionKind(from->elements()[i], to->elements()[i]));
    return worst;
  }
  return Conversion::Impossible;
}

bool canConvertImplicitly(const Type *from, const Type *to) {
  return conversionKind(from, to) != Conversion::Impossible;
}

bool isUnsigned64(const Type *type) {
  return type->isInteger() && !type->isSigned() && type->bits() == 64;
}

const Type *integralType(const Type *type) { return isUnsigned64(type) ? type : types::int64(); }

const Type *realMathType(const Type *type) {
  return type->isFloat() && type->bits() == 32 ? types::float32() : types::float64();
}

} // namespace taipan
