// Python's random module, one library entry per function: CPython's Mersenne Twister in the
// runtime (runtime/Random), seeded and drawn as CPython does. CPU only: a GPU thread has no
// generator state (kernels use cuda.random).
#include "library/Families.h"

#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/OperatorLowering.h"
#include "runtime/Runtime.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

/// random.<name>: `count` positional-only parameters, the last `optional` of which may be left
/// out, each accepted by `accept`; the result type is fixed.
void add(Library &library, const std::string &name, size_t count, size_t optional,
         bool (Type::*accept)() const, const Type *result, LibraryLowerRule lower) {
  LibraryFunction function;
  function.name = "random." + name;
  for (size_t i = 0; i < count; ++i)
    function.parameters.push_back({"", i >= count - optional});
  function.targets = OnCpu;
  function.type = [accept, result](const LibraryCall &call) {
    for (const Type *argument : call.argumentTypes)
      if (!(argument->*accept)())
        throwNoOverload(call);
    return result;
  };
  function.lower = std::move(lower);
  library.add(std::move(function));
}

llvm::Value *asDouble(LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values, size_t i, double fallback) {
  if (i >= values.size())
    return llvm::ConstantFP::get(lowering.irBuilder().getDoubleTy(), fallback);
  return lowering.castValue(values[i], call.argumentTypes[i], types::float64());
}

llvm::Value *asInt(LoweringApi &lowering, const LibraryCall &call,
                   const std::vector<llvm::Value *> &values, size_t i) {
  return lowering.castValue(values[i], call.argumentTypes[i], types::int64());
}

llvm::Value *callRuntime(LoweringApi &lowering, const char *symbol, llvm::Type *result,
                         llvm::ArrayRef<llvm::Type *> parameters,
                         llvm::ArrayRef<llvm::Value *> values) {
  return lowering.irBuilder().CreateCall(
      lowering.module().runtimeFunction(symbol, result, parameters), values);
}

/// randint and randrange: the runtime reports an empty range through an error flag.
llvm::Value *lowerRange(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::AllocaInst *error = lowering.createEntryAlloca(builder.getInt32Ty(), "random.error");
  llvm::Value *value;
  if (call.function->name == "random.randint") {
    value =
        callRuntime(lowering, "taipan_random_randint", i64, {i64, i64, builder.getPtrTy()},
                    {asInt(lowering, call, values, 0), asInt(lowering, call, values, 1), error});
  } else {
    bool single = values.size() == 1;
    llvm::Value *start = single ? builder.getInt64(0) : asInt(lowering, call, values, 0);
    llvm::Value *stop = asInt(lowering, call, values, single ? 0 : 1);
    llvm::Value *step = values.size() == 3 ? asInt(lowering, call, values, 2) : builder.getInt64(1);
    value = callRuntime(lowering, "taipan_random_randrange", i64,
                        {i64, i64, i64, builder.getPtrTy()}, {start, stop, step, error});
  }
  lowering.exceptions().raiseIf(
      builder.CreateICmpNE(builder.CreateLoad(builder.getInt32Ty(), error), builder.getInt32(0)),
      ValueErrorId, "empty range for randrange()");
  return value;
}

/// gauss and normalvariate(mu=0, sigma=1).
void addNormal(Library &library, const std::string &name, size_t optional, const char *symbol) {
  add(library, name, 2, optional, &Type::isReal, types::float64(),
      [symbol](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
        llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
        return callRuntime(
            lowering, symbol, f64, {f64, f64},
            {asDouble(lowering, call, values, 0, 0.0), asDouble(lowering, call, values, 1, 1.0)});
      });
}

} // namespace

void registerRandomFunctions(Library &library) {
  add(library, "random", 0, 0, &Type::isReal, types::float64(),
      [](LoweringApi &lowering, const LibraryCall &, const std::vector<llvm::Value *> &) {
        return lowering.operators().lowerRandomDouble();
      });
  add(library, "uniform", 2, 0, &Type::isReal, types::float64(),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *low = asDouble(lowering, call, values, 0, 0.0);
        llvm::Value *high = asDouble(lowering, call, values, 1, 1.0);
        return builder.CreateFAdd(low,
                                  builder.CreateFMul(builder.CreateFSub(high, low),
                                                     lowering.operators().lowerRandomDouble()));
      });
  add(library, "seed", 1, 0, &Type::isIntegerLike, types::none(),
      [](LoweringApi &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &values) -> llvm::Value * {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        callRuntime(lowering, "taipan_random_seed", builder.getVoidTy(), {builder.getInt64Ty()},
                    {asInt(lowering, call, values, 0)});
        return llvm::UndefValue::get(valueType(lowering.llvmContext(), types::none()));
      });
  addNormal(library, "gauss", 2, "taipan_random_gauss");
  addNormal(library, "normalvariate", 0, "taipan_random_normalvariate");
  add(library, "getrandbits", 1, 0, &Type::isIntegerLike, types::uint64(),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        return callRuntime(
            lowering, "taipan_random_getrandbits", builder.getInt64Ty(), {builder.getInt32Ty()},
            {builder.CreateTrunc(asInt(lowering, call, values, 0), builder.getInt32Ty())});
      });
  add(library, "randint", 2, 0, &Type::isIntegerLike, types::int64(), lowerRange);
  add(library, "randrange", 3, 2, &Type::isIntegerLike, types::int64(), lowerRange);
}

} // namespace taipan
