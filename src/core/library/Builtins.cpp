// Python's builtins on numbers, one library entry per function: abs, min, max, round, divmod,
// pow, the conversions (int, float, bool, complex, NumPy's scalar types) and conjugate().
#include "library/Families.h"
#include "library/NumpySupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/GeneratorLowering.h"
#include "lower/LoopLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/OperatorLowering.h"
#include "lower/StringLowering.h"
#include "runtime/PythonDialect.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

namespace taipan {
namespace {

/// The forms of abs() its type rule chooses between (LibraryCall::form).
enum AbsForm : unsigned { AbsOfSigned, AbsOfUnsigned, AbsOfFloat, AbsOfComplex };
/// The forms of min() and max(): of their arguments, of the elements of one tuple, or of the
/// items of one generator.
enum ExtremeForm : unsigned {
  ExtremeOfArguments,
  ExtremeOfTuple,
  ExtremeOfGenerator,
  ExtremeOfRange
};

/// One positional-only parameter, `optional` or not.
std::vector<LibraryParameter> positionalOnly(size_t count, size_t optional = 0) {
  std::vector<LibraryParameter> parameters;
  for (size_t i = 0; i < count; ++i)
    parameters.push_back({"", i >= count - optional});
  return parameters;
}

bool allNumbers(const LibraryCall &call) {
  for (const Type *argument : call.argumentTypes)
    if (!argument->isNumber())
      return false;
  return true;
}

const Type *typeAbs(LibraryCall &call) {
  const Type *argument = call.argumentTypes[0];
  if (argument->isArray()) { // elementwise: the call becomes one of the numpy.abs ufunc
    call.function = Library::get().find("numpy.abs");
    return call.function->type(call);
  }
  if (argument->isTimedelta()) { // abs(NaT) is NaT: -INT64_MIN wraps to itself
    call.form = AbsOfSigned;
    return argument;
  }
  if (!argument->isNumber())
    throwNoOverload(call);
  if (argument->isComplex()) {
    call.form = AbsOfComplex;
    return types::floating(argument->bits() / 2);
  }
  if (argument->isFloat()) {
    call.form = AbsOfFloat;
    return argument;
  }
  call.form = argument->isBoolean() || argument->isSigned() ? AbsOfSigned : AbsOfUnsigned;
  return argument->isBoolean() ? types::int64() : argument;
}

llvm::Value *lowerAbs(LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *argument = call.argumentTypes[0];
  switch (call.form) {
  case AbsOfComplex: {
    llvm::Value *imag;
    llvm::Value *real = lowering.operators().complexParts(values[0], imag);
    return lowering.callLibm("hypot", {real, imag}, call.resultType);
  }
  case AbsOfFloat:
    return lowering.callIntrinsic(llvm::Intrinsic::fabs, {values[0]});
  case AbsOfUnsigned:
    return values[0];
  case AbsOfSigned: {
    llvm::Value *value = lowering.castValue(values[0], argument, call.resultType);
    return builder.CreateSelect(
        builder.CreateICmpSLT(value, llvm::ConstantInt::get(value->getType(), 0)),
        builder.CreateNeg(value), value);
  }
  default: // abs of an array is an array expression (ArrayExpressions.cpp), never a call
    throw CompileError(CompileErrorKind::Internal, "abs() of an array lowered as a call",
                       call.location);
  }
}

/// The type min and max return for two reals. Integers meet as Numba unifies them, where each
/// value keeps its own: int64 and uint64 in float64, a bool and a uint64 in uint64 (arithmetic's
/// promotion would read a uint64 above 2**63 as a negative int64, so the larger of 0 and
/// 2**64 - 1 would come out as -1). Other pairs promote as arithmetic does.
const Type *extremeType(const Type *first, const Type *second) {
  if (first == second)
    return first;
  bool integers =
      (first->isInteger() || first->isBoolean()) && (second->isInteger() || second->isBoolean());
  if (integers && !(first->isBoolean() && second->isBoolean()))
    return unifyTypes(first, second);
  return binaryOperandType(BinaryOp::Add, first, second);
}

/// min and max: of several reals, or of the elements of one tuple of reals.
const Type *typeExtreme(LibraryCall &call) {
  const std::vector<const Type *> &arguments = call.argumentTypes;
  std::vector<const Type *> values = arguments;
  if (arguments.size() == 1 && arguments[0]->isTuple()) {
    call.form = ExtremeOfTuple;
    values = arguments[0]->elements();
  }
  if (arguments.size() == 1 && arguments[0]->kind() == TypeKind::Range) {
    call.form = ExtremeOfRange;
    return types::int64();
  }
  if (arguments.size() == 1 && arguments[0]->isGenerator()) {
    if (!arguments[0]->yieldType()->isReal())
      throwNoOverload(call);
    call.form = ExtremeOfGenerator;
    return arguments[0]->yieldType();
  }
  if (values.empty() || (arguments.size() == 1 && !arguments[0]->isTuple()))
    throwNoOverload(call);
  const Type *result = nullptr;
  for (const Type *value : values) {
    if (!value->isReal())
      throwNoOverload(call);
    result = result ? extremeType(result, value) : value;
  }
  return result;
}

llvm::Value *lowerExtreme(LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &arguments) {
  bool isMax = call.function->name == "max";
  if (call.form == ExtremeOfGenerator) { // the first item, then each strictly better one
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    const Type *generator = call.argumentTypes[0];
    const Type *result = call.resultType;
    llvm::BasicBlock *empty = lowering.newBlock("extreme.empty");
    llvm::BasicBlock *done = lowering.newBlock("extreme.done");
    llvm::BasicBlock *start = builder.GetInsertBlock();
    builder.SetInsertPoint(empty);
    lowering.exceptions().emitRaise(ValueErrorId,
                                    python::emptyExtremumMessage(call.function->name));
    builder.SetInsertPoint(start);
    llvm::AllocaInst *best =
        lowering.createEntryAlloca(valueType(lowering.llvmContext(), result), "extreme.best");
    builder.CreateStore(lowering.generators().nextGeneratorItem(arguments[0], generator, empty),
                        best);
    llvm::BasicBlock *header = lowering.newBlock("extreme.next");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    llvm::Value *candidate = lowering.generators().nextGeneratorItem(arguments[0], generator, done);
    llvm::Value *current = builder.CreateLoad(best->getAllocatedType(), best);
    llvm::Value *better = lowering.operators().lowerComparison(
        isMax ? CompareOp::Gt : CompareOp::Lt, candidate, result, current, result);
    builder.CreateStore(builder.CreateSelect(better, candidate, current), best);
    builder.CreateBr(header);
    builder.SetInsertPoint(done);
    return static_cast<llvm::Value *>(builder.CreateLoad(best->getAllocatedType(), best));
  }
  if (call.form == ExtremeOfRange) { // its first or last item: no loop
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::Value *start = builder.CreateExtractValue(arguments[0], 0);
    llvm::Value *stop = builder.CreateExtractValue(arguments[0], 1);
    llvm::Value *step = builder.CreateExtractValue(arguments[0], 2);
    llvm::Value *rising = builder.CreateICmpSGT(step, builder.getInt64(0));
    llvm::Value *empty = builder.CreateSelect(rising, builder.CreateICmpSGE(start, stop),
                                              builder.CreateICmpSLE(start, stop));
    lowering.exceptions().raiseIf(empty, ValueErrorId,
                                  python::emptyExtremumMessage(call.function->name));
    // The last item, start + (count - 1) * step: the product may wrap (count is a uint64) but
    // the sum, an item, is exact.
    llvm::Value *count = lowering.loops().rangeItemCount(arguments[0]);
    llvm::Value *last = builder.CreateAdd(
        start, builder.CreateMul(builder.CreateSub(count, builder.getInt64(1)), step));
    bool wantsStart = !isMax;
    return builder.CreateSelect(rising, wantsStart ? start : last, wantsStart ? last : start);
  }
  std::vector<llvm::Value *> values = arguments;
  std::vector<const Type *> valueTypes = call.argumentTypes;
  if (call.form == ExtremeOfTuple) {
    const Type *tupleType = call.argumentTypes[0];
    valueTypes = tupleType->elements();
    values.clear();
    for (size_t i = 0; i < valueTypes.size(); ++i)
      values.push_back(lowering.tupleElement(arguments[0], tupleType, static_cast<unsigned>(i)));
  }
  // Python keeps the first of equal values and only replaces it on a strict comparison, so
  // min(nan, 1.0) is nan while min(1.0, nan) is 1.0.
  // A GPU thread has min and max instructions (IEEE minNum/maxNum, as numba-cuda emits them):
  // the better candidate is taken from one, under the same strict comparison, so NaNs and
  // zero signs still follow Python.
  const Type *result = call.resultType;
  bool extremeInstruction = result->isFloat() && lowering.module().target.hasThreadHierarchy();
  llvm::Value *best = lowering.castValue(values[0], valueTypes[0], result);
  for (size_t i = 1; i < values.size(); ++i) {
    llvm::Value *candidate = lowering.castValue(values[i], valueTypes[i], result);
    llvm::Value *better = lowering.operators().lowerComparison(
        isMax ? CompareOp::Gt : CompareOp::Lt, candidate, result, best, result);
    llvm::Value *taken = candidate;
    if (extremeInstruction)
      taken = lowering.irBuilder().CreateBinaryIntrinsic(
          isMax ? llvm::Intrinsic::maxnum : llvm::Intrinsic::minnum, candidate, best);
    best = lowering.irBuilder().CreateSelect(better, taken, best);
  }
  return best;
}

const Type *typeRound(const LibraryCall &call) {
  const std::vector<const Type *> &arguments = call.argumentTypes;
  if (!arguments[0]->isReal() || (arguments.size() == 2 && !arguments[1]->isIntegerLike()))
    throwNoOverload(call);
  if (arguments.size() == 2 && arguments[0]->isFloat())
    return arguments[0];
  // An int rounds to an int: int64, or uint64 for a uint64.
  return integralType(arguments[0]);
}

/// round(value) or round(value, digits) (`digits` an int64, or nullptr).
llvm::Value *roundValue(LoweringApi &lowering, llvm::Value *value, const Type *type,
                        llvm::Value *digits, const Type *result) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (!type->isFloat()) {
    bool unsignedResult = isUnsigned64(type);
    llvm::Value *integer = lowering.castValue(value, type, unsignedResult ? type : types::int64());
    if (!digits)
      return integer;
    // In integers, as CPython: through a float64 (53 bits) a larger int lost its low digits.
    llvm::Type *i64 = builder.getInt64Ty();
    const char *function =
        unsignedResult ? "taipan_round_uint_ndigits" : "taipan_round_int_ndigits";
    return builder.CreateCall(lowering.module().runtimeFunction(function, i64, {i64, i64}),
                              {integer, digits});
  }
  if (!digits)
    return lowering.castValue(lowering.callIntrinsic(llvm::Intrinsic::rint, {value}), type, result);
  // Correctly rounded, like CPython (and unlike Numba's scale-and-rint).
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Value *rounded = builder.CreateCall(
      lowering.module().runtimeFunction("taipan_round_ndigits", f64, {f64, builder.getInt64Ty()}),
      {lowering.castValue(value, type, types::float64()), digits});
  return lowering.castValue(rounded, types::float64(), result);
}

llvm::Value *lowerRound(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  llvm::Value *digits = values.size() > 1
                            ? lowering.castValue(values[1], call.argumentTypes[1], types::int64())
                            : nullptr;
  return roundValue(lowering, values[0], call.argumentTypes[0], digits, call.resultType);
}

/// float(text) of a constant text, decided while compiling, or nothing where the run-time
/// parse must decide: CPython's float() of an optional sign, then inf, infinity or nan in any
/// case, or digits with an optional point and exponent, spaces around. Text with underscores
/// or anything else is left to the run-time parse (and its ValueError). Kernels have no
/// strings, so float("nan") and float("inf") there come from here.
std::optional<double> constantFloat(const std::string &text) {
  const char *spaces = " \t\n\r\f\v";
  size_t first = text.find_first_not_of(spaces);
  if (first == std::string::npos)
    return std::nullopt;
  std::string body = text.substr(first, text.find_last_not_of(spaces) - first + 1);
  bool negative = body[0] == '-';
  if (body[0] == '+' || body[0] == '-')
    body.erase(0, 1);
  std::string lower = body;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  double sign = negative ? -1.0 : 1.0;
  if (lower == "inf" || lower == "infinity")
    return sign * std::numeric_limits<double>::infinity();
  if (lower == "nan") // CPython keeps the sign of float("-nan")
    return std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
  size_t i = 0, digits = 0;
  while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
    ++i, ++digits;
  if (i < body.size() && body[i] == '.')
    for (++i; i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]));)
      ++i, ++digits;
  if (digits == 0)
    return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    size_t exponent = ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-'))
      ++i;
    size_t start = i;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
      ++i;
    if (i == start || exponent == body.size())
      return std::nullopt;
  }
  if (i != body.size())
    return std::nullopt;
  double value = 0.0;
  // from_chars is correctly rounded and ignores the locale, as CPython's parse
  auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value);
  if (end != body.data() + body.size() ||
      (error != std::errc() && error != std::errc::result_out_of_range))
    return std::nullopt;
  if (error == std::errc::result_out_of_range) // CPython: huge is inf, tiny is 0
    value = std::abs(std::strtod(body.c_str(), nullptr));
  return sign * value;
}

