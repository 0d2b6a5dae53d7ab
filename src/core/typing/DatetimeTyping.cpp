// Typing of datetime64/timedelta64 operators and comparisons, as NumPy and Numba define them.
#include "typing/DatetimeTyping.h"

#include "support/CompileError.h"
#include "types/DatetimeUnits.h"

namespace taipan {

namespace {

[[noreturn]] void refuse(const std::string &what, const Type *left, const Type *right,
                         SourceLocation location) {
  throwTypingError(what + ": " + left->name() + " and " + right->name(), location);
}

/// Whether the operand of two whose unit is years or months (the other's being week- or
/// day-based) is a datetime: NumPy converts such a date to days through its calendar
/// (lower/LowerDatetime: convertDatetimeUnit), while a timedelta of years or months has no
/// length in days.
bool convertsThroughCalendar(const Type *left, const Type *right) {
  int leftUnit = left->datetimeUnit();
  bool leftCalendar = leftUnit == UnitYears || leftUnit == UnitMonths;
  return leftCalendar ? left->isDatetime() : right->isDatetime();
}

/// The common unit of two datetime-like operands, or a TypingError naming the operation.
int commonUnitOrRefuse(const char *symbol, const Type *left, const Type *right,
                       SourceLocation location) {
  std::optional<int> unit = commonDatetimeUnit(left->datetimeUnit(), right->datetimeUnit());
  if (!unit && convertsThroughCalendar(left, right))
    unit = finerDatetimeUnit(left->datetimeUnit(), right->datetimeUnit());
  if (!unit)
    refuse(std::string("cannot combine the units of ") + symbol +
               " operands (NumPy has no exact conversion between years or months and "
               "week- or day-based units)",
           left, right, location);
  return *unit;
}

bool isIntegerOperand(const Type *type) { return type->isInteger(); }

} // namespace

int datetimeOperationUnit(const Type *left, const Type *right) {
  int leftUnit = left->isDatetimeLike() ? left->datetimeUnit() : UnitGeneric;
  int rightUnit = right->isDatetimeLike() ? right->datetimeUnit() : UnitGeneric;
  return commonDatetimeUnit(leftUnit, rightUnit).value_or(finerDatetimeUnit(leftUnit, rightUnit));
}

const Type *datetimeBinaryResultType(BinaryOp op, const Type *left, const Type *right,
                                     SourceLocation location) {
  if (!left->isDatetimeLike() && !right->isDatetimeLike())
    return nullptr;
  if (left->isArray() || right->isArray())
    return nullptr;
  const char *symbol = binaryOpSymbol(op);
  auto unsupported = [&]() -> const Type * {
    refuse(std::string("unsupported operand types for ") + symbol, left, right, location);
  };
  bool bothTimedelta = left->isTimedelta() && right->isTimedelta();
  switch (op) {
  case BinaryOp::Add:
    if (bothTimedelta)
      return types::timedelta(commonUnitOrRefuse(symbol, left, right, location));
    if ((left->isDatetime() && right->isTimedelta()) ||
        (left->isTimedelta() && right->isDatetime()))
      return types::datetime(commonUnitOrRefuse(symbol, left, right, location));
    return unsupported();
  case BinaryOp::Sub:
    if (bothTimedelta || (left->isDatetime() && right->isDatetime()))
      return types::timedelta(commonUnitOrRefuse(symbol, left, right, location));
    if (left->isDatetime() && right->isTimedelta())
      return types::datetime(commonUnitOrRefuse(symbol, left, right, location));
    return unsupported();
  case BinaryOp::Mult:
    if (left->isTimedelta() && (right->isInteger() || right->isFloat()))
      return left;
    if (right->isTimedelta() && (left->isInteger() || left->isFloat()))
      return right;
    return unsupported();
  case BinaryOp::Div:
  case BinaryOp::FloorDiv:
    if (bothTimedelta) {
      commonUnitOrRefuse(symbol, left, right, location);
      return op == BinaryOp::Div ? types::float64() : types::int64();
    }
    if (left->isTimedelta() && (isIntegerOperand(right) || right->isFloat()))
      return left;
    return unsupported();
  case BinaryOp::Mod:
    if (bothTimedelta)
      return types::timedelta(commonUnitOrRefuse(symbol, left, right, location));
    return unsupported();
  default:
    return unsupported();
  }
}

const Type *datetimeUnaryResultType(UnaryOp op, const Type *operand, SourceLocation location) {
  if (!operand->isDatetimeLike())
    return nullptr;
  if (op == UnaryOp::Not)
    return nullptr; // truth of the count, as any value's
  if (operand->isTimedelta() && (op == UnaryOp::Neg || op == UnaryOp::Pos))
    return operand;
  throwTypingError("bad operand type for unary operator: " + operand->name(), location);
}

bool checkDatetimeComparison(CompareOp op, const Type *left, const Type *right,
                             SourceLocation location) {
  if (!left->isDatetimeLike() && !right->isDatetimeLike())
    return false;
  if (op == CompareOp::Is || op == CompareOp::IsNot)
    return false;
  if (left->kind() != right->kind())
    refuse(std::string("cannot compare with ") + compareOpSymbol(op), left, right, location);
  commonUnitOrRefuse(compareOpSymbol(op), left, right, location);
  return true;
}

} // namespace taipan
