// np.random, one library entry per function: NumPy's legacy MT19937 generator in the runtime
// (runtime/NumpyRandom), one draw per element when a size is given; shuffle, permutation and
// choice on arrays. CPU only: a GPU thread has no generator state.
#include "library/NumpyRandomSupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {

/// A scalar of `scalar`, or an array of it when parameter `size` gives a shape.
const Type *sizedResult(const LibraryCall &call, const Type *scalar, size_t size) {
  if (!isGiven(call, size))
    return scalar;
  int ndim = shapeDimensions(call.argumentTypes[size]);
  if (ndim < 0)
    throwTypingError("size must be an integer or a tuple of integers", call.location);
  return newArrayType(scalar, ndim);
}

llvm::Value *callRandomRuntime(LoweringApi &lowering, const char *symbol, llvm::Type *result,
                               llvm::ArrayRef<llvm::Type *> parameters,
                               llvm::ArrayRef<llvm::Value *> arguments) {
  return lowering.irBuilder().CreateCall(
      lowering.module().runtimeFunction(symbol, result, parameters), arguments);
}

/// The draw itself, or an array of `shape` filled with draws.
llvm::Value *drawSized(LoweringApi &lowering, const LibraryCall &call,
                       const std::vector<llvm::Value *> &shape, const RandomDraw &draw) {
  const Type *resultType = call.resultType;
  if (!resultType->isArray())
    return draw();
  llvm::Value *array = lowering.arrays().allocateArray(resultType, shape);
  const Type *dtype = resultType->dtype();
  lowering.arrays().forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *value = draw();
    const Type *drawn = value->getType()->isDoubleTy() ? types::float64() : dtype;
    lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at),
                                   lowering.castValue(value, drawn, dtype), dtype);
  });
  return array;
}

/// The shape parameter `size` gives, when the call is sized.
std::vector<llvm::Value *> sizeShape(LoweringApi &lowering, const LibraryCall &call,
                                     const std::vector<llvm::Value *> &values, size_t size) {
  if (!call.resultType->isArray())
    return {};
  return shapeExtents(lowering, values[size], call.argumentTypes[size]);
}

/// shuffle(x) in place, and permutation(x): a shuffled copy of an array, or of arange(x).
/// Rows of a C-contiguous array are swapped whole, as NumPy's legacy shuffle does.
llvm::Value *lowerRandomShuffle(LoweringApi &lowering, const LibraryCall &call,
                                const std::vector<llvm::Value *> &values, size_t arrayIndex,
                                bool isShuffle) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  const Type *resultType = call.resultType;
  const Type *given = call.argumentTypes[arrayIndex];
  llvm::Value *array = values[arrayIndex];
  const Type *arrayType = given;
  if (!isShuffle) {
    arrayType = resultType;
    if (given->isArray()) {
      array = lowering.arrays().allocateArray(
          resultType, lowering.arrays().arrayShape(values[arrayIndex], given));
      lowering.arrays().copyBroadcast(array, resultType, values[arrayIndex], given);
    } else {
      llvm::Value *count = int64Argument(lowering, call, values, arrayIndex);
      array = lowering.arrays().allocateArray(resultType, {count});
      lowering.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
        lowering.arrays().storeElement(lowering.arrays().elementAddress(array, resultType, at),
                                       at[0], types::int64());
      });
    }
  }
  llvm::Value *rowBytes = lowering.arrays().arrayField(array, ArrayLayout::ItemSize);
  for (int i = 1; i < arrayType->ndim(); ++i)
    rowBytes =
        builder.CreateMul(rowBytes, lowering.arrays().arrayField(array, ArrayLayout::Shape, i));
  llvm::Value *rows = arrayType->ndim() ? lowering.arrays().arrayField(array, ArrayLayout::Shape, 0)
                                        : builder.getInt64(1);
  llvm::Value *data = lowering.arrays().arrayField(array, ArrayLayout::Data);
  callRandomRuntime(lowering, "taipan_np_random_shuffle", builder.getVoidTy(),
                    {builder.getPtrTy(), i64, i64, i64}, {data, rows, rowBytes, rowBytes});
  return isShuffle ? noneValue(lowering) : array;
}

