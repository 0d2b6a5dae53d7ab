// Lowering of datetime64/timedelta64 operators, as NumPy computes them (NaT propagates,
// division by zero gives NaT, float factors truncate toward zero).
#include "lower/LowerDatetime.h"

#include "lower/LowerTypes.h"
#include "types/DatetimeUnits.h"
#include "typing/DatetimeTyping.h"

namespace taipan {

namespace {

llvm::Value *notATime(llvm::IRBuilder<> &builder) { return builder.getInt64(NotATime); }

/// `value` scaled to `unit`, with NaT kept.
llvm::Value *toUnit(FunctionLowering &lowering, llvm::Value *value, const Type *type, int unit) {
  if (!type->isDatetimeLike())
    return value;
  const Type *target = type->isDatetime() ? types::datetime(unit) : types::timedelta(unit);
  return convertDatetimeUnit(lowering, value, type, target);
}

/// A double as a timedelta count: NaN, infinities and values out of int64's range are NaT (what
/// NumPy's cast gives on x86), others truncate toward zero.
llvm::Value *countOfDouble(FunctionLowering &lowering, llvm::Value *real) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *inRange = builder.CreateAnd(
      builder.CreateFCmpOLT(real, llvm::ConstantFP::get(real->getType(), 9223372036854775808.0)),
      builder.CreateFCmpOGE(real, llvm::ConstantFP::get(real->getType(), -9223372036854775808.0)));
  llvm::Value *safe =
      builder.CreateSelect(inRange, real, llvm::ConstantFP::get(real->getType(), 0.0));
  return builder.CreateSelect(inRange, builder.CreateFPToSI(safe, builder.getInt64Ty()),
                              notATime(builder));
}

llvm::Value *asDouble(FunctionLowering &lowering, llvm::Value *value, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (type->isFloat())
    return builder.CreateFPCast(value, builder.getDoubleTy());
  if (type->isInteger() && !type->isSigned())
    return builder.CreateUIToFP(value, builder.getDoubleTy());
  return builder.CreateSIToFP(value, builder.getDoubleTy());
}

llvm::Value *asInt64(FunctionLowering &lowering, llvm::Value *value, const Type *type) {
  return lowering.irBuilder().CreateIntCast(value, lowering.irBuilder().getInt64Ty(),
                                            type->isSigned());
}

/// A timedelta count times (or over) a number, NaT for a NaT count.
llvm::Value *scaleByNumber(FunctionLowering &lowering, BinaryOp op, llvm::Value *count,
                           llvm::Value *number, const Type *numberType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *isNaT = isNotATime(lowering, count);
  llvm::Value *result;
  if (numberType->isFloat()) {
    llvm::Value *real = asDouble(lowering, count, types::int64());
    llvm::Value *factor = asDouble(lowering, number, numberType);
    result = countOfDouble(lowering, op == BinaryOp::Mult ? builder.CreateFMul(real, factor)
                                                          : builder.CreateFDiv(real, factor));
  } else {
    llvm::Value *factor = asInt64(lowering, number, numberType);
    if (op == BinaryOp::Mult) {
      result = builder.CreateMul(count, factor);
    } else {
      // NumPy truncates (C division); a zero divisor gives NaT. INT64_MIN / -1 is NaT's count.
      llvm::Value *zero = builder.CreateICmpEQ(factor, builder.getInt64(0));
      llvm::Value *safe = builder.CreateSelect(zero, builder.getInt64(1), factor);
      llvm::Value *quotient =
          builder.CreateSDiv(builder.CreateSelect(isNaT, builder.getInt64(0), count), safe);
      result = builder.CreateSelect(zero, notATime(builder), quotient);
    }
  }
  return builder.CreateSelect(isNaT, notATime(builder), result);
}

bool isCalendarUnit(int unit) { return unit == UnitYears || unit == UnitMonths; }

/// Floor division of an int64 value by a positive constant.
llvm::Value *floorDivide(llvm::IRBuilder<> &builder, llvm::Value *value, int64_t divisor) {
  llvm::Value *quotient = builder.CreateSDiv(value, builder.getInt64(divisor));
  llvm::Value *inexact = builder.CreateICmpNE(builder.CreateSRem(value, builder.getInt64(divisor)),
                                              builder.getInt64(0));
  llvm::Value *negative = builder.CreateICmpSLT(value, builder.getInt64(0));
  return builder.CreateSub(
      quotient, builder.CreateZExt(builder.CreateAnd(inexact, negative), builder.getInt64Ty()));
}

/// A date counted in years or months since 1970 (`calendarUnit`) in day-based `unit`, as
/// NumPy's calendar converts it: the first day of that year or month (days_from_civil of the
/// proleptic Gregorian calendar), then weeks by floor division or finer units by their factor;
/// NaT stays NaT.
llvm::Value *calendarDateInUnit(FunctionLowering &lowering, llvm::Value *count, int calendarUnit,
                                int unit) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  auto constant = [&](int64_t v) { return builder.getInt64(v); };
  llvm::Value *year, *month; // month 1..12
  if (calendarUnit == UnitYears) {
    year = builder.CreateAdd(count, constant(1970));
    month = constant(1);
  } else {
    llvm::Value *years = floorDivide(builder, count, 12);
    year = builder.CreateAdd(years, constant(1970));
    month = builder.CreateAdd(builder.CreateSub(count, builder.CreateMul(years, constant(12))),
                              constant(1));
  }
  // days_from_civil (H. Hinnant) for day 1: years start in March, so January and February
  // belong to the year before.
  llvm::Value *early = builder.CreateICmpSLE(month, constant(2));
  llvm::Value *shiftedYear =
      builder.CreateSub(year, builder.CreateZExt(early, builder.getInt64Ty()));
  llvm::Value *era = floorDivide(builder, shiftedYear, 400);
  llvm::Value *yearOfEra = builder.CreateSub(shiftedYear, builder.CreateMul(era, constant(400)));
  llvm::Value *marchMonth = builder.CreateSelect(early, builder.CreateAdd(month, constant(9)),
                                                 builder.CreateSub(month, constant(3)));
  llvm::Value *dayOfYear = builder.CreateSDiv(
      builder.CreateAdd(builder.CreateMul(marchMonth, constant(153)), constant(2)), constant(5));
  llvm::Value *dayOfEra = builder.CreateAdd(
      builder.CreateSub(builder.CreateAdd(builder.CreateMul(yearOfEra, constant(365)),
                                          builder.CreateSDiv(yearOfEra, constant(4))),
                        builder.CreateSDiv(yearOfEra, constant(100))),
      dayOfYear);
  llvm::Value *days = builder.CreateSub(
      builder.CreateAdd(builder.CreateMul(era, constant(146097)), dayOfEra), constant(719468));
  llvm::Value *converted;
  if (unit == UnitWeeks)
    converted = floorDivide(builder, days, 7);
  else
    converted = builder.CreateMul(days, constant(*datetimeConversionFactor(UnitDays, unit)));
  return builder.CreateSelect(isNotATime(lowering, count), count, converted);
}