/// LibraryCall::form of float(text) of a constant text folded while compiling.
constexpr unsigned ConstantFloatText = 1;

/// int(), float(), bool(), complex() and NumPy's scalar types called as functions: a cast to
/// the type, its zero without an argument, complex(real, imag) from two reals.
void addConversion(Library &library, const std::string &name) {
  bool python = name.rfind("numpy.", 0) != 0;
  std::vector<LibraryParameter> parameters = positionalOnly(1, 1);
  if (name == "complex")
    parameters = {{"real", true}, {"imag", true}};
  LibraryFunction function;
  function.name = name;
  function.parameters = parameters;
  function.type = [python](LibraryCall &call) {
    const Type *target = scalarConstructorType(call.function->name);
    const std::vector<const Type *> &arguments = call.argumentTypes;
    if (arguments.empty())
      return target;
    // float("nan") of a constant text is a constant: its text is dropped from the call, never
    // lowered (kernels have no strings), and the value's bits kept in `constants`.
    if (call.function->name == "float" && arguments.size() == 1 &&
        arguments[0]->kind() == TypeKind::StringLiteral)
      if (std::optional<double> constant = constantFloat(arguments[0]->text())) {
        int64_t bits;
        std::memcpy(&bits, &*constant, sizeof bits);
        call.constants = {bits};
        call.form = ConstantFloatText;
        call.arguments[0] = nullptr;
        return target;
      }
    if (arguments.size() == 2 && arguments[0]->isReal() && arguments[1]->isReal())
      return target; // complex(real, imag)
    if (python && arguments.size() == 1 && arguments[0]->isString() &&
        (target->isInteger() || target->isFloat() || target->isBoolean()))
      return target; // int(s), float(s), bool(s)
    if (python && target->isBoolean() && arguments.size() == 1 &&
        (arguments[0]->isSet() || arguments[0]->isList() || arguments[0]->isTuple() ||
         arguments[0]->isDict() || arguments[0]->kind() == TypeKind::Range))
      return target; // bool(container): whether it holds anything, as `if x:` asks
    // np.float32(a) of an array: a.astype(np.float32), a new array, as NumPy's (Numba's page:
    // the classes take "a numeric input ... or a sequence").
    if (!python && arguments.size() == 1 && arguments[0]->isArray() && arguments[0]->ndim() > 0 &&
        arguments[0]->dtype()->isNumber() && target->isNumber())
      return keptOrderCopyType(target, arguments[0]);
    if (arguments.size() != 1 || !arguments[0]->isNumber())
      throwNoOverload(call);
    // Python's complex() and bool() take a complex number, so do NumPy's complex types.
    bool takesComplex = target->isComplex() || (python && target->isBoolean());
    if (arguments[0]->isComplex() && !takesComplex)
      throwNoOverload(call);
    // int() of a uint64 keeps it (as Numba's does).
    return python && target->isInteger() ? integralType(arguments[0]) : target;
  };
  function.lower = [](LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) -> llvm::Value * {
    const Type *target = call.resultType;
    if (call.form == ConstantFloatText) {
      double constant;
      std::memcpy(&constant, &call.constants[0], sizeof constant);
      return llvm::ConstantFP::get(valueType(lowering.llvmContext(), target), constant);
    }
    if (values.empty())
      return llvm::Constant::getNullValue(valueType(lowering.llvmContext(), target));
    if (values.size() == 2) {
      const Type *part = types::float64();
      return lowering.operators().makeComplex(
          lowering.castValue(values[0], call.argumentTypes[0], part),
          lowering.castValue(values[1], call.argumentTypes[1], part), target);
    }
    if (call.argumentTypes[0]->isString())
      return lowering.strings().parseString(values[0], call.argumentTypes[0], target);
    if (call.argumentTypes[0]->isArray()) { // as a.astype(...): a copy converting each item
      llvm::Value *copy = lowering.arrays().allocateArray(
          target, lowering.arrays().arrayShape(values[0], call.argumentTypes[0]));
      lowering.arrays().copyBroadcast(copy, target, values[0], call.argumentTypes[0]);
      return copy;
    }
    if (target->isBoolean() && !call.argumentTypes[0]->isNumber())
      return lowering.truthValue(values[0], call.argumentTypes[0]);
    return lowering.castValue(values[0], call.argumentTypes[0], target);
  };
  library.add(std::move(function));
}

