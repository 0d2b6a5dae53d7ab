// Python's cmath module: one library entry per function. Values compute in complex128; the
// runtime (runtime/PythonMath) reproduces CPython's special values and its errors.
#include "library/Families.h"

#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/OperatorLowering.h"
#include "runtime/PythonMath.h"
#include "runtime/Runtime.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace taipan {
namespace {

/// cmath.<name>(z): one number.
void add(Library &library, const std::string &name, const Type *result, LibraryLowerRule lower) {
  LibraryFunction function;
  function.name = "cmath." + name;
  function.parameters = {{"", false}};
  function.type = [result](const LibraryCall &call) {
    if (call.argumentTypes.size() != 1 || !call.argumentTypes[0]->isNumber())
      throwNoOverload(call);
    return result;
  };
  function.lower = std::move(lower);
  library.add(std::move(function));
}

/// A complex result the runtime writes through a pointer, raising CPython's ValueError or
/// OverflowError when its status says so (unless `raises` is false: a status CPython drops).
llvm::Value *complexFromRuntime(LoweringApi &lowering, const char *symbol,
                                llvm::ArrayRef<llvm::Type *> parameters,
                                std::vector<llvm::Value *> values, bool raises = true) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *f64 = builder.getDoubleTy();
  llvm::AllocaInst *out = lowering.createEntryAlloca(llvm::ArrayType::get(f64, 2), "cmath.result");
  std::vector<llvm::Type *> types(parameters.begin(), parameters.end());
  types.push_back(builder.getPtrTy());
  values.push_back(out);
  llvm::Value *status = builder.CreateCall(
      lowering.module().runtimeFunction(symbol, builder.getInt32Ty(), types), values);
  // In NumPy's arithmetic (a ufunc's loop) the value the runtime wrote is the result, as
  // NumPy's complex loops give it (C99's special values), not CPython's exception.
  bool numpyArithmetic = lowering.useNumpyArithmetic(true);
  lowering.useNumpyArithmetic(numpyArithmetic);
  if (!numpyArithmetic && raises) {
    lowering.exceptions().raiseIf(builder.CreateICmpEQ(status, builder.getInt32(ValueErrorId)),
                                  ValueErrorId, "math domain error");
    lowering.exceptions().raiseIf(builder.CreateICmpEQ(status, builder.getInt32(OverflowErrorId)),
                                  OverflowErrorId, "math range error");
  }
  return lowering.operators().makeComplex(
      builder.CreateLoad(f64, out),
      builder.CreateLoad(f64, builder.CreateConstInBoundsGEP1_64(f64, out, 1)),
      types::complex128());
}

/// The real and imaginary parts of the argument, as complex128.
llvm::Value *parts(LoweringApi &lowering, const LibraryCall &call,
                   const std::vector<llvm::Value *> &values, llvm::Value *&imag) {
  llvm::Value *value = lowering.castValue(values[0], call.argumentTypes[0], types::complex128());
  return lowering.operators().complexParts(value, imag);
}

/// exp, log, sqrt, sin...: CPython's algorithms in the runtime.
void addUnary(Library &library, const std::string &name, CmathFunction which) {
  add(library, name, types::complex128(),
      [which](LoweringApi &lowering, const LibraryCall &call,
              const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *imag;
        llvm::Value *re = parts(lowering, call, values, imag);
        llvm::Type *f64 = builder.getDoubleTy();
        return complexFromRuntime(lowering, "taipan_cmath_unary", {builder.getInt32Ty(), f64, f64},
                                  {builder.getInt32(which), re, imag});
      });
}

/// isinf and isfinite: from the magnitudes of both parts.
void addInfinityTest(Library &library, const std::string &name) {
  add(library, name, types::boolean(),
      [name](LoweringApi &lowering, const LibraryCall &call,
             const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *imag;
        llvm::Value *re = parts(lowering, call, values, imag);
        llvm::Value *infinity = llvm::ConstantFP::getInfinity(builder.getDoubleTy());
        llvm::Value *reAbs = lowering.callIntrinsic(llvm::Intrinsic::fabs, {re});
        llvm::Value *imAbs = lowering.callIntrinsic(llvm::Intrinsic::fabs, {imag});
        if (name == "isinf")
          return builder.CreateOr(builder.CreateFCmpOEQ(reAbs, infinity),
                                  builder.CreateFCmpOEQ(imAbs, infinity));
        return builder.CreateAnd(builder.CreateFCmpOLT(reAbs, infinity),
                                 builder.CreateFCmpOLT(imAbs, infinity));
      });
}

} // namespace

