// NumPy's array creation: empty, zeros, ones, full and their *_like forms, arange, linspace,
// eye, identity, array and asarray; one library entry each, type rule beside lowering.
#include "library/NumpySupport.h"
#include "library/SequenceArrays.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "types/CharSequences.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace taipan {
namespace {

/// `result`, unless it is an array of records that `name` would fill with a number: only
/// empty, zeros, empty_like and zeros_like make those.
const Type *refuseRecordFill(const std::string &name, const Type *result, const LibraryCall &call) {
  bool text = types::isCharSequence(result->dtype()); // fixed-width strings: as records
  if ((result->dtype()->isRecord() || text) && name != "empty" && name != "zeros" &&
      name != "empty_like" && name != "zeros_like")
    throwUnsupported("numpy." + name + " of a " + (text ? "fixed-width string" : "record") +
                         " dtype is not supported (use np.empty or np.zeros and assign the " +
                         (text ? "items)" : "fields)"),
                     call.location);
  return result;
}

/// Fills `array` with `value` of `type`. A number into datetime64/timedelta64 items is a count
/// of their unit (NumPy's np.ones(n, 'm8[s]') holds 1 second), so it is stored as that count.
void fillArray(LoweringApi &lowering, llvm::Value *array, const Type *arrayType, llvm::Value *value,
               const Type *type) {
  const Type *dtype = arrayType->dtype();
  if (dtype->isDatetimeLike() && !type->isDatetimeLike()) {
    value = lowering.castValue(value, type, types::int64());
    type = dtype;
  }
  lowering.arrays().assignIntoArray(array, arrayType, value, type);
}

/// empty, zeros, ones (shape, dtype=float64) and full (shape, fill_value, dtype).
void addFromShape(Library &library, const std::string &name) {
  bool isFull = name == "full";
  std::vector<LibraryParameter> parameters = {{"shape"}};
  if (isFull)
    parameters.push_back({"fill_value"});
  parameters.push_back({"dtype", true});
  addNumpyFunction(
      library, name, parameters,
      [name, isFull](const LibraryCall &call) {
        int ndim = shapeDimensions(call.argumentTypes[0]);
        if (ndim < 0)
          throwTypingError("the shape of numpy." + name +
                               " must be an integer or a tuple of integers",
                           call.location);
        if (!isFull)
          return refuseRecordFill(
              name, newArrayType(dtypeArgument(call, 1, types::float64()), ndim), call);
        const Type *fillValue = call.argumentTypes[1];
        if (!fillValue->isNumber())
          throwNoImplementation(call);
        return refuseRecordFill(
            name,
            newArrayType(
                dtypeArgument(call, 2, fillValue->isBoolean() ? types::boolean() : fillValue),
                ndim),
            call);
      },
      [name](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *resultType = call.resultType;
        llvm::Value *array = lowering.arrays().allocateArray(
            resultType, shapeExtents(lowering, values[0], call.argumentTypes[0]));
        if (name == "zeros")
          builder.CreateMemSet(
              lowering.arrays().arrayField(array, ArrayLayout::Data), builder.getInt8(0),
              builder.CreateMul(lowering.arrays().arrayField(array, ArrayLayout::ItemCount),
                                lowering.arrays().arrayField(array, ArrayLayout::ItemSize)),
              llvm::MaybeAlign(8));
        else if (name == "ones")
          fillArray(lowering, array, resultType, builder.getInt64(1), types::int64());
        else if (name == "full")
          fillArray(lowering, array, resultType, values[1], call.argumentTypes[1]);
        return array;
      });
}

/// empty_like, zeros_like, ones_like (a, dtype) and full_like (a, fill_value, dtype): the
/// shape of `a`, its dtype unless one is given.
void addLike(Library &library, const std::string &name) {
  bool isFull = name == "full_like";
  std::vector<LibraryParameter> parameters = {{"a"}};
  if (isFull)
    parameters.push_back({"fill_value"});
  parameters.push_back({"dtype", true});
  addNumpyFunction(
      library, name, parameters,
      [name, isFull](const LibraryCall &call) {
        // A number (or a record: a 0-d array of records is one) is a 0-d prototype of its own
        // dtype, as NumPy takes it.
        const Type *prototype = call.argumentTypes[0];
        const Type *array = prototype->isNumber() || prototype->isRecord()
                                ? types::array(prototype, 0, 'C', false)
                                : arrayArgument(call);
        // in the prototype's order when it is F (NumPy's order='K')
        return refuseRecordFill(
            name, keptOrderCopyType(dtypeArgument(call, isFull ? 2 : 1, array->dtype()), array),
            call);
      },
      [name](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *resultType = call.resultType;
        const Type *prototype = call.argumentTypes[0];
        llvm::Value *array = lowering.arrays().allocateArray(
            resultType, prototype->isArray() ? lowering.arrays().arrayShape(values[0], prototype)
                                             : std::vector<llvm::Value *>{});
        if (name == "zeros_like") // all bits zero: 0 of every dtype (records included)
          builder.CreateMemSet(
              lowering.arrays().arrayField(array, ArrayLayout::Data), builder.getInt8(0),
              builder.CreateMul(lowering.arrays().arrayField(array, ArrayLayout::ItemCount),
                                lowering.arrays().arrayField(array, ArrayLayout::ItemSize)),
              llvm::MaybeAlign(8));
        else if (name == "ones_like")
          fillArray(lowering, array, resultType, builder.getInt64(1), types::int64());
        else if (name == "full_like")
          fillArray(lowering, array, resultType, values[1], call.argumentTypes[1]);
        return array;
      });
}

/// arange(stop), arange(start, stop[, step]): int64 for integers, else the float or complex type
/// of the bounds; None stands for an absent bound, as in Numba.
const Type *typeArange(const LibraryCall &call) {
  const Type *result = types::int64();
  for (size_t i = 0; i < 3; ++i) {
    if (!isGiven(call, i))
      continue;
    const Type *given = call.argumentTypes[i];
    if (!given->isNumber())
      throwNoImplementation(call);
    bool inexact = given->isFloat() || given->isComplex();
    result = inexact ? binaryResultType(BinaryOp::Add, result, given)
                     : (result->isInteger() ? types::int64() : result);
  }
  const Type *dtype = dtypeArgument(call, 3, result);
  if (result->isComplex() && !dtype->isComplex())
    throwTypingError("numpy.arange cannot make " + dtype->name() + " items from complex bounds",
                     call.location);
  return newArrayType(dtype, 1);
}

/// The length is ceil((stop - start) / step), at least 0; for complex bounds the smaller of the
/// real and imaginary parts' ceilings (Numba's rule). Items are start + i * step, computed in
/// int64, float64 or complex128 and converted to the dtype.
llvm::Value *lowerArange(LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  OperatorLowering &operators = lowering.operators();
  const Type *resultType = call.resultType;
  const Type *dtype = resultType->dtype();
  bool single = !isGiven(call, 1);
  bool complexBounds = false;
  for (size_t i = 0; i < 3; ++i)
    complexBounds = complexBounds || (isGiven(call, i) && call.argumentTypes[i]->isComplex());
  const Type *work = dtype->isComplex()                         ? types::complex128()
                     : dtype->isInteger() || dtype->isBoolean() ? types::int64()
                                                                : types::float64();
  auto get = [&](size_t parameter, int64_t fallback) -> llvm::Value * {
    if (!isGiven(call, parameter))
      return lowering.castValue(builder.getInt64(fallback), types::int64(), work);
    return lowering.castValue(values[parameter], call.argumentTypes[parameter], work);
  };
  llvm::Value *start = single ? get(99, 0) : get(0, 0);
  llvm::Value *stop = single ? get(0, 0) : get(1, 0);
  llvm::Value *step = get(2, 1);
  llvm::Value *stepIsZero = operators.lowerComparison(
      CompareOp::Eq, step, work, lowering.castValue(builder.getInt64(0), types::int64(), work),
      work);
  lowering.exceptions().raiseIf(stepIsZero, ValueErrorId, "Maximum allowed size exceeded");
  auto ceilToInt = [&](llvm::Value *value) {
    return builder.CreateFPToSI(lowering.callIntrinsic(llvm::Intrinsic::ceil, {value}),
                                builder.getInt64Ty());
  };
  llvm::Value *length;
  if (work->isInteger()) {
    llvm::Value *span = builder.CreateSub(stop, start);
    llvm::Value *positive = builder.CreateICmpSGT(step, builder.getInt64(0));
    llvm::Value *adjusted = builder.CreateAdd(
        span, builder.CreateSelect(positive, builder.CreateSub(step, builder.getInt64(1)),
                                   builder.CreateAdd(step, builder.getInt64(1))));
    length = builder.CreateSDiv(adjusted, step);
  } else if (work->isComplex() && complexBounds) {
    llvm::Value *ratio = operators.lowerBinary(
        BinaryOp::Div, operators.lowerBinary(BinaryOp::Sub, stop, work, start, work, work), work,
        step, work, work);
    llvm::Value *imag;
    llvm::Value *real = operators.complexParts(ratio, imag);
    llvm::Value *realLength = ceilToInt(real);
    llvm::Value *imagLength = ceilToInt(imag);
    length =
        builder.CreateSelect(builder.CreateICmpSLT(imagLength, realLength), imagLength, realLength);
  } else {
    llvm::Value *ratio = operators.lowerBinary(
        BinaryOp::Div, operators.lowerBinary(BinaryOp::Sub, stop, work, start, work, work), work,
        step, work, work);
    if (work->isComplex()) {
      llvm::Value *imag;
      ratio = operators.complexParts(ratio, imag);
    }
    length = ceilToInt(ratio);
  }
  // NumPy writes the first two items in the dtype, start and start + step, and fills the rest
  // with start + i * delta in the dtype's arithmetic, delta being their difference (which
  // rounds differently from step). float16 items are computed in float64 and converted.
  const Type *fill = work;
  if (!work->isInteger()) {
    fill = dtype->isComplex() || (dtype->isFloat() && dtype->bits() >= 32) ? dtype : work;
    llvm::Value *second = lowering.castValue(
        operators.lowerBinary(BinaryOp::Add, start, work, step, work, work), work, fill);
    start = lowering.castValue(start, work, fill);
    step = operators.lowerBinary(BinaryOp::Sub, second, fill, start, fill, fill);
  }
  length = builder.CreateSelect(builder.CreateICmpSGT(length, builder.getInt64(0)), length,
                                builder.getInt64(0));
  if (dtype->isBoolean())
    lowering.exceptions().raiseIf(
        builder.CreateICmpSGT(length, builder.getInt64(2)), TypeErrorId,
        "arange() is only supported for booleans when the result has at most length 2.");
  llvm::Value *array = lowering.arrays().allocateArray(resultType, {length});
  lowering.arrays().forEachIndex({length}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *index = lowering.castValue(at[0], types::int64(), fill);
    llvm::Value *item = operators.lowerBinary(
        BinaryOp::Add, start, fill,
        operators.lowerBinary(BinaryOp::Mult, index, fill, step, fill, fill), fill, fill);
    lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at),
                                   lowering.castValue(item, fill, dtype), dtype);
  });
  return array;
}

