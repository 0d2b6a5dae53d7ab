// UfuncsDatetime: NumPy's datetime64/timedelta64 loops of its ufuncs (arithmetic, comparisons,
// extrema, negative/absolute/sign, the float predicates, divmod), added to any ufunc's kernel.
#include "library/UfuncCalls.h"

#include "library/InstalledNumpy.h"

#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "support/CompileError.h"
#include "types/DatetimeUnits.h"
#include "types/NumericPromotion.h"
#include "typing/DatetimeTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>

#include <algorithm>
#include <map>

namespace taipan {
namespace {

bool isCalendar(int unit) { return unit == UnitYears || unit == UnitMonths; }

/// An integer or a boolean: what NumPy reads as a count of the other operand's unit.
bool isCount(const Type *type) { return type->isInteger() || type->isBoolean(); }

/// NumPy's promote_types of two element types where one is datetime-like, or none: datetimes
/// take the finer unit (dates convert through the calendar); timedeltas the finer unit when
/// the other converts to it exactly (not years or months against week- or day-based units); a
/// timedelta with an integer (not uint64, which int64 cannot hold) or a boolean: the timedelta.
const Type *promoteWithDatetimes(const Type *a, const Type *b) {
  if (a->isDatetime() && b->isDatetime())
    return types::datetime(finerDatetimeUnit(a->datetimeUnit(), b->datetimeUnit()));
  if (a->isTimedelta() && b->isTimedelta()) {
    std::optional<int> unit = commonDatetimeUnit(a->datetimeUnit(), b->datetimeUnit());
    return unit ? types::timedelta(*unit) : nullptr;
  }
  const Type *timedelta = a->isTimedelta() ? a : b->isTimedelta() ? b : nullptr;
  const Type *other = timedelta == a ? b : a;
  if (timedelta && isCount(other) && !isUnsigned64(other))
    return timedelta;
  return nullptr;
}

bool anyDatetimeLike(const std::vector<const Type *> &types) {
  return std::any_of(types.begin(), types.end(), [](const Type *t) { return t->isDatetimeLike(); });
}

/// A loop of NumPy's datetime arithmetic: the operators' rules (DatetimeTyping.h), with an
/// integer or boolean beside a datetime-like operand of + and - read as a timedelta of its unit
/// and a boolean factor of * as an integer, as NumPy's type resolvers do.
std::optional<UfuncLoop> arithmeticLoop(BinaryOp op, const std::vector<const Type *> &elements) {
  const Type *a = elements[0], *b = elements[1];
  if (op == BinaryOp::Add || op == BinaryOp::Sub) {
    if (a->isDatetimeLike() && isCount(b))
      b = types::timedelta(a->datetimeUnit());
    else if (b->isDatetimeLike() && isCount(a))
      a = types::timedelta(b->datetimeUnit());
  }
  if (op == BinaryOp::Mult) {
    if (a->isBoolean())
      a = types::int64();
    if (b->isBoolean())
      b = types::int64();
  }
  const Type *result = nullptr;
  try {
    result = datetimeBinaryResultType(op, a, b, {});
  } catch (const CompileError &) {
    return std::nullopt;
  }
  if (!result)
    return std::nullopt;
  return UfuncLoop{{a, b}, result};
}

/// What a ufunc adds for datetime-like inputs: its loop selection and its element lowering.
struct DatetimeLoops {
  LoopSelection select;
  LibraryLowerRule lower;
};

DatetimeLoops arithmetic(BinaryOp op) {
  return {[op](const std::vector<const Type *> &elements) { return arithmeticLoop(op, elements); },
          [op](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
            return lowering.operators().lowerBinary(op, values[0], call.loop.inputs[0], values[1],
                                                    call.loop.inputs[1], call.loop.output);
          }};
}

/// Both operands in their promoted type (promoteWithDatetimes), giving `output` (nullptr: that
/// type).
LoopSelection promotedPair(const Type *output) {
  return [output](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
    const Type *common = promoteWithDatetimes(elements[0], elements[1]);
    if (!common)
      return std::nullopt;
    return UfuncLoop{{common, common}, output ? output : common};
  };
}

DatetimeLoops comparison(CompareOp op) {
  return {promotedPair(types::boolean()), [op](LoweringApi &lowering, const LibraryCall &call,
                                               const std::vector<llvm::Value *> &values) {
            const Type *type = call.loop.inputs[0];
            return lowering.operators().lowerComparison(op, values[0], type, values[1], type);
          }};
}

/// maximum and minimum propagate NaT; fmax and fmin take the other operand (NaT when both are).
DatetimeLoops extremum(bool isMax, bool ignoresNaT) {
  return {promotedPair(nullptr), [isMax, ignoresNaT](LoweringApi &lowering, const LibraryCall &,
                                                     const std::vector<llvm::Value *> &values) {
            llvm::IRBuilder<> &builder = lowering.irBuilder();
            llvm::Value *a = values[0], *b = values[1];
            llvm::Value *nat = builder.getInt64(NotATime);
            llvm::Value *aIsNaT = builder.CreateICmpEQ(a, nat);
            llvm::Value *bIsNaT = builder.CreateICmpEQ(b, nat);
            llvm::Value *keepsA = isMax ? builder.CreateICmpSGE(a, b) : builder.CreateICmpSLE(a, b);
            llvm::Value *chosen = builder.CreateSelect(keepsA, a, b);
            if (ignoresNaT)
              return builder.CreateSelect(aIsNaT, b, builder.CreateSelect(bIsNaT, a, chosen));
            return builder.CreateSelect(builder.CreateOr(aIsNaT, bIsNaT), nat, chosen);
          }};
}

/// A function of one timedelta giving a timedelta of its unit (NumPy has no datetime loop).
DatetimeLoops timedeltaFunction(LibraryLowerRule lower) {
  return {[](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
            if (!elements[0]->isTimedelta())
              return std::nullopt;
            return UfuncLoop{{elements[0]}, elements[0]};
          },
          std::move(lower)};
}

/// isnan (NaT), isinf (never), isfinite (not NaT) of a datetime or a timedelta.
DatetimeLoops predicate(bool isNaN, bool isFinite) {
  return {[](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
            return UfuncLoop{{elements[0]}, types::boolean()};
          },
          [isNaN, isFinite](LoweringApi &lowering, const LibraryCall &,
                            const std::vector<llvm::Value *> &values) -> llvm::Value * {
            llvm::IRBuilder<> &builder = lowering.irBuilder();
            if (!isNaN && !isFinite)
              return builder.getFalse();
            llvm::Value *nat = builder.CreateICmpEQ(values[0], builder.getInt64(NotATime));
            return isNaN ? nat : builder.CreateNot(nat);
          }};
}

/// divmod of two timedeltas: the floor quotient (int64) and the remainder (a timedelta).
DatetimeLoops timedeltaDivmod() {
  return {[](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
            std::optional<UfuncLoop> remainder = arithmeticLoop(BinaryOp::Mod, elements);
            if (!remainder)
              return std::nullopt;
            return UfuncLoop{remainder->inputs, types::int64(), remainder->output};
          },
          [](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) -> llvm::Value * {
            const std::vector<const Type *> &inputs = call.loop.inputs;
            OperatorLowering &operators = lowering.operators();
            llvm::Value *quotient = operators.lowerBinary(BinaryOp::FloorDiv, values[0], inputs[0],
                                                          values[1], inputs[1], call.loop.output);
            llvm::Value *remainder = operators.lowerBinary(
                BinaryOp::Mod, values[0], inputs[0], values[1], inputs[1], call.loop.secondOutput);
            llvm::IRBuilder<> &builder = lowering.irBuilder();
            llvm::StructType *pair = llvm::StructType::get(
                builder.getContext(), {quotient->getType(), remainder->getType()});
            llvm::Value *value = llvm::UndefValue::get(pair);
            value = builder.CreateInsertValue(value, quotient, {0});
            return builder.CreateInsertValue(value, remainder, {1});
          }};
}

/// The sign of a timedelta as the installed NumPy gives it (InstalledNumpy): before 2.5 a
/// timedelta holding the count's sign (NaT, the smallest int64, gives -1); from 2.5 a float64
/// (NaN for NaT).
DatetimeLoops timedeltaSign() {
  return {[](const std::vector<const Type *> &elements) -> std::optional<UfuncLoop> {
            if (!elements[0]->isTimedelta())
              return std::nullopt;
            const Type *output =
                installedNumpy().timedeltaSignIsFloat ? types::float64() : elements[0];
            return UfuncLoop{{elements[0]}, output};
          },
          [](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) -> llvm::Value * {
            llvm::IRBuilder<> &builder = lowering.irBuilder();
            llvm::Value *count = values[0], *zero = builder.getInt64(0);
            llvm::Value *sign = builder.CreateSub(
                builder.CreateZExt(builder.CreateICmpSGT(count, zero), builder.getInt64Ty()),
                builder.CreateZExt(builder.CreateICmpSLT(count, zero), builder.getInt64Ty()));
            if (!call.loop.output->isFloat())
              return sign;
            llvm::Type *doubleType = builder.getDoubleTy();
            return builder.CreateSelect(builder.CreateICmpEQ(count, builder.getInt64(NotATime)),
                                        llvm::ConstantFP::getNaN(doubleType),
                                        builder.CreateSIToFP(sign, doubleType));
          }};
}

/// NumPy's datetime loops by ufunc name.
const std::map<std::string, DatetimeLoops> &datetimeLoopTable() {
  static const std::map<std::string, DatetimeLoops> table = [] {
    std::map<std::string, DatetimeLoops> loops;
    loops["numpy.add"] = arithmetic(BinaryOp::Add);
    loops["numpy.subtract"] = arithmetic(BinaryOp::Sub);
    loops["numpy.multiply"] = arithmetic(BinaryOp::Mult);
    loops["numpy.divide"] = arithmetic(BinaryOp::Div);
    loops["numpy.true_divide"] = arithmetic(BinaryOp::Div);
    loops["numpy.floor_divide"] = arithmetic(BinaryOp::FloorDiv);
    loops["numpy.remainder"] = arithmetic(BinaryOp::Mod);
    loops["numpy.mod"] = arithmetic(BinaryOp::Mod);
    loops["numpy.divmod"] = timedeltaDivmod();
    loops["numpy.equal"] = comparison(CompareOp::Eq);
    loops["numpy.not_equal"] = comparison(CompareOp::NotEq);
    loops["numpy.less"] = comparison(CompareOp::Lt);
    loops["numpy.less_equal"] = comparison(CompareOp::LtE);
    loops["numpy.greater"] = comparison(CompareOp::Gt);
    loops["numpy.greater_equal"] = comparison(CompareOp::GtE);
    loops["numpy.maximum"] = extremum(true, false);
    loops["numpy.minimum"] = extremum(false, false);
    loops["numpy.fmax"] = extremum(true, true);
    loops["numpy.fmin"] = extremum(false, true);
    loops["numpy.negative"] =
        timedeltaFunction([](LoweringApi &lowering, const LibraryCall &call,
                             const std::vector<llvm::Value *> &values) { // -NaT wraps to NaT
          return lowering.operators().lowerNegation(values[0], call.loop.output);
        });
    loops["numpy.positive"] =
        timedeltaFunction([](LoweringApi &, const LibraryCall &,
                             const std::vector<llvm::Value *> &values) { return values[0]; });
    auto absolute = [](LoweringApi &lowering, const LibraryCall &,
                       const std::vector<llvm::Value *> &values) { // |NaT| wraps to NaT
      llvm::IRBuilder<> &builder = lowering.irBuilder();
      llvm::Value *x = values[0];
      return builder.CreateSelect(builder.CreateICmpSLT(x, builder.getInt64(0)),
                                  builder.CreateNeg(x), x);
    };
    loops["numpy.absolute"] = timedeltaFunction(absolute);
    loops["numpy.abs"] = timedeltaFunction(absolute);
    loops["numpy.sign"] = timedeltaSign();
    loops["numpy.isnan"] = predicate(true, false);
    loops["numpy.isinf"] = predicate(false, false);
    loops["numpy.isfinite"] = predicate(false, true);
    return loops;
  }();
  return table;
}

} // namespace

void addDatetimeLoops(const std::string &name, UfuncKernel &kernel) {
  const std::map<std::string, DatetimeLoops> &table = datetimeLoopTable();
  auto found = table.find(name);
  if (found == table.end())
    return;
  kernel.takesDatetimes = true;
  LoopSelection numericSelect = std::move(kernel.selectLoop);
  LibraryLowerRule numericLower = std::move(kernel.lowerElement);
  LoopSelection datetimeSelect = found->second.select;
  LibraryLowerRule datetimeLower = found->second.lower;
  kernel.selectLoop = [numericSelect, datetimeSelect](const std::vector<const Type *> &elements) {
    return anyDatetimeLike(elements) ? datetimeSelect(elements) : numericSelect(elements);
  };
  kernel.lowerElement = [numericLower, datetimeLower](LoweringApi &lowering,
                                                      const LibraryCall &call,
                                                      const std::vector<llvm::Value *> &values) {
    return anyDatetimeLike(call.loop.inputs) ? datetimeLower(lowering, call, values)
                                             : numericLower(lowering, call, values);
  };
}

bool castsSameKindWithDatetimes(const Type *from, const Type *to) {
  if (!from->isDatetimeLike() && !to->isDatetimeLike())
    return castsSameKind(from, to);
  if (to->isTimedelta() && isCount(from)) // NumPy casts integers to timedeltas "same_kind"
    return true;
  if (!from->isDatetimeLike() || !to->isDatetimeLike() || from->kind() != to->kind())
    return false;
  int fromUnit = from->datetimeUnit(), toUnit = to->datetimeUnit();
  if (fromUnit == UnitGeneric)
    return true;
  if (toUnit == UnitGeneric)
    return false;
  // Timedeltas of years or months have no length in days (dates do, through the calendar).
  return from->isDatetime() || isCalendar(fromUnit) == isCalendar(toUnit);
}

} // namespace taipan
