// Python's math module: one library entry per function, its type rule (Numba's: float32 stays
// float32, other reals compute in float64) next to its lowering (LLVM intrinsics or libm).
#include "library/Families.h"

#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "types/NumericPromotion.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <numbers>

namespace taipan {
namespace {

/// Checks that a call has `count` real arguments.
void expectReals(const LibraryCall &call, size_t count) {
  if (call.argumentTypes.size() != count)
    throwNoOverload(call);
  for (const Type *argument : call.argumentTypes)
    if (!argument->isReal())
      throwNoOverload(call);
}

/// The arguments converted to the call's (float) result type.
std::vector<llvm::Value *> asResult(LoweringApi &lowering, const LibraryCall &call,
                                    const std::vector<llvm::Value *> &values) {
  std::vector<llvm::Value *> converted;
  for (size_t i = 0; i < values.size(); ++i)
    converted.push_back(lowering.castValue(values[i], call.argumentTypes[i], call.resultType));
  return converted;
}

/// math.<name>(x...): `count` positional-only parameters (the last `optional` of them may be
/// left out).
void add(Library &library, const std::string &name, size_t count, LibraryTypeRule type,
         LibraryLowerRule lower, size_t optional = 0) {
  LibraryFunction function;
  function.name = "math." + name;
  for (size_t i = 0; i < count; ++i)
    function.parameters.push_back({"", i >= count - optional});
  function.type = std::move(type);
  function.lower = std::move(lower);
  library.add(std::move(function));
}

/// A function of one real returning a float, computed by the libm function `symbol` (or an
/// LLVM intrinsic, which LLVM may fold or vectorise).
void addUnary(Library &library, const std::string &name, const std::string &symbol,
              llvm::Intrinsic::ID intrinsic = llvm::Intrinsic::not_intrinsic) {
  add(
      library, name, 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        return realMathType(call.argumentTypes[0]);
      },
      [symbol, intrinsic](LoweringApi &lowering, const LibraryCall &call,
                          const std::vector<llvm::Value *> &values) {
        std::vector<llvm::Value *> x = asResult(lowering, call, values);
        if (intrinsic != llvm::Intrinsic::not_intrinsic)
          return lowering.callIntrinsic(intrinsic, x);
        return lowering.callLibm(symbol, x, call.resultType);
      });
}

/// radians and degrees: a multiplication.
void addScaling(Library &library, const std::string &name, double factor) {
  add(
      library, name, 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        return realMathType(call.argumentTypes[0]);
      },
      [factor](LoweringApi &lowering, const LibraryCall &call,
               const std::vector<llvm::Value *> &values) {
        llvm::Value *x = asResult(lowering, call, values)[0];
        return lowering.irBuilder().CreateFMul(x, llvm::ConstantFP::get(x->getType(), factor));
      });
}

/// The float a function of two reals (atan2, hypot, pow...) computes in: float32 for two
/// float32s, else float64, as Numba's math functions and CPython's (math.pow(np.float32(1.5),
/// np.uint8(255)) is 8e44, which float32 would make inf).
const Type *binaryMathType(const LibraryCall &call) {
  expectReals(call, 2);
  const std::vector<const Type *> &arguments = call.argumentTypes;
  return arguments[0] == arguments[1] ? realMathType(arguments[0]) : types::float64();
}

/// A function of two reals returning a float (atan2, pow, fmod...).
void addBinary(Library &library, const std::string &name,
               llvm::Intrinsic::ID intrinsic = llvm::Intrinsic::not_intrinsic) {
  add(library, name, 2, binaryMathType,
      [name, intrinsic](LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
        std::vector<llvm::Value *> xy = asResult(lowering, call, values);
        if (intrinsic != llvm::Intrinsic::not_intrinsic)
          return lowering.callIntrinsic(intrinsic, xy);
        return lowering.callLibm(name, xy, call.resultType);
      });
}