namespace {

/// numpy.random.<name>: its parameters and rules, on the CPU. Every argument must be a number,
/// a tuple (a size), None or an array before the function's own rule looks at it.
void add(Library &library, const std::string &name, std::vector<LibraryParameter> parameters,
         LibraryTypeRule type, LibraryLowerRule lower, bool variadic = false) {
  LibraryFunction function;
  function.name = "numpy.random." + name;
  function.parameters = std::move(parameters);
  function.variadic = variadic;
  function.targets = OnCpu;
  function.type = [type](LibraryCall &call) {
    for (const Type *given : call.argumentTypes)
      if (given && !given->isNumber() && !given->isTuple() && !given->isNone() && !given->isArray())
        throwNoImplementation(call);
    return type(call);
  };
  function.lower = std::move(lower);
  library.add(std::move(function));
}

/// Argument `index` as a double, or `fallback` when left out.
llvm::Value *doubleArgument(LoweringApi &lowering, const LibraryCall &call,
                            const std::vector<llvm::Value *> &values, size_t index,
                            double fallback) {
  if (!isGiven(call, index))
    return llvm::ConstantFP::get(lowering.irBuilder().getDoubleTy(), fallback);
  return lowering.castValue(values[index], call.argumentTypes[index], types::float64());
}

/// random(size=None) and its aliases, standard_normal(size=None): a runtime draw of a double.
void addSample(Library &library, const std::string &name, const char *symbol) {
  add(
      library, name, {{"size", true}},
      [](const LibraryCall &call) { return sizedResult(call, types::float64(), 0); },
      [symbol](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
        llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
        return drawSized(lowering, call, sizeShape(lowering, call, values, 0),
                         [&] { return callRandomRuntime(lowering, symbol, f64, {}, {}); });
      });
}

/// rand(d0, d1, ...) and randn(d0, d1, ...): the dimensions are positional integers.
void addDimensioned(Library &library, const std::string &name, const char *symbol) {
  add(
      library, name, {},
      [name](const LibraryCall &call) {
        for (const Type *given : call.argumentTypes)
          if (!given->isIntegerLike())
            throwNoImplementation(call);
        int ndim = static_cast<int>(call.argumentTypes.size());
        return ndim == 0 ? types::float64() : newArrayType(types::float64(), ndim);
      },
      [symbol](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
        std::vector<llvm::Value *> shape;
        for (size_t i = 0; i < values.size(); ++i)
          shape.push_back(int64Argument(lowering, call, values, i));
        llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
        return drawSized(lowering, call, shape,
                         [&] { return callRandomRuntime(lowering, symbol, f64, {}, {}); });
      },
      true);
}

/// uniform(low=0, high=1, size=None), drawn as NumPy draws it (no check of the range).
void addTwoParameter(Library &library, const std::string &name, const char *first,
                     const char *second, const char *symbol) {
  add(
      library, name, {{first, true}, {second, true}, {"size", true}},
      [](const LibraryCall &call) { return sizedResult(call, types::float64(), 2); },
      [symbol](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
        llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
        llvm::Value *a = doubleArgument(lowering, call, values, 0, 0.0);
        llvm::Value *b = doubleArgument(lowering, call, values, 1, 1.0);
        return drawSized(lowering, call, sizeShape(lowering, call, values, 2), [&] {
          return callRandomRuntime(lowering, symbol, f64, {f64, f64}, {a, b});
        });
      });
}

/// choice(a, size=None, replace=True): items of a 1-D array, or integers below a, drawn as
/// RandomState draws them (randint with replacement, a permutation's first items without).
llvm::Value *lowerChoice(LoweringApi &lowering, const LibraryCall &call,
                         const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  const Type *given = call.argumentTypes[0];
  llvm::Value *population = values[0];
  llvm::Value *count = given->isArray()
                           ? lowering.arrays().arrayField(population, ArrayLayout::Shape, 0)
                           : lowering.castValue(population, given, types::int64());
  std::vector<llvm::Value *> shape = sizeShape(lowering, call, values, 1);
  llvm::Value *total = builder.getInt64(1);
  for (llvm::Value *extent : shape)
    total = builder.CreateMul(total, extent);
  llvm::Value *sampling = builder.CreateICmpNE(total, builder.getInt64(0));
  lowering.exceptions().raiseIf(
      builder.CreateAnd(builder.CreateICmpSLE(count, builder.getInt64(0)), sampling), ValueErrorId,
      given->isArray() ? "'a' cannot be empty unless no samples are taken"
                       : "a must be greater than 0 unless no samples are taken");
  llvm::Value *replace =
      isGiven(call, 2) ? lowering.truthValue(values[2], call.argumentTypes[2]) : builder.getTrue();
  lowering.exceptions().raiseIf(
      builder.CreateAnd(builder.CreateNot(replace), builder.CreateICmpSGT(total, count)),
      ValueErrorId, "Cannot take a larger sample than population when 'replace=False'");
  llvm::Value *replaceFlag = builder.CreateZExt(replace, builder.getInt32Ty());
  auto fill = [&](llvm::Value *out) {
    callRandomRuntime(lowering, "taipan_np_random_choice_indexes", builder.getVoidTy(),
                      {i64, i64, builder.getInt32Ty(), builder.getPtrTy()},
                      {count, total, replaceFlag, out});
  };
  auto item = [&](llvm::Value *index) -> llvm::Value * {
    if (!given->isArray())
      return index;
    return lowering.arrays().loadElement(
        lowering.arrays().elementAddress(population, given, {index}), given->dtype());
  };
  const Type *resultType = call.resultType;
  if (!resultType->isArray()) {
    llvm::Value *slot = lowering.createEntryAlloca(i64, "choice.index");
    fill(slot);
    return item(builder.CreateLoad(i64, slot));
  }
  const Type *indexType = newArrayType(types::int64(), static_cast<int>(shape.size()));
  llvm::Value *indexes = lowering.arrays().allocateArray(indexType, shape);
  fill(lowering.arrays().arrayField(indexes, ArrayLayout::Data));
  if (!given->isArray())
    return indexes;
  llvm::Value *result = lowering.arrays().allocateArray(resultType, shape);
  lowering.arrays().forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *index = lowering.arrays().loadElement(
        lowering.arrays().elementAddress(indexes, indexType, at), types::int64());
    lowering.arrays().storeElement(lowering.arrays().elementAddress(result, resultType, at),
                                   item(index), resultType->dtype());
  });
  return result;
}

} // namespace