/// linspace(start, stop, num=50, endpoint=True): float64; the last point is `stop` exactly.
llvm::Value *lowerLinspace(LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *resultType = call.resultType;
  const Type *f64 = types::float64();
  llvm::Value *start = lowering.castValue(values[0], call.argumentTypes[0], f64);
  llvm::Value *stop = lowering.castValue(values[1], call.argumentTypes[1], f64);
  llvm::Value *count =
      isGiven(call, 2) ? int64Argument(lowering, call, values, 2) : builder.getInt64(50);
  llvm::Value *endpoint = isGiven(call, 3) ? lowering.truthValue(values[3], call.argumentTypes[3])
                                           : builder.getInt1(true);
  lowering.exceptions().raiseIf(builder.CreateICmpSLT(count, builder.getInt64(0)), ValueErrorId,
                                "Number of samples must be non-negative.");
  llvm::Value *divisions =
      builder.CreateSelect(endpoint, builder.CreateSub(count, builder.getInt64(1)), count);
  // One point (or none) has no step: NumPy gives [start].
  llvm::Value *step = builder.CreateSelect(
      builder.CreateICmpSGT(divisions, builder.getInt64(0)),
      builder.CreateFDiv(builder.CreateFSub(stop, start),
                         builder.CreateSIToFP(divisions, builder.getDoubleTy())),
      llvm::ConstantFP::get(builder.getDoubleTy(), 0.0));
  llvm::Value *array = lowering.arrays().allocateArray(resultType, {count});
  lowering.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *index = builder.CreateSIToFP(at[0], builder.getDoubleTy());
    llvm::Value *item = builder.CreateFAdd(start, builder.CreateFMul(index, step));
    llvm::Value *last = builder.CreateAnd(
        endpoint, builder.CreateICmpEQ(at[0], builder.CreateSub(count, builder.getInt64(1))));
    item = builder.CreateSelect(
        builder.CreateAnd(last, builder.CreateICmpSGT(count, builder.getInt64(1))), stop, item);
    lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at), item,
                                   f64);
  });
  return array;
}