/// The length of a unit in attoseconds (NumPy's average year of 365.2425 days, a month a
/// twelfth of it): exact integers, the year's the largest at about 3.2e25.
__int128 unitLength(int unit) {
  const __int128 second = 1000000000000000000;
  const __int128 day = 86400 * second;
  switch (unit) {
  case UnitYears:
    return 146097 * day / 400;
  case UnitMonths:
    return 146097 * day / 4800;
  case UnitWeeks:
    return 7 * day;
  case UnitDays:
    return day;
  case 5:
    return 3600 * second;
  case 6:
    return 60 * second;
  default: {
    __int128 length = second;
    for (int finer = 7; finer < unit; ++finer)
      length /= 1000;
    return length;
  }
  }
}

/// count * numerator / denominator rounded toward minus infinity in int64 arithmetic, as NumPy's
/// cast between units computes it; NaT stays NaT.
llvm::Value *scaleDown(FunctionLowering &lowering, llvm::Value *count, int64_t numerator,
                       int64_t denominator) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *product = builder.CreateMul(count, builder.getInt64(numerator));
  llvm::Value *negative = builder.CreateICmpSLT(count, builder.getInt64(0));
  llvm::Value *dividend = builder.CreateSelect(
      negative, builder.CreateSub(product, builder.getInt64(denominator - 1)), product);
  llvm::Value *scaled = builder.CreateSDiv(dividend, builder.getInt64(denominator));
  return builder.CreateSelect(isNotATime(lowering, count), count, scaled);
}