void registerCmathFunctions(Library &library) {
  const std::pair<const char *, CmathFunction> unary[] = {
      {"exp", CmathExp},     {"log10", CmathLog10}, {"sqrt", CmathSqrt},   {"sin", CmathSin},
      {"cos", CmathCos},     {"tan", CmathTan},     {"asin", CmathAsin},   {"acos", CmathAcos},
      {"atan", CmathAtan},   {"sinh", CmathSinh},   {"cosh", CmathCosh},   {"tanh", CmathTanh},
      {"asinh", CmathAsinh}, {"acosh", CmathAcosh}, {"atanh", CmathAtanh},
  };
  for (const auto &[name, which] : unary)
    addUnary(library, name, which);

  // log(z) and log(z, base) = log(z) / log(base).
  LibraryFunction log;
  log.name = "cmath.log";
  log.parameters = {{"", false}, {"", true}};
  log.type = [](const LibraryCall &call) {
    for (const Type *argument : call.argumentTypes)
      if (!argument->isNumber())
        throwNoOverload(call);
    return types::complex128();
  };
  log.lower = [](LoweringApi &lowering, const LibraryCall &call,
                 const std::vector<llvm::Value *> &values) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    llvm::Type *f64 = builder.getDoubleTy();
    auto logOf = [&](llvm::Value *value, const Type *type, bool raises) {
      llvm::Value *imag;
      llvm::Value *re = lowering.operators().complexParts(
          lowering.castValue(value, type, types::complex128()), imag);
      return complexFromRuntime(lowering, "taipan_cmath_unary", {builder.getInt32Ty(), f64, f64},
                                {builder.getInt32(CmathLog), re, imag}, raises);
    };
    // CPython's log(z, base) reports only the base's error (computing log(base) resets the
    // errno of log(z): log(0j, 1j) is nan+infj) and a zero divisor, base 1, as its math domain
    // error.
    llvm::Value *result = logOf(values[0], call.argumentTypes[0], values.size() == 1);
    if (values.size() == 1)
      return result;
    llvm::Value *base = logOf(values[1], call.argumentTypes[1], true);
    bool numpyArithmetic = lowering.useNumpyArithmetic(true);
    lowering.useNumpyArithmetic(numpyArithmetic);
    if (!numpyArithmetic) {
      llvm::Value *baseImag;
      llvm::Value *baseReal = lowering.operators().complexParts(base, baseImag);
      llvm::Value *zero = llvm::ConstantFP::get(f64, 0.0);
      lowering.exceptions().raiseIf(builder.CreateAnd(builder.CreateFCmpOEQ(baseReal, zero),
                                                      builder.CreateFCmpOEQ(baseImag, zero)),
                                    ValueErrorId, "math domain error");
    }
    return lowering.operators().lowerComplexBinary(BinaryOp::Div, result, base,
                                                   types::complex128());
  };
  library.add(std::move(log));

  add(library, "phase", types::float64(),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::Value *imag;
        llvm::Value *re = parts(lowering, call, values, imag);
        return lowering.callLibm("atan2", {imag, re}, types::float64());
      });
  add(library, "polar", types::tuple({types::float64(), types::float64()}),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::Value *imag;
        llvm::Value *re = parts(lowering, call, values, imag);
        const Type *real = types::float64();
        return lowering.lowerTuple({lowering.callLibm("hypot", {re, imag}, real),
                                    lowering.callLibm("atan2", {imag, re}, real)},
                                   call.resultType);
      });
  add(library, "isnan", types::boolean(),
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *imag;
        llvm::Value *re = parts(lowering, call, values, imag);
        return builder.CreateOr(builder.CreateFCmpUNO(re, re), builder.CreateFCmpUNO(imag, imag));
      });
  addInfinityTest(library, "isinf");
  addInfinityTest(library, "isfinite");

  // rect(r, phi): two reals.
  LibraryFunction rect;
  rect.name = "cmath.rect";
  rect.parameters = {{"", false}, {"", false}};
  rect.type = [](const LibraryCall &call) {
    const std::vector<const Type *> &arguments = call.argumentTypes;
    if (arguments.size() != 2 || !arguments[0]->isReal() || !arguments[1]->isReal())
      throwNoOverload(call.function->name, arguments, call.location);
    return types::complex128();
  };
  rect.lower = [](LoweringApi &lowering, const LibraryCall &call,
                  const std::vector<llvm::Value *> &values) {
    llvm::Type *f64 = lowering.irBuilder().getDoubleTy();
    const Type *real = types::float64();
    return complexFromRuntime(lowering, "taipan_cmath_rect", {f64, f64},
                              {lowering.castValue(values[0], call.argumentTypes[0], real),
                               lowering.castValue(values[1], call.argumentTypes[1], real)});
  };
  library.add(std::move(rect));
}

} // namespace taipan