/// eye(N, M=N, k=0, dtype=float64) and identity(n, dtype=float64): ones on a diagonal.
void addDiagonal(Library &library, const std::string &name) {
  bool isEye = name == "eye";
  std::vector<LibraryParameter> parameters =
      isEye ? std::vector<LibraryParameter>{{"N"}, {"M", true}, {"k", true}, {"dtype", true}}
            : std::vector<LibraryParameter>{{"n"}, {"dtype", true}};
  addNumpyFunction(
      library, name, parameters,
      [isEye](const LibraryCall &call) {
        // Numba's eye also takes a number as its dtype (np.complex64(1)), as NumPy takes a
        // scalar's .dtype: the number's type.
        if (isEye && isGiven(call, 3) && call.argumentTypes[3]->isNumber())
          return newArrayType(call.argumentTypes[3], 2);
        return newArrayType(dtypeArgument(call, isEye ? 3 : 1, types::float64()), 2);
      },
      [isEye](LoweringApi &lowering, const LibraryCall &call,
              const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *resultType = call.resultType;
        const Type *dtype = resultType->dtype();
        llvm::Value *rows = int64Argument(lowering, call, values, 0);
        llvm::Value *columns =
            isEye && isGiven(call, 1) ? int64Argument(lowering, call, values, 1) : rows;
        llvm::Value *diagonal = isEye && isGiven(call, 2) ? int64Argument(lowering, call, values, 2)
                                                          : builder.getInt64(0);
        llvm::Value *array = lowering.arrays().allocateArray(resultType, {rows, columns});
        lowering.arrays().forEachIndex({rows, columns}, [&](const std::vector<llvm::Value *> &at) {
          llvm::Value *onDiagonal = builder.CreateICmpEQ(builder.CreateSub(at[1], at[0]), diagonal);
          lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at),
                                         lowering.castValue(onDiagonal, types::boolean(), dtype),
                                         dtype);
        });
        return array;
      });
}