/// A count of `from` units as a count of `to` units by NumPy's ratio of their lengths.
llvm::Value *scaleByLengths(FunctionLowering &lowering, llvm::Value *count, int from, int to) {
  __int128 numerator = unitLength(from), denominator = unitLength(to);
  __int128 a = numerator, b = denominator;
  while (b != 0) {
    __int128 rest = a % b;
    a = b;
    b = rest;
  }
  return scaleDown(lowering, count, static_cast<int64_t>(numerator / a),
                   static_cast<int64_t>(denominator / a));
}

/// A date of a week- or day-based unit as years or months since 1970 (`calendarUnit`): the day
/// by floor scaling, then its civil year and month (civil_from_days, H. Hinnant, proleptic
/// Gregorian); NaT stays NaT.
llvm::Value *dateInCalendarUnit(FunctionLowering &lowering, llvm::Value *count, int unit,
                                int calendarUnit) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  auto constant = [&](int64_t v) { return builder.getInt64(v); };
  llvm::Value *days = scaleByLengths(lowering, count, unit, UnitDays);
  llvm::Value *shifted = builder.CreateAdd(days, constant(719468));
  llvm::Value *era = floorDivide(builder, shifted, 146097);
  llvm::Value *dayOfEra = builder.CreateSub(shifted, builder.CreateMul(era, constant(146097)));
  llvm::Value *yearOfEra = builder.CreateSDiv(
      builder.CreateSub(
          builder.CreateAdd(
              builder.CreateSub(dayOfEra, builder.CreateSDiv(dayOfEra, constant(1460))),
              builder.CreateSDiv(dayOfEra, constant(36524))),
          builder.CreateSDiv(dayOfEra, constant(146096))),
      constant(365));
  llvm::Value *dayOfYear = builder.CreateSub(
      dayOfEra, builder.CreateSub(builder.CreateAdd(builder.CreateMul(yearOfEra, constant(365)),
                                                    builder.CreateSDiv(yearOfEra, constant(4))),
                                  builder.CreateSDiv(yearOfEra, constant(100))));
  llvm::Value *marchMonth = builder.CreateSDiv(
      builder.CreateAdd(builder.CreateMul(dayOfYear, constant(5)), constant(2)), constant(153));
  llvm::Value *beforeJanuary = builder.CreateICmpSLT(marchMonth, constant(10));
  llvm::Value *month =
      builder.CreateSelect(beforeJanuary, builder.CreateAdd(marchMonth, constant(3)),
                           builder.CreateSub(marchMonth, constant(9)));
  llvm::Value *year =
      builder.CreateAdd(builder.CreateAdd(yearOfEra, builder.CreateMul(era, constant(400))),
                        builder.CreateZExt(builder.CreateNot(beforeJanuary), builder.getInt64Ty()));
  llvm::Value *years = builder.CreateSub(year, constant(1970));
  llvm::Value *converted = calendarUnit == UnitYears
                               ? years
                               : builder.CreateAdd(builder.CreateMul(years, constant(12)),
                                                   builder.CreateSub(month, constant(1)));
  return builder.CreateSelect(isNotATime(lowering, count), count, converted);
}

} // namespace

llvm::Value *isNotATime(FunctionLowering &lowering, llvm::Value *value) {
  return lowering.irBuilder().CreateICmpEQ(value, notATime(lowering.irBuilder()));
}

llvm::Value *convertDatetimeUnit(FunctionLowering &lowering, llvm::Value *value, const Type *from,
                                 const Type *to) {
  std::optional<int64_t> factor =
      datetimeConversionFactor(from->datetimeUnit(), to->datetimeUnit());
  if (!factor && from->isDatetime() && isCalendarUnit(from->datetimeUnit()) &&
      !isCalendarUnit(to->datetimeUnit()) && to->datetimeUnit() != UnitGeneric)
    return calendarDateInUnit(lowering, value, from->datetimeUnit(), to->datetimeUnit());
  int fromUnit = from->datetimeUnit(), toUnit = to->datetimeUnit();
  if (!factor && fromUnit != UnitGeneric && toUnit != UnitGeneric) {
    // A coarser unit, or a timedelta between calendar and day-based units: NumPy's cast.
    if (from->isDatetime() && isCalendarUnit(toUnit) && !isCalendarUnit(fromUnit))
      return dateInCalendarUnit(lowering, value, fromUnit, toUnit);
    return scaleByLengths(lowering, value, fromUnit, toUnit);
  }
  if (!factor || *factor == 1)
    return value;
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  return builder.CreateSelect(isNotATime(lowering, value), value,
                              builder.CreateMul(value, builder.getInt64(*factor)));
}