void registerNumpyRandomFunctions(Library &library) {
  add(
      library, "seed", {{"seed"}},
      [](const LibraryCall &call) {
        if (!call.argumentTypes[0]->isIntegerLike())
          throwNoImplementation(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *seed = int64Argument(lowering, call, values, 0);
        lowering.exceptions().raiseIf(builder.CreateICmpUGT(seed, builder.getInt64(0xFFFFFFFFLL)),
                                      ValueErrorId, "Seed must be between 0 and 2**32 - 1");
        callRandomRuntime(lowering, "taipan_np_random_seed", builder.getVoidTy(),
                          {builder.getInt64Ty()}, {seed});
        return noneValue(lowering);
      });
  for (const char *name : {"random", "random_sample", "sample", "ranf"})
    addSample(library, name, "taipan_np_random_sample");
  addSample(library, "standard_normal", "taipan_np_random_standard_normal");
  addDimensioned(library, "rand", "taipan_np_random_sample");
  addDimensioned(library, "randn", "taipan_np_random_standard_normal");
  addTwoParameter(library, "uniform", "low", "high", "taipan_np_random_uniform");
  // randint(low, high=None, size=None): [0, low) without a high.
  add(
      library, "randint", {{"low"}, {"high", true}, {"size", true}},
      [](const LibraryCall &call) {
        if (!call.argumentTypes[0]->isIntegerLike() ||
            (call.argumentTypes.size() > 1 && call.argumentTypes[1] &&
             !call.argumentTypes[1]->isIntegerLike()))
          throwNoImplementation(call);
        return sizedResult(call, types::int64(), 2);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Type *i64 = builder.getInt64Ty();
        bool bounded = isGiven(call, 1);
        llvm::Value *low = bounded ? int64Argument(lowering, call, values, 0) : builder.getInt64(0);
        llvm::Value *high = int64Argument(lowering, call, values, bounded ? 1 : 0);
        lowering.exceptions().raiseIf(builder.CreateICmpSGE(low, high), ValueErrorId,
                                      "low >= high");
        return drawSized(lowering, call, sizeShape(lowering, call, values, 2), [&] {
          return callRandomRuntime(lowering, "taipan_np_random_randint", i64, {i64, i64},
                                   {low, high});
        });
      });
  add(
      library, "shuffle", {{"x"}},
      [](const LibraryCall &call) {
        const Type *given = call.argumentTypes[0];
        if (!given->isArray() || given->layout() != 'C' || given->isReadonly())
          throwTypingError("np.random.shuffle takes a writable C-contiguous array", call.location);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowerRandomShuffle(lowering, call, values, 0, true);
      });
  add(
      library, "permutation", {{"x"}},
      [](const LibraryCall &call) {
        const Type *given = call.argumentTypes[0];
        if (given->isIntegerLike())
          return newArrayType(types::int64(), 1);
        if (given->isArray() && given->ndim() >= 1)
          return newArrayType(given->dtype(), given->ndim());
        throwNoImplementation(call);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowerRandomShuffle(lowering, call, values, 0, false);
      });
  add(
      library, "choice", {{"a"}, {"size", true}, {"replace", true}},
      [](const LibraryCall &call) {
        const Type *given = call.argumentTypes[0];
        if (isGiven(call, 2) && !call.argumentTypes[2]->isIntegerLike())
          throwNoImplementation(call);
        const Type *element = given->isIntegerLike()                   ? types::int64()
                              : given->isArray() && given->ndim() == 1 ? given->dtype()
                                                                       : nullptr;
        if (!element)
          throwNoImplementation(call);
        return sizedResult(call, element, 1);
      },
      lowerChoice);
  registerNumpyDistributions(library);
}

} // namespace taipan