/// array(object, dtype) and asarray(a, dtype) of an array, a number (0-d) or a flat tuple (a
/// list literal, which typing turned into a tuple). asarray of an array of that dtype is the
/// array itself.
void addArrayConstructor(Library &library, const std::string &name, const std::string &first) {
  bool isAsarray = name == "asarray";
  // The dtype of the result; complex items into a real dtype are refused, as Numba refuses them
  // (NumPy drops the imaginary part with a ComplexWarning).
  auto resultDtype = [name](const LibraryCall &call, const Type *item) {
    const Type *dtype = dtypeArgument(call, 1, item);
    if (item->isComplex() && !dtype->isComplex())
      throwTypingError("numpy." + name + " cannot convert " + item->name() + " items to " +
                           dtype->name() + " (it would drop the imaginary part)",
                       call.location);
    return dtype;
  };
  addNumpyFunction(
      library, name, {{first}, {"dtype", true}},
      [name, isAsarray, resultDtype](const LibraryCall &call) {
        const Type *source = call.argumentTypes[0];
        if (source->isArray()) {
          const Type *dtype = resultDtype(call, source->dtype());
          // a copy keeps an F array's order (NumPy's order='K')
          return isAsarray && dtype == source->dtype() ? source : keptOrderCopyType(dtype, source);
        }
        if (source->isNumber())
          return newArrayType(resultDtype(call, source), 0);
        if (source->kind() == TypeKind::StringLiteral && !isGiven(call, 1)) {
          // A constant string: a 0-d `<U n` array of its n code points (`<U1` for ''), as NumPy.
          int64_t points = std::count_if(source->text().begin(), source->text().end(),
                                         [](char c) { return (c & 0xC0) != 0x80; });
          return newArrayType(types::charSequence(std::max<int64_t>(1, points), true), 0);
        }
        if (const Type *fromSequence = sequenceArrayType(source))
          return newArrayType(resultDtype(call, fromSequence->dtype()), fromSequence->ndim());
        if (source->isList() || source->isTuple())
          throwUnsupported("numpy." + name +
                               " takes nested lists, tuples and arrays of numbers with one depth "
                               "throughout, not " +
                               source->name(),
                           call.location);
        throwNoImplementation(call);
      },
      [isAsarray](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
        const Type *resultType = call.resultType;
        const Type *dtype = resultType->dtype();
        const Type *source = call.argumentTypes[0];
        if (source->isArray()) {
          if (isAsarray && resultType == source)
            return values[0];
          llvm::Value *array = lowering.arrays().allocateArray(
              resultType, lowering.arrays().arrayShape(values[0], source));
          lowering.arrays().copyBroadcast(array, resultType, values[0], source);
          return array;
        }
        if (source->isList() || source->isTuple())
          return lowerSequenceArray(lowering, values[0], source, resultType);
        llvm::Value *array = lowering.arrays().allocateArray(resultType, {});
        lowering.arrays().storeElement(lowering.arrays().arrayField(array, ArrayLayout::Data),
                                       lowering.castValue(values[0], source, dtype), dtype);
        return array;
      });
}