/// pow(base, exp) as `**`; pow(base, exp, mod) of integers through the runtime.
llvm::Value *lowerPow(LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) {
  const std::vector<const Type *> &types = call.argumentTypes;
  if (values.size() == 2)
    return lowering.operators().lowerBinary(BinaryOp::Pow, values[0], types[0], values[1], types[1],
                                            call.resultType);
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  std::vector<llvm::Value *> operands;
  for (size_t i = 0; i < 3; ++i)
    operands.push_back(lowering.castValue(values[i], types[i], types::int64()));
  llvm::AllocaInst *error = lowering.createEntryAlloca(builder.getInt32Ty(), "powmod.error");
  operands.push_back(error);
  llvm::Value *result = builder.CreateCall(
      lowering.module().runtimeFunction("taipan_powmod", i64, {i64, i64, i64, builder.getPtrTy()}),
      operands);
  llvm::Value *code = builder.CreateLoad(builder.getInt32Ty(), error);
  lowering.exceptions().raiseIf(builder.CreateICmpEQ(code, builder.getInt32(1)), ValueErrorId,
                                "pow() 3rd argument cannot be 0");
  lowering.exceptions().raiseIf(builder.CreateICmpEQ(code, builder.getInt32(2)), ValueErrorId,
                                "base is not invertible for the given modulus");
  return result;
}

} // namespace

