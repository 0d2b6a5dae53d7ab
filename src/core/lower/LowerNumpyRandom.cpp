// np.random in compiled code: NumPy's legacy generator (runtime/NumpyRandom), one draw per
// element when a size is given; shuffle, permutation and choice on arrays.
#include "lower/FunctionLowering.h"

#include "typing/ArrayTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {

llvm::Value *FunctionLowering::lowerNumpyRandom(const std::string &function, Expr *expr,
                                                const std::vector<llvm::Value *> &values,
                                                const std::vector<const Type *> &types,
                                                const std::vector<int> &order) {
  const Type *resultType = typeOf(expr);
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Type *i64 = builder.getInt64Ty();
  auto has = [&](size_t parameter) {
    return parameter < order.size() && order[parameter] >= 0 && !types[order[parameter]]->isNone();
  };
  auto asDouble = [&](size_t parameter, double fallback) -> llvm::Value * {
    if (!has(parameter))
      return llvm::ConstantFP::get(f64, fallback);
    return castValue(values[order[parameter]], types[order[parameter]], types::float64());
  };
  auto asInt = [&](size_t parameter) {
    return castValue(values[order[parameter]], types[order[parameter]], types::int64());
  };
  auto call = [&](const char *symbol, llvm::Type *result, llvm::ArrayRef<llvm::Type *> parameters,
                  llvm::ArrayRef<llvm::Value *> arguments) -> llvm::Value * {
    return builder.CreateCall(moduleLowering.runtimeFunction(symbol, result, parameters),
                              arguments);
  };
  if (function == "seed") {
    llvm::Value *seed = asInt(0);
    raiseIf(builder.CreateICmpUGT(seed, builder.getInt64(0xFFFFFFFFLL)), ValueErrorId,
            "Seed must be between 0 and 2**32 - 1");
    call("taipan_np_random_seed", builder.getVoidTy(), {i64}, {seed});
    return llvm::UndefValue::get(valueType(context, resultType));
  }
  // One draw, as a function so sized forms can repeat it per element.
  std::function<llvm::Value *()> draw;
  size_t sizeParameter = 0;
  if (function == "random" || function == "random_sample" || function == "sample" ||
      function == "rand") {
    draw = [&] { return call("taipan_np_random_sample", f64, {}, {}); };
  } else if (function == "standard_normal" || function == "randn") {
    draw = [&] { return call("taipan_np_random_standard_normal", f64, {}, {}); };
  } else if (function == "uniform" || function == "normal") {
    sizeParameter = 2;
    bool uniform = function == "uniform";
    llvm::Value *first = asDouble(0, 0.0);
    llvm::Value *second = asDouble(1, 1.0);
    draw = [&, uniform, first, second] {
      return call(uniform ? "taipan_np_random_uniform" : "taipan_np_random_normal", f64, {f64, f64},
                  {first, second});
    };
  } else if (function == "randint") {
    sizeParameter = 2;
    llvm::Value *low = has(1) ? asInt(0) : builder.getInt64(0);
    llvm::Value *high = has(1) ? asInt(1) : asInt(0);
    raiseIf(builder.CreateICmpSGE(low, high), ValueErrorId, "low >= high");
    draw = [&, low, high] {
      return call("taipan_np_random_randint", i64, {i64, i64}, {low, high});
    };
  } else if (function == "shuffle" || function == "permutation") {
    const Type *given = types[order[0]];
    llvm::Value *array = values[order[0]];
    const Type *arrayType = given;
    if (function == "permutation") {
      if (given->isArray()) {
        arrayType = resultType;
        array = allocateArray(resultType, arrayShape(values[order[0]], given));
        copyBroadcast(array, resultType, values[order[0]], given);
      } else {
        arrayType = resultType;
        array = allocateArray(resultType, {asInt(0)});
        forEachIndex({asInt(0)}, [&](const std::vector<llvm::Value *> &at) {
          storeElement(elementAddress(array, resultType, at), at[0], types::int64());
        });
      }
    }
    // Rows of a C-contiguous array are swapped whole, as NumPy's legacy shuffle does.
    llvm::Value *rowBytes = arrayField(array, ArrayLayout::ItemSize);
    for (int i = 1; i < arrayType->ndim(); ++i)
      rowBytes = builder.CreateMul(rowBytes, arrayField(array, ArrayLayout::Shape, i));
    llvm::Value *rows =
        arrayType->ndim() ? arrayField(array, ArrayLayout::Shape, 0) : builder.getInt64(1);
    call("taipan_np_random_shuffle", builder.getVoidTy(), {builder.getPtrTy(), i64, i64, i64},
         {arrayField(array, ArrayLayout::Data), rows, rowBytes, rowBytes});
    if (function == "shuffle")
      return llvm::UndefValue::get(valueType(context, resultType));
    return array;
  } else if (function == "choice") {
    sizeParameter = 1;
    const Type *given = types[order[0]];
    llvm::Value *population = values[order[0]];
    llvm::Value *count = given->isArray() ? arrayField(population, ArrayLayout::Shape, 0)
                                          : castValue(population, given, types::int64());
    raiseIf(builder.CreateICmpSLE(count, builder.getInt64(0)), ValueErrorId,
            "a must be greater than 0 unless no samples are taken");
    draw = [&, given, population, count]() -> llvm::Value * {
      llvm::Value *index =
          call("taipan_np_random_randint", i64, {i64, i64}, {builder.getInt64(0), count});
      if (!given->isArray())
        return index;
      return loadElement(elementAddress(population, given, {index}), given->dtype());
    };
  } else {
    throwUnsupported("numpy.random." + function + " is not supported", expr->location);
  }
  if (!resultType->isArray())
    return draw();
  // Sized: rand(d0, d1...) takes the dimensions positionally, the others a size argument.
  std::vector<llvm::Value *> shape;
  if (function == "rand" || function == "randn") {
    for (size_t i = 0; i < values.size(); ++i)
      shape.push_back(castValue(values[i], types[i], types::int64()));
  } else {
    llvm::Value *size = values[order[sizeParameter]];
    const Type *sizeType = types[order[sizeParameter]];
    if (sizeType->isTuple())
      for (size_t i = 0; i < sizeType->elements().size(); ++i)
        shape.push_back(castValue(tupleElement(size, sizeType, static_cast<unsigned>(i)),
                                  sizeType->elements()[i], types::int64()));
    else
      shape.push_back(castValue(size, sizeType, types::int64()));
  }
  llvm::Value *array = allocateArray(resultType, shape);
  const Type *dtype = resultType->dtype();
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *value = draw();
    const Type *drawn = value->getType()->isDoubleTy() ? types::float64() : dtype;
    storeElement(elementAddress(array, resultType, at), castValue(value, drawn, dtype), dtype);
  });
  return array;
}

} // namespace taipan