/// isnan, isinf, isfinite: integers are always finite.
void addClassification(Library &library, const std::string &name) {
  add(
      library, name, 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        return types::boolean();
      },
      [name](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) -> llvm::Value * {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        if (!call.argumentTypes[0]->isFloat())
          return builder.getInt1(name == "isfinite");
        llvm::Value *value = values[0];
        if (name == "isnan")
          return builder.CreateFCmpUNO(value, value);
        llvm::Value *magnitude = lowering.callIntrinsic(llvm::Intrinsic::fabs, {value});
        llvm::Value *infinity = llvm::ConstantFP::getInfinity(value->getType());
        return name == "isinf" ? builder.CreateFCmpOEQ(magnitude, infinity)
                               : builder.CreateFCmpOLT(magnitude, infinity);
      });
}

/// floor, ceil, trunc: an int64, exact for integers; a uint64 stays one (integralType).
void addRounding(Library &library, const std::string &name, llvm::Intrinsic::ID intrinsic) {
  add(
      library, name, 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        return integralType(call.argumentTypes[0]);
      },
      [intrinsic](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
        const Type *argument = call.argumentTypes[0];
        if (!argument->isFloat())
          return lowering.castValue(values[0], argument, call.resultType);
        return lowering.castValue(lowering.callIntrinsic(intrinsic, {values[0]}), argument,
                                  call.resultType);
      });
}

/// math.gcd(a, b): Euclid's algorithm on the absolute values.
llvm::Value *lowerGcd(LoweringApi &lowering, const LibraryCall &call,
                      const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const Type *result = call.resultType;
  llvm::Value *a = lowering.castValue(values[0], call.argumentTypes[0], result);
  llvm::Value *b = lowering.castValue(values[1], call.argumentTypes[1], result);
  llvm::Value *zero = llvm::ConstantInt::get(a->getType(), 0);
  auto absolute = [&](llvm::Value *v) {
    return result->isSigned()
               ? builder.CreateSelect(builder.CreateICmpSLT(v, zero), builder.CreateNeg(v), v)
               : v;
  };
  a = absolute(a);
  b = absolute(b);
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *loop = lowering.newBlock("gcd.loop");
  llvm::BasicBlock *done = lowering.newBlock("gcd.done");
  builder.CreateCondBr(builder.CreateICmpEQ(b, zero), done, loop);
  builder.SetInsertPoint(loop);
  llvm::PHINode *x = builder.CreatePHI(a->getType(), 2);
  llvm::PHINode *y = builder.CreatePHI(a->getType(), 2);
  x->addIncoming(a, before);
  y->addIncoming(b, before);
  llvm::Value *remainder = builder.CreateURem(x, y);
  x->addIncoming(y, loop);
  y->addIncoming(remainder, loop);
  builder.CreateCondBr(builder.CreateICmpEQ(remainder, zero), done, loop);
  builder.SetInsertPoint(done);
  llvm::PHINode *gcd = builder.CreatePHI(a->getType(), 2);
  gcd->addIncoming(a, before);
  gcd->addIncoming(y, loop);
  return gcd;
}

/// frexp and modf: libm writes the second result through a pointer.
llvm::Value *lowerSplit(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  const std::string name = call.function->name.substr(5);
  const Type *floatType = call.resultType->elements()[0];
  llvm::Value *value = lowering.castValue(values[0], call.argumentTypes[0], floatType);
  bool isFrexp = name == "frexp";
  llvm::Type *outType =
      isFrexp ? builder.getInt32Ty() : valueType(lowering.llvmContext(), floatType);
  llvm::AllocaInst *out = lowering.createEntryAlloca(outType, name + ".out");
  llvm::Value *first = lowering.callLibm(name, {value, out}, floatType);
  llvm::Value *second = builder.CreateLoad(outType, out);
  if (isFrexp)
    second = builder.CreateSExt(second, builder.getInt64Ty());
  return lowering.lowerTuple({first, second}, call.resultType);
}