void registerBuiltinFunctions(Library &library) {
  library.add("abs", positionalOnly(1), typeAbs, lowerAbs);
  for (const char *name : {"min", "max"})
    library.add(name, {}, typeExtreme, lowerExtreme, /*variadic=*/true);
  library.add("round", {{"number", false}, {"ndigits", true}}, typeRound, lowerRound);
  for (const char *name : {"int", "float", "bool", "complex"})
    addConversion(library, name);
  // NumPy's scalar types, by every name scalarConstructorType knows them by.
  for (const char *name :
       {"int8", "int16",   "int32", "int64",  "uint8",     "uint16", "uint32",     "uint64",
        "i1",   "i2",      "i4",    "i8",     "u1",        "u2",     "u4",         "u8",
        "intp", "intc",    "uintp", "uintc",  "float16",   "f2",     "half",       "float32",
        "f4",   "float64", "f8",    "double", "complex64", "c8",     "complex128", "c16",
        "bool", "boolean", "b1",    "bool_"})
    addConversion(library, std::string("numpy.") + name);
  library.add(
      "divmod", positionalOnly(2),
      [](const LibraryCall &call) {
        if (!allNumbers(call))
          throwNoOverload(call);
        const Type *result =
            binaryOperandType(BinaryOp::FloorDiv, call.argumentTypes[0], call.argumentTypes[1]);
        if (!result)
          throwNoOverload(call);
        return types::tuple({result, result});
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        const std::vector<const Type *> &types = call.argumentTypes;
        const Type *part = call.resultType->elements()[0];
        llvm::Value *quotient = lowering.operators().lowerBinary(
            BinaryOp::FloorDiv, values[0], types[0], values[1], types[1], part);
        llvm::Value *remainder = lowering.operators().lowerBinary(
            BinaryOp::Mod, values[0], types[0], values[1], types[1], part);
        return lowering.lowerTuple({quotient, remainder}, call.resultType);
      });
  library.add(
      "pow", {{"base", false}, {"exp", false}, {"mod", true}},
      [](const LibraryCall &call) {
        const std::vector<const Type *> &arguments = call.argumentTypes;
        if (arguments.size() == 3) {
          for (const Type *argument : arguments)
            if (!argument->isIntegerLike())
              throwNoOverload(call);
          return types::int64();
        }
        if (!allNumbers(call))
          throwNoOverload(call);
        return binaryResultType(BinaryOp::Pow, arguments[0], arguments[1]);
      },
      lowerPow);
  library.add(
      "method.conjugate", positionalOnly(1),
      [](const LibraryCall &call) {
        const Type *value = call.argumentTypes[0];
        return value->isBoolean() ? types::int64() : value;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        const Type *result = call.resultType;
        llvm::Value *value = lowering.castValue(values[0], call.argumentTypes[0], result);
        if (!result->isComplex())
          return value;
        llvm::Value *imag;
        llvm::Value *real = lowering.operators().complexParts(value, imag);
        return lowering.operators().makeComplex(real, lowering.irBuilder().CreateFNeg(imag),
                                                result);
      });
  // x.view(np.uint64) of an integer or float: its bits read as another integer or float of the
  // same width (Numba's page: NumPy scalars "bitcast ... within the same width").
  library.add(
      "method.view", {{"self"}, {"dtype"}},
      [](const LibraryCall &call) {
        const Type *value = call.argumentTypes[0];
        if (!value->isInteger() && !value->isFloat())
          throwNoOverload(call);
        const Type *target = dtypeArgument(call, 1, nullptr);
        if (!target || !(target->isInteger() || target->isFloat()))
          throwNoOverload(call);
        if (target->bits() != value->bits())
          throwTypingError("Changing the dtype of a " + value->name() + " to " + target->name() +
                               " needs the same width: " + std::to_string(value->bits()) +
                               " bits and " + std::to_string(target->bits()) + " bits differ",
                           call.location);
        return target;
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowering.irBuilder().CreateBitCast(
            values[0], valueType(lowering.llvmContext(), call.resultType));
      });
  // x.bit_count() of an integer (Python's int.bit_count, NumPy's integer scalars'): the ones in
  // the binary form of its absolute value, in the integer's own type (numba-cuda's typing).
  library.add(
      "method.bit_count", positionalOnly(1),
      [](const LibraryCall &call) {
        if (!call.argumentTypes[0]->isInteger())
          throwNoOverload(call);
        return call.argumentTypes[0];
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *value = values[0];
        // The smallest value negates to itself, whose bits read unsigned are its magnitude.
        if (call.argumentTypes[0]->isSigned())
          value = builder.CreateSelect(
              builder.CreateICmpSLT(value, llvm::ConstantInt::get(value->getType(), 0)),
              builder.CreateNeg(value), value);
        return builder.CreateIntrinsic(llvm::Intrinsic::ctpop, {value->getType()}, {value});
      });
  // x.item() of a scalar (a NumPy scalar's method): the value itself, as Numba gives it.
  library.add(
      "method.item", positionalOnly(1),
      [](const LibraryCall &call) { return call.argumentTypes[0]; },
      [](LoweringApi &, const LibraryCall &, const std::vector<llvm::Value *> &values) {
        return values[0];
      });
}

} // namespace taipan