/// ndindex, ndenumerate and nditer: only `for` loops use them (TypeInference types the loop,
/// FunctionLowering emits it); any other call is an error at its line.
void addLoopOnly(Library &library, const std::string &name) {
  LibraryFunction function;
  function.name = "numpy." + name;
  function.variadic = true;
  function.type = [name](const LibraryCall &call) -> const Type * {
    throwUnsupported("np." + name + "() can only be iterated by a for loop in compiled code",
                     call.location);
  };
  function.lower = [](LoweringApi &, const LibraryCall &call,
                      const std::vector<llvm::Value *> &) -> llvm::Value * {
    throw CompileError(CompileErrorKind::Internal, call.function->name + " outside a for loop",
                       call.location);
  };
  library.add(std::move(function));
}

} // namespace

void registerNumpyCreationFunctions(Library &library) {
  for (const char *name : {"empty", "zeros", "ones", "full"})
    addFromShape(library, name);
  for (const char *name : {"empty_like", "zeros_like", "ones_like", "full_like"})
    addLike(library, name);
  addNumpyFunction(library, "arange", {{"start"}, {"stop", true}, {"step", true}, {"dtype", true}},
                   typeArange, lowerArange);
  addNumpyFunction(
      library, "linspace", {{"start"}, {"stop"}, {"num", true}, {"endpoint", true}},
      [](const LibraryCall &) { return newArrayType(types::float64(), 1); }, lowerLinspace);
  addDiagonal(library, "eye");
  addDiagonal(library, "identity");
  addArrayConstructor(library, "array", "object");
  addArrayConstructor(library, "asarray", "a");
  for (const char *name : {"ndindex", "ndenumerate", "nditer"})
    addLoopOnly(library, name);
}

} // namespace taipan