/// math.hypot: CPython's own algorithm for a float64 (taipan_math_hypot), which rounds some
/// results differently from C's hypot. A float32 keeps C's hypotf, and a GPU thread (without the
/// host runtime) libdevice's hypot.
llvm::Value *lowerHypot(LoweringApi &lowering, const LibraryCall &call,
                        const std::vector<llvm::Value *> &values) {
  std::vector<llvm::Value *> xy = asResult(lowering, call, values);
  if (call.resultType->bits() != 64 || lowering.module().target.hasThreadHierarchy())
    return lowering.callLibm("hypot", xy, call.resultType);
  llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
  llvm::FunctionCallee hypot =
      lowering.module().runtimeFunction("taipan_math_hypot", f64, {f64, f64});
  // A function of its numbers alone, as libm's: loops calling it can hoist it.
  if (auto *declared = llvm::dyn_cast<llvm::Function>(hypot.getCallee())) {
    declared->setDoesNotAccessMemory();
    declared->setDoesNotThrow();
    declared->setWillReturn();
  }
  return lowering.irBuilder().CreateCall(hypot, xy);
}

} // namespace

void registerMathFunctions(Library &library) {
  using llvm::Intrinsic::ID;
  addUnary(library, "sqrt", "sqrt", llvm::Intrinsic::sqrt);
  addUnary(library, "fabs", "fabs", llvm::Intrinsic::fabs);
  addUnary(library, "gamma", "tgamma");
  for (const char *name : {"exp",   "exp2",  "log2", "log10", "log1p",  "expm1", "sin",  "cos",
                           "tan",   "asin",  "acos", "atan",  "sinh",   "cosh",  "tanh", "asinh",
                           "acosh", "atanh", "erf",  "erfc",  "lgamma", "cbrt"})
    addUnary(library, name, name);
  addScaling(library, "radians", std::numbers::pi / 180.0);
  addScaling(library, "degrees", 180.0 / std::numbers::pi);
  // log(x) and log(x, base) = log(x) / log(base).
  add(
      library, "log", 2,
      [](const LibraryCall &call) {
        expectReals(call, call.argumentTypes.size());
        return call.argumentTypes.size() == 1 ? realMathType(call.argumentTypes[0])
                                              : types::float64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        std::vector<llvm::Value *> x = asResult(lowering, call, values);
        llvm::Value *log = lowering.callLibm("log", {x[0]}, call.resultType);
        if (x.size() == 1)
          return log;
        return lowering.irBuilder().CreateFDiv(log,
                                               lowering.callLibm("log", {x[1]}, call.resultType));
      },
      1);
  addRounding(library, "floor", llvm::Intrinsic::floor);
  addRounding(library, "ceil", llvm::Intrinsic::ceil);
  addRounding(library, "trunc", llvm::Intrinsic::trunc);
  for (const char *name : {"isnan", "isinf", "isfinite"})
    addClassification(library, name);
  addBinary(library, "copysign", llvm::Intrinsic::copysign);
  for (const char *name : {"atan2", "pow", "fmod", "remainder", "nextafter"})
    addBinary(library, name);
  add(library, "hypot", 2, binaryMathType, lowerHypot);
  add(
      library, "gcd", 2,
      [](const LibraryCall &call) {
        const std::vector<const Type *> &arguments = call.argumentTypes;
        if (arguments.size() != 2 || !arguments[0]->isIntegerLike() ||
            !arguments[1]->isIntegerLike())
          throwNoOverload(call.function->name, arguments, call.location);
        return binaryOperandType(BinaryOp::Add, arguments[0], arguments[1]);
      },
      lowerGcd);
  add(
      library, "ldexp", 2,
      [](const LibraryCall &call) {
        const std::vector<const Type *> &arguments = call.argumentTypes;
        if (arguments.size() != 2 || !arguments[0]->isReal() || !arguments[1]->isIntegerLike())
          throwNoOverload(call.function->name, arguments, call.location);
        return realMathType(arguments[0]);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::Value *mantissa =
            lowering.castValue(values[0], call.argumentTypes[0], call.resultType);
        llvm::Value *exponent =
            lowering.castValue(values[1], call.argumentTypes[1], types::integer(32, true));
        return lowering.callLibm("ldexp", {mantissa, exponent}, call.resultType);
      });
  add(
      library, "frexp", 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        return types::tuple({realMathType(call.argumentTypes[0]), types::int64()});
      },
      lowerSplit);
  add(
      library, "modf", 1,
      [](const LibraryCall &call) {
        expectReals(call, 1);
        const Type *real = realMathType(call.argumentTypes[0]);
        return types::tuple({real, real});
      },
      lowerSplit);
}

} // namespace taipan
