// NumPy's array creation: empty, zeros, ones, full and their *_like forms, arange, linspace,
// eye, identity, array and asarray; one library entry each, type rule beside lowering.
#include "library/NumpySupport.h"
#include "library/SequenceArrays.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace taipan {
namespace {

/// `result`, unless it is an array of records that `name` would fill with a number: only
/// empty, zeros and empty_like make those.
const Type *refuseRecordFill(const std::string &name, const Type *result, const LibraryCall &call) {
  if (result->dtype()->isRecord() && name != "empty" && name != "zeros" && name != "empty_like")
    throwUnsupported("numpy." + name + " of a record dtype is not supported (use np.empty or " +
                         "np.zeros and assign the fields)",
                     call.location);
  return result;
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
          lowering.arrays().assignIntoArray(array, resultType, builder.getInt64(1), types::int64());
        else if (name == "full")
          lowering.arrays().assignIntoArray(array, resultType, values[1], call.argumentTypes[1]);
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
        const Type *array = arrayArgument(call);
        return refuseRecordFill(
            name, newArrayType(dtypeArgument(call, isFull ? 2 : 1, array->dtype()), array->ndim()),
            call);
      },
      [name](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *resultType = call.resultType;
        llvm::Value *array = lowering.arrays().allocateArray(
            resultType, lowering.arrays().arrayShape(values[0], call.argumentTypes[0]));
        if (name == "zeros_like")
          lowering.arrays().assignIntoArray(array, resultType, builder.getInt64(0), types::int64());
        else if (name == "ones_like")
          lowering.arrays().assignIntoArray(array, resultType, builder.getInt64(1), types::int64());
        else if (name == "full_like")
          lowering.arrays().assignIntoArray(array, resultType, values[1], call.argumentTypes[1]);
        return array;
      });
}

/// arange(stop), arange(start, stop[, step]): int64 for integers, else float64.
const Type *typeArange(const LibraryCall &call) {
  const Type *result = types::int64();
  for (size_t i = 0; i < 3 && i < call.argumentTypes.size(); ++i) {
    const Type *given = call.argumentTypes[i];
    if (!given)
      continue;
    if (!given->isNumber() || given->isComplex())
      throwNoImplementation(call);
    result = given->isFloat() ? binaryResultType(BinaryOp::Add, result, given)
                              : (result->isFloat() ? result : types::int64());
  }
  return newArrayType(dtypeArgument(call, 3, result), 1);
}

/// The length is ceil((stop - start) / step), at least 0.
llvm::Value *lowerArange(LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *resultType = call.resultType;
  const Type *dtype = resultType->dtype();
  bool single = !isGiven(call, 1);
  const Type *work = dtype->isInteger() ? types::int64() : types::float64();
  auto get = [&](size_t parameter, double fallback) -> llvm::Value * {
    if (!isGiven(call, parameter))
      return work->isInteger()
                 ? static_cast<llvm::Value *>(builder.getInt64(static_cast<int64_t>(fallback)))
                 : llvm::ConstantFP::get(builder.getDoubleTy(), fallback);
    return lowering.castValue(values[parameter], call.argumentTypes[parameter], work);
  };
  llvm::Value *start = single ? get(99, 0) : get(0, 0);
  llvm::Value *stop = single ? get(0, 0) : get(1, 0);
  llvm::Value *step = get(2, 1);
  llvm::Value *length;
  if (work->isInteger()) {
    lowering.exceptions().raiseIf(builder.CreateICmpEQ(step, builder.getInt64(0)), ValueErrorId,
                                  "Maximum allowed size exceeded");
    llvm::Value *span = builder.CreateSub(stop, start);
    llvm::Value *positive = builder.CreateICmpSGT(step, builder.getInt64(0));
    llvm::Value *adjusted = builder.CreateAdd(
        span, builder.CreateSelect(positive, builder.CreateSub(step, builder.getInt64(1)),
                                   builder.CreateAdd(step, builder.getInt64(1))));
    length = builder.CreateSDiv(adjusted, step);
  } else {
    length = builder.CreateFPToSI(
        lowering.callIntrinsic(llvm::Intrinsic::ceil,
                               {builder.CreateFDiv(builder.CreateFSub(stop, start), step)}),
        builder.getInt64Ty());
  }
  length = builder.CreateSelect(builder.CreateICmpSGT(length, builder.getInt64(0)), length,
                                builder.getInt64(0));
  llvm::Value *array = lowering.arrays().allocateArray(resultType, {length});
  lowering.arrays().forEachIndex({length}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *index = lowering.castValue(at[0], types::int64(), work);
    llvm::Value *item = work->isInteger()
                            ? builder.CreateAdd(start, builder.CreateMul(index, step))
                            : builder.CreateFAdd(start, builder.CreateFMul(index, step));
    lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at),
                                   lowering.castValue(item, work, dtype), dtype);
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
          return isAsarray && dtype == source->dtype() ? source
                                                       : newArrayType(dtype, source->ndim());
        }
        if (source->isNumber())
          return newArrayType(resultDtype(call, source), 0);
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