llvm::Value *lowerDatetimeBinary(FunctionLowering &lowering, BinaryOp op, llvm::Value *left,
                                 const Type *leftType, llvm::Value *right, const Type *rightType,
                                 const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (op == BinaryOp::Mult ||
      ((op == BinaryOp::Div || op == BinaryOp::FloorDiv) && !rightType->isDatetimeLike())) {
    bool countOnLeft = leftType->isTimedelta();
    return scaleByNumber(lowering, op, countOnLeft ? left : right, countOnLeft ? right : left,
                         countOnLeft ? rightType : leftType);
  }
  int unit = datetimeOperationUnit(leftType, rightType);
  llvm::Value *a = toUnit(lowering, left, leftType, unit);
  llvm::Value *b = toUnit(lowering, right, rightType, unit);
  llvm::Value *eitherNaT = builder.CreateOr(isNotATime(lowering, a), isNotATime(lowering, b));
  switch (op) {
  case BinaryOp::Add:
    return builder.CreateSelect(eitherNaT, notATime(builder), builder.CreateAdd(a, b));
  case BinaryOp::Sub:
    return builder.CreateSelect(eitherNaT, notATime(builder), builder.CreateSub(a, b));
  case BinaryOp::Div: { // timedelta / timedelta: a float, NaN for NaT
    llvm::Value *quotient = builder.CreateFDiv(asDouble(lowering, a, types::int64()),
                                               asDouble(lowering, b, types::int64()));
    return builder.CreateSelect(eitherNaT, llvm::ConstantFP::getNaN(builder.getDoubleTy()),
                                quotient);
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    // Python's floor division and modulo; NumPy gives 0 (//) or NaT (%) for NaT or a zero
    // divisor.
    llvm::Value *invalid =
        builder.CreateOr(eitherNaT, builder.CreateICmpEQ(b, builder.getInt64(0)));
    llvm::Value *safeA = builder.CreateSelect(invalid, builder.getInt64(0), a);
    llvm::Value *safeB = builder.CreateSelect(invalid, builder.getInt64(1), b);
    llvm::Value *quotient = builder.CreateSDiv(safeA, safeB);
    llvm::Value *remainder = builder.CreateSRem(safeA, safeB);
    // The quotient rounds toward minus infinity when the remainder's sign differs from b's.
    llvm::Value *adjust = builder.CreateAnd(
        builder.CreateICmpNE(remainder, builder.getInt64(0)),
        builder.CreateICmpSLT(builder.CreateXor(remainder, safeB), builder.getInt64(0)));
    if (op == BinaryOp::FloorDiv)
      return builder.CreateSelect(adjust, builder.CreateSub(quotient, builder.getInt64(1)),
                                  quotient);
    llvm::Value *modulo =
        builder.CreateSelect(adjust, builder.CreateAdd(remainder, safeB), remainder);
    return builder.CreateSelect(invalid, notATime(builder), modulo);
  }
  default:
    (void)resultType;
    return notATime(builder); // typing refused the other operators
  }
}

llvm::Value *lowerDatetimeComparison(FunctionLowering &lowering, CompareOp op, llvm::Value *left,
                                     const Type *leftType, llvm::Value *right,
                                     const Type *rightType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  int unit = datetimeOperationUnit(leftType, rightType);
  llvm::Value *a = toUnit(lowering, left, leftType, unit);
  llvm::Value *b = toUnit(lowering, right, rightType, unit);
  llvm::Value *eitherNaT = builder.CreateOr(isNotATime(lowering, a), isNotATime(lowering, b));
  llvm::Value *ordered;
  switch (op) {
  case CompareOp::Eq:
    ordered = builder.CreateICmpEQ(a, b);
    break;
  case CompareOp::NotEq:
    return builder.CreateOr(eitherNaT, builder.CreateICmpNE(a, b));
  case CompareOp::Lt:
    ordered = builder.CreateICmpSLT(a, b);
    break;
  case CompareOp::LtE:
    ordered = builder.CreateICmpSLE(a, b);
    break;
  case CompareOp::Gt:
    ordered = builder.CreateICmpSGT(a, b);
    break;
  default:
    ordered = builder.CreateICmpSGE(a, b);
    break;
  }
  return builder.CreateAnd(builder.CreateNot(eitherNaT), ordered);
}

} // namespace taipan
