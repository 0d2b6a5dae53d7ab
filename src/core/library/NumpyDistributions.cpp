// np.random's distributions, one table row per function: the legacy RandomState samplers on
// the thread's stream (np.random.<name>) and the methods of a np.random.Generator argument
// (Generator.<name>), both drawn by the runtime (runtime/NumpyBitgen.h) with NumPy's checks.
#include "library/NumpyRandomSupport.h"

#include "library/SequenceArrays.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "runtime/NumpyBitgen.h"
#include "runtime/Runtime.h"
#include "types/RandomGeneratorType.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

#include <cmath>
#include <optional>

namespace taipan {
namespace {

using runtime::NumpyDistribution;
using D = NumpyDistribution;

/// Where a parameter goes in the runtime's draw: the doubles a, b, c or the integers i, j, k.
enum Slot { A, B, C, I, J, K };

/// NumPy's parameter constraints (numpy/random/_common.pyx check_constraint), each with its
/// message.
enum class Check {
  NonNegative,       ///< "x < 0" (a negative zero too; NaN passes)
  Positive,          ///< "x <= 0" (NaN passes)
  PositiveNotNan,    ///< "x must not be NaN", then "x <= 0"
  Bounded01,         ///< "x < 0, x > 1 or x is NaN"
  BoundedGt01,       ///< "x <= 0, x > 1 or x contains NaNs"
  BoundedLt01,       ///< "x < 0, x >= 1 or x is NaN"
  GreaterThan1,      ///< "x <= 1 or x is NaN"
  AtLeast1,          ///< "x < 1 or x is NaN"
  Poisson,           ///< "x < 0 or x is NaN", then "x value too large"
  LegacyPoisson,     ///< the same with the legacy (C long) bound
  NonNegativeInLong, ///< "x < 0" (the legacy RandomState's int64 bound is the C long's)
};

struct Parameter {
  const char *name;
  Slot slot;
  std::optional<double> fallback = std::nullopt;
};

struct Constraint {
  size_t parameter;
  Check check;
};

/// One sampling function: its parameters before `size`, the id the runtime draws by, whether
/// it gives int64 (else float64), and NumPy's checks in NumPy's order.
struct Distribution {
  const char *name;
  NumpyDistribution id;
  bool discrete;
  std::vector<Parameter> parameters;
  std::vector<Constraint> checks;
};

/// NumPy's largest lam: int64's maximum less ten of its square roots (_common.pyx).
const double PoissonLamMax = 9223372036854775807.0 - std::sqrt(9223372036854775807.0) * 10;

/// RandomState's functions as NumPy 2.4's mtrand.pyx declares them.
std::vector<Distribution> legacyDistributions() {
  return {
      {"standard_exponential", D::StandardExponential, false, {}, {}},
      {"exponential", D::Exponential, false, {{"scale", A, 1.0}}, {{0, Check::NonNegative}}},
      {"standard_gamma", D::StandardGamma, false, {{"shape", A}}, {{0, Check::NonNegative}}},
      {"gamma",
       D::Gamma,
       false,
       {{"shape", A}, {"scale", B, 1.0}},
       {{0, Check::NonNegative}, {1, Check::NonNegative}}},
      {"normal", D::Normal, false, {{"loc", A, 0.0}, {"scale", B, 1.0}}, {{1, Check::NonNegative}}},
      {"beta", D::Beta, false, {{"a", A}, {"b", B}}, {{0, Check::Positive}, {1, Check::Positive}}},
      {"chisquare", D::Chisquare, false, {{"df", A}}, {{0, Check::Positive}}},
      {"noncentral_chisquare",
       D::NoncentralChisquare,
       false,
       {{"df", A}, {"nonc", B}},
       {{0, Check::Positive}, {1, Check::NonNegative}}},
      {"f",
       D::F,
       false,
       {{"dfnum", A}, {"dfden", B}},
       {{0, Check::Positive}, {1, Check::Positive}}},
      {"noncentral_f",
       D::NoncentralF,
       false,
       {{"dfnum", A}, {"dfden", B}, {"nonc", C}},
       {{0, Check::Positive}, {1, Check::Positive}, {2, Check::NonNegative}}},
      {"standard_cauchy", D::StandardCauchy, false, {}, {}},
      {"standard_t", D::StandardT, false, {{"df", A}}, {{0, Check::Positive}}},
      {"pareto", D::Pareto, false, {{"a", A}}, {{0, Check::Positive}}},
      {"weibull", D::Weibull, false, {{"a", A}}, {{0, Check::NonNegative}}},
      {"power", D::Power, false, {{"a", A}}, {{0, Check::Positive}}},
      {"laplace",
       D::Laplace,
       false,
       {{"loc", A, 0.0}, {"scale", B, 1.0}},
       {{1, Check::NonNegative}}},
      {"gumbel", D::Gumbel, false, {{"loc", A, 0.0}, {"scale", B, 1.0}}, {{1, Check::NonNegative}}},
      {"logistic",
       D::Logistic,
       false,
       {{"loc", A, 0.0}, {"scale", B, 1.0}},
       {{1, Check::NonNegative}}},
      {"lognormal",
       D::Lognormal,
       false,
       {{"mean", A, 0.0}, {"sigma", B, 1.0}},
       {{1, Check::NonNegative}}},
      {"rayleigh", D::Rayleigh, false, {{"scale", A, 1.0}}, {{0, Check::NonNegative}}},
      {"wald",
       D::Wald,
       false,
       {{"mean", A}, {"scale", B}},
       {{0, Check::Positive}, {1, Check::Positive}}},
      {"vonmises", D::Vonmises, false, {{"mu", A}, {"kappa", B}}, {{1, Check::NonNegative}}},
      {"triangular", D::Triangular, false, {{"left", A}, {"mode", B}, {"right", C}}, {}},
      {"poisson", D::Poisson, true, {{"lam", A, 1.0}}, {{0, Check::LegacyPoisson}}},
      {"binomial",
       D::Binomial,
       true,
       {{"n", I}, {"p", A}},
       {{1, Check::Bounded01}, {0, Check::NonNegativeInLong}}},
      {"negative_binomial",
       D::NegativeBinomial,
       true,
       {{"n", A}, {"p", B}},
       {{0, Check::Positive}, {1, Check::Bounded01}}},
      {"geometric", D::Geometric, true, {{"p", A}}, {{0, Check::BoundedGt01}}},
      {"zipf", D::Zipf, true, {{"a", A}}, {{0, Check::GreaterThan1}}},
      {"logseries", D::Logseries, true, {{"p", A}}, {{0, Check::BoundedLt01}}},
      {"hypergeometric",
       D::Hypergeometric,
       true,
       {{"ngood", I}, {"nbad", J}, {"nsample", K}},
       {{0, Check::NonNegativeInLong}, {1, Check::NonNegative}, {2, Check::AtLeast1}}},
  };
}

/// Generator's methods as NumPy 2.4's _generator.pyx declares them, where Numba has them.
std::vector<Distribution> generatorDistributions() {
  std::vector<Distribution> shared;
  for (Distribution &legacy : legacyDistributions()) {
    std::string name = legacy.name;
    if (name == "hypergeometric")
      continue; // not a method Numba's Generator has
    if (name == "poisson")
      legacy.checks = {{0, Check::Poisson}};
    else if (name == "binomial")
      legacy.checks = {{1, Check::Bounded01}, {0, Check::NonNegative}};
    else if (name == "negative_binomial")
      legacy.checks = {{0, Check::PositiveNotNan}, {1, Check::BoundedGt01}};
    shared.push_back(std::move(legacy));
  }
  shared.push_back({"standard_normal", D::StandardNormal, false, {}, {}});
  shared.push_back({"random", D::StandardUniform, false, {}, {}});
  shared.push_back({"uniform", D::Uniform, false, {{"low", A, 0.0}, {"high", B, 1.0}}, {}});
  return shared;
}

/// The parameters a method takes after `size`: `dtype` (float64 only, as drawn) and
/// standard_exponential's `method`.
std::vector<std::string> trailingParameters(const std::string &name, bool generator) {
  if (!generator)
    return {};
  if (name == "standard_exponential")
    return {"dtype", "method"};
  if (name == "standard_normal" || name == "random" || name == "standard_gamma")
    return {"dtype"};
  return {};
}

llvm::Value *doubleConstant(LoweringApi &lowering, double value) {
  return llvm::ConstantFP::get(lowering.irBuilder().getDoubleTy(), value);
}

/// Raises NumPy's ValueError for `value` (a double, or an int64 for the integer slots) that
/// breaks `check`.
void emitCheck(LoweringApi &lowering, llvm::Value *value, Check check, const std::string &name) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  auto raise = [&](llvm::Value *condition, const std::string &message) {
    lowering.exceptions().raiseIf(condition, ValueErrorId, message);
  };
  if (value->getType()->isIntegerTy()) {
    llvm::Value *zero = builder.getInt64(0);
    if (check == Check::AtLeast1)
      raise(builder.CreateICmpSLT(value, builder.getInt64(1)),
            name + " < 1 or " + name + " is NaN");
    else
      raise(builder.CreateICmpSLT(value, zero), name + " < 0");
    return;
  }
  auto constant = [&](double number) { return doubleConstant(lowering, number); };
  // Ordered comparisons are false for NaN: `!(v >= 0)` holds for NaN as NumPy's does.
  auto notGe = [&](double bound) { return builder.CreateFCmpULT(value, constant(bound)); };
  auto notLe = [&](double bound) { return builder.CreateFCmpUGT(value, constant(bound)); };
  auto notGt = [&](double bound) { return builder.CreateFCmpULE(value, constant(bound)); };
  auto notLt = [&](double bound) { return builder.CreateFCmpUGE(value, constant(bound)); };
  switch (check) {
  case Check::NonNegative: {
    llvm::Value *bits = builder.CreateBitCast(value, builder.getInt64Ty());
    llvm::Value *negative = builder.CreateICmpSLT(bits, builder.getInt64(0));
    llvm::Value *ordered = builder.CreateFCmpORD(value, value);
    raise(builder.CreateAnd(negative, ordered), name + " < 0");
    return;
  }
  case Check::PositiveNotNan:
    raise(builder.CreateFCmpUNO(value, value), name + " must not be NaN");
    [[fallthrough]];
  case Check::Positive:
    raise(builder.CreateFCmpOLE(value, constant(0.0)), name + " <= 0");
    return;
  case Check::Bounded01:
    raise(builder.CreateOr(notGe(0.0), notLe(1.0)),
          name + " < 0, " + name + " > 1 or " + name + " is NaN");
    return;
  case Check::BoundedGt01:
    raise(builder.CreateOr(notGt(0.0), notLe(1.0)),
          name + " <= 0, " + name + " > 1 or " + name + " contains NaNs");
    return;
  case Check::BoundedLt01:
    raise(builder.CreateOr(notGe(0.0), notLt(1.0)),
          name + " < 0, " + name + " >= 1 or " + name + " is NaN");
    return;
  case Check::GreaterThan1:
    raise(notGt(1.0), name + " <= 1 or " + name + " is NaN");
    return;
  case Check::AtLeast1:
    raise(notGe(1.0), name + " < 1 or " + name + " is NaN");
    return;
  case Check::Poisson:
  case Check::LegacyPoisson:
    // A C long is int64 where taipan runs, so both bounds are the same number.
    raise(notGe(0.0), name + " < 0 or " + name + " is NaN");
    raise(notLe(PoissonLamMax), name + " value too large");
    return;
  case Check::NonNegativeInLong:
    raise(builder.CreateFCmpOLT(value, constant(0.0)), name + " < 0");
    return;
  }
}

/// The checks NumPy makes beyond the per-parameter constraints, before or after them.
void emitSpecialChecks(LoweringApi &lowering, const Distribution &distribution, bool generator,
                       std::vector<llvm::Value *> &arguments, bool beforeConstraints) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  std::string name = distribution.name;
  auto raise = [&](llvm::Value *condition, int id, const std::string &message) {
    lowering.exceptions().raiseIf(condition, id, message);
  };
  if (beforeConstraints) {
    if (name == "hypergeometric")
      raise(builder.CreateICmpSLT(builder.CreateAdd(arguments[0], arguments[1]), arguments[2]),
            ValueErrorId, "ngood + nbad < nsample");
    if (name == "triangular") {
      raise(builder.CreateFCmpOGT(arguments[0], arguments[1]), ValueErrorId, "left > mode");
      raise(builder.CreateFCmpOGT(arguments[1], arguments[2]), ValueErrorId, "mode > right");
      raise(builder.CreateFCmpOEQ(arguments[0], arguments[2]), ValueErrorId, "left == right");
    }
    if (name == "uniform" && generator) {
      // Generator checks the width it draws with: finite, and not negative.
      llvm::Value *width = builder.CreateFSub(arguments[1], arguments[0]);
      llvm::Value *finite = builder.CreateFCmpOLT(
          lowering.irBuilder().CreateUnaryIntrinsic(llvm::Intrinsic::fabs, width),
          doubleConstant(lowering, INFINITY));
      raise(builder.CreateNot(finite), OverflowErrorId, "high - low range exceeds valid bounds");
      emitCheck(lowering, width, Check::NonNegative, "high - low");
    }
    return;
  }
  if (name == "negative_binomial" && generator) {
    // The lam the Poisson draw could get must stay below NumPy's bound.
    llvm::Value *n = arguments[0], *p = arguments[1];
    llvm::Value *sqrtN = builder.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, n);
    llvm::Value *maxLam = builder.CreateFMul(
        builder.CreateFDiv(builder.CreateFSub(doubleConstant(lowering, 1.0), p), p),
        builder.CreateFAdd(n, builder.CreateFMul(doubleConstant(lowering, 10.0), sqrtN)));
    raise(builder.CreateFCmpOGT(maxLam, doubleConstant(lowering, PoissonLamMax)), ValueErrorId,
          "n too large or p too small, see Generator.negative_binomial Notes");
  }
}

/// The type rule: real parameters, an int or tuple size, float64 dtypes, a literal method.
const Type *typeDistribution(LibraryCall &call, const Distribution &distribution, size_t first,
                             const std::vector<std::string> &trailing) {
  for (size_t k = 0; k < distribution.parameters.size(); ++k) {
    size_t index = first + k;
    if (index >= call.argumentTypes.size() || !call.argumentTypes[index])
      continue;
    const Type *given = call.argumentTypes[index];
    bool omitted = given->isNone() && distribution.parameters[k].fallback;
    if (!given->isReal() && !omitted)
      throwNoImplementation(call);
  }
  size_t size = first + distribution.parameters.size();
  bool single = false;
  for (size_t t = 0; t < trailing.size(); ++t) {
    size_t index = size + 1 + t;
    if (trailing[t] == "dtype") {
      const Type *dtype = dtypeArgument(call, index, types::float64());
      if (dtype != types::float64() && dtype != types::float32())
        throwTypingError(std::string(distribution.name) +
                             ": dtype must be np.float64 or np.float32",
                         call.location);
      if (dtype == types::float32())
        single = true;
    } else if (isGiven(call, index)) {
      const Type *method = call.argumentTypes[index];
      if (method->kind() != TypeKind::StringLiteral ||
          (method->text() != "zig" && method->text() != "inv"))
        throwTypingError("method must be the literal 'zig' or 'inv'", call.location);
    }
  }
  const Type *scalar = distribution.discrete ? types::int64()
                       : single              ? types::float32()
                                             : types::float64();
  return sizedResult(call, scalar, size);
}

/// The lowering rule: convert and check the parameters, then draw once or per element.
llvm::Value *lowerDistribution(LoweringApi &lowering, const LibraryCall &call,
                               const std::vector<llvm::Value *> &values,
                               const Distribution &distribution, bool generator,
                               const std::vector<std::string> &trailing) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  size_t first = generator ? 1 : 0;
  std::vector<llvm::Value *> arguments;
  for (size_t k = 0; k < distribution.parameters.size(); ++k) {
    const Parameter &parameter = distribution.parameters[k];
    size_t index = first + k;
    bool integer = parameter.slot >= I;
    if (!isGiven(call, index)) {
      double fallback = parameter.fallback.value_or(0.0);
      arguments.push_back(integer ? builder.getInt64(static_cast<int64_t>(fallback))
                                  : doubleConstant(lowering, fallback));
    } else if (integer) {
      arguments.push_back(int64Argument(lowering, call, values, index));
    } else {
      arguments.push_back(
          lowering.castValue(values[index], call.argumentTypes[index], types::float64()));
    }
  }
  emitSpecialChecks(lowering, distribution, generator, arguments, true);
  for (const Constraint &constraint : distribution.checks)
    emitCheck(lowering, arguments[constraint.parameter], constraint.check,
              distribution.parameters[constraint.parameter].name);
  emitSpecialChecks(lowering, distribution, generator, arguments, false);

  llvm::Type *f64 = builder.getDoubleTy();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *slots[6] = {doubleConstant(lowering, 0.0), doubleConstant(lowering, 0.0),
                           doubleConstant(lowering, 0.0), builder.getInt64(0),
                           builder.getInt64(0),           builder.getInt64(0)};
  for (size_t k = 0; k < distribution.parameters.size(); ++k)
    slots[distribution.parameters[k].slot] = arguments[k];
  if (distribution.id == D::Uniform) // the runtime draws low + width * U
    slots[B] = builder.CreateFSub(slots[B], slots[A]);
  NumpyDistribution id = distribution.id;
  size_t size = first + distribution.parameters.size();
  if (id == D::StandardExponential && trailing.size() == 2 && isGiven(call, size + 2) &&
      call.argumentTypes[size + 2]->text() == "inv")
    id = D::StandardExponentialInverse;
  llvm::Value *code = builder.getInt32(static_cast<int32_t>(id));
  llvm::Type *ptr = builder.getPtrTy();
  llvm::Type *i32 = builder.getInt32Ty();
  bool single = !distribution.discrete && call.resultType->isArray()
                    ? call.resultType->dtype() == types::float32()
                    : call.resultType == types::float32();
  llvm::Value *singleA = single ? builder.CreateFPTrunc(slots[A], builder.getFloatTy()) : nullptr;
  RandomDraw draw = [&]() -> llvm::Value * {
    if (single) // dtype=np.float32: NumPy's float algorithms
      return callRandomRuntime(lowering, "taipan_np_generator_float32", builder.getFloatTy(),
                               {ptr, i32, builder.getFloatTy()}, {values[0], code, singleA});
    if (distribution.discrete) {
      if (generator)
        return callRandomRuntime(
            lowering, "taipan_np_generator_discrete", i64, {ptr, i32, f64, f64, i64, i64, i64},
            {values[0], code, slots[A], slots[B], slots[I], slots[J], slots[K]});
      return callRandomRuntime(lowering, "taipan_np_legacy_discrete", i64,
                               {i32, f64, f64, i64, i64, i64},
                               {code, slots[A], slots[B], slots[I], slots[J], slots[K]});
    }
    if (generator)
      return callRandomRuntime(lowering, "taipan_np_generator_continuous", f64,
                               {ptr, i32, f64, f64, f64},
                               {values[0], code, slots[A], slots[B], slots[C]});
    return callRandomRuntime(lowering, "taipan_np_legacy_continuous", f64, {i32, f64, f64, f64},
                             {code, slots[A], slots[B], slots[C]});
  };
  return drawSized(lowering, call, sizeShape(lowering, call, values, size), draw);
}

void addDistribution(Library &library, const Distribution &distribution, bool generator) {
  LibraryFunction function;
  function.name =
      std::string(generator ? "numpy.random.Generator." : "numpy.random.") + distribution.name;
  if (generator)
    function.parameters.push_back({"self", false});
  for (const Parameter &parameter : distribution.parameters)
    function.parameters.push_back({parameter.name, parameter.fallback.has_value()});
  function.parameters.push_back({"size", true});
  std::vector<std::string> trailing = trailingParameters(distribution.name, generator);
  for (const std::string &name : trailing)
    function.parameters.push_back({name, true});
  function.targets = OnCpu;
  size_t first = generator ? 1 : 0;
  function.type = [distribution, first, trailing](LibraryCall &call) {
    return typeDistribution(call, distribution, first, trailing);
  };
  function.lower = [distribution, generator, trailing](LoweringApi &lowering,
                                                       const LibraryCall &call,
                                                       const std::vector<llvm::Value *> &values) {
    return lowerDistribution(lowering, call, values, distribution, generator, trailing);
  };
  library.add(std::move(function));
}

/// A 1-D array, list or tuple of reals: multinomial's pvals, dirichlet's alpha.
bool isRealVector(const Type *type) {
  const Type *array = type->isArray() ? type : sequenceArrayType(type);
  return array && array->ndim() == 1 && array->dtype()->isReal();
}

/// A C-contiguous float64 vector holding a real vector argument, and its length.
llvm::Value *float64Vector(LoweringApi &lowering, llvm::Value *value, const Type *type,
                           llvm::Value **count) {
  const Type *vectorType = newArrayType(types::float64(), 1);
  llvm::Value *vector = value;
  if (!type->isArray()) {
    vector = lowerSequenceArray(lowering, value, type, vectorType);
  } else if (type->dtype() != types::float64() || type->layout() != 'C') {
    vector = lowering.arrays().allocateArray(vectorType, lowering.arrays().arrayShape(value, type));
    lowering.arrays().copyBroadcast(vector, vectorType, value, type);
  }
  *count = lowering.arrays().arrayField(vector, ArrayLayout::Shape, 0);
  return vector;
}

/// multinomial(n, pvals, size=None) and dirichlet(alpha, size=None): one row of `count` items
/// per element of `size`, each row filled by the runtime.
llvm::Value *lowerVectorDistribution(LoweringApi &lowering, const LibraryCall &call,
                                     const std::vector<llvm::Value *> &values, bool multinomial) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Type *ptr = builder.getPtrTy();
  size_t vectorIndex = multinomial ? 1 : 0;
  size_t size = vectorIndex + 1;
  llvm::Value *count = nullptr;
  llvm::Value *vector =
      float64Vector(lowering, values[vectorIndex], call.argumentTypes[vectorIndex], &count);
  llvm::Value *data = lowering.arrays().arrayField(vector, ArrayLayout::Data);
  llvm::Value *n = nullptr;
  llvm::Type *i32 = builder.getInt32Ty();
  if (multinomial) {
    llvm::Value *status =
        callRandomRuntime(lowering, "taipan_np_multinomial_check", i32, {ptr, i64}, {data, count});
    lowering.exceptions().raiseIf(builder.CreateICmpEQ(status, builder.getInt32(1)), ValueErrorId,
                                  "pvals < 0, pvals > 1 or pvals contains NaNs");
    lowering.exceptions().raiseIf(builder.CreateICmpEQ(status, builder.getInt32(2)), ValueErrorId,
                                  "sum(pvals[:-1]) > 1.0");
    n = int64Argument(lowering, call, values, 0);
    lowering.exceptions().raiseIf(builder.CreateICmpSLT(n, builder.getInt64(0)), ValueErrorId,
                                  "n < 0");
  } else {
    llvm::Value *status =
        callRandomRuntime(lowering, "taipan_np_dirichlet_check", i32, {ptr, i64}, {data, count});
    lowering.exceptions().raiseIf(builder.CreateICmpNE(status, builder.getInt32(0)), ValueErrorId,
                                  "alpha <= 0");
  }
  std::vector<llvm::Value *> shape;
  if (isGiven(call, size))
    shape = shapeExtents(lowering, values[size], call.argumentTypes[size]);
  llvm::Value *rows = builder.getInt64(1);
  for (llvm::Value *extent : shape)
    rows = builder.CreateMul(rows, extent);
  shape.push_back(count);
  llvm::Value *result = lowering.arrays().allocateArray(call.resultType, shape);
  llvm::Value *out = lowering.arrays().arrayField(result, ArrayLayout::Data);
  llvm::Type *item = multinomial ? i64 : builder.getDoubleTy();
  lowering.arrays().forEachIndex({rows}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *row = builder.CreateGEP(item, out, builder.CreateMul(at[0], count));
    if (multinomial)
      callRandomRuntime(lowering, "taipan_np_legacy_multinomial", builder.getVoidTy(),
                        {i64, ptr, i64, ptr}, {n, data, count, row});
    else
      callRandomRuntime(lowering, "taipan_np_legacy_dirichlet", builder.getVoidTy(),
                        {ptr, i64, ptr}, {data, count, row});
  });
  return result;
}

void addVectorDistribution(Library &library, bool multinomial) {
  LibraryFunction function;
  function.name = multinomial ? "numpy.random.multinomial" : "numpy.random.dirichlet";
  if (multinomial)
    function.parameters = {{"n"}, {"pvals"}, {"size", true}};
  else
    function.parameters = {{"alpha"}, {"size", true}};
  function.targets = OnCpu;
  function.type = [multinomial](LibraryCall &call) {
    size_t vectorIndex = multinomial ? 1 : 0;
    if ((multinomial && !call.argumentTypes[0]->isIntegerLike()) ||
        !isRealVector(call.argumentTypes[vectorIndex]))
      throwNoImplementation(call);
    int ndim = 1;
    if (isGiven(call, vectorIndex + 1)) {
      int sizeDimensions = shapeDimensions(call.argumentTypes[vectorIndex + 1]);
      if (sizeDimensions < 0)
        throwTypingError("size must be an integer or a tuple of integers", call.location);
      ndim += sizeDimensions;
    }
    return newArrayType(multinomial ? types::int64() : types::float64(), ndim);
  };
  function.lower = [multinomial](LoweringApi &lowering, const LibraryCall &call,
                                 const std::vector<llvm::Value *> &values) {
    return lowerVectorDistribution(lowering, call, values, multinomial);
  };
  library.add(std::move(function));
}

/// The dtypes Generator.integers draws: NumPy's integers of every width, and bool.
bool isIntegersDtype(const Type *dtype) { return dtype->isIntegerLike(); }

/// The width NumPy's bounded draws of `dtype` work in: 1 for bool, else the integer's bits.
int integersBits(const Type *dtype) { return dtype->isBoolean() ? 1 : dtype->bits(); }

/// Generator.integers(low, high=None, size=None, dtype=np.int64, endpoint=False).
llvm::Value *lowerIntegers(LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  const Type *dtype = call.resultType->isArray() ? call.resultType->dtype() : call.resultType;
  bool bounded = isGiven(call, 2);
  llvm::Value *low = bounded ? int64Argument(lowering, call, values, 1) : builder.getInt64(0);
  llvm::Value *high = int64Argument(lowering, call, values, bounded ? 2 : 1);
  llvm::Value *endpoint =
      isGiven(call, 5) ? lowering.truthValue(values[5], call.argumentTypes[5]) : builder.getFalse();
  // NumPy draws on the closed interval [low, high]: an open high loses one.
  llvm::Value *closedHigh =
      builder.CreateSelect(endpoint, high, builder.CreateSub(high, builder.getInt64(1)));
  std::vector<llvm::Value *> shape = sizeShape(lowering, call, values, 3);
  // NumPy returns an empty array for a size of no elements before checking anything.
  llvm::Value *sampling = builder.getTrue();
  if (!shape.empty()) {
    llvm::Value *total = builder.getInt64(1);
    for (llvm::Value *extent : shape)
      total = builder.CreateMul(total, extent);
    sampling = builder.CreateICmpNE(total, builder.getInt64(0));
  }
  auto check = [&](llvm::Value *condition, const std::string &message) {
    lowering.exceptions().raiseIf(builder.CreateAnd(sampling, condition), ValueErrorId, message);
  };
  std::string dtypeName = dtype->name();
  int bits = integersBits(dtype);
  if (bits < 64) {
    bool isSigned = dtype->isInteger() && dtype->isSigned();
    int64_t lowest = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t highest = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    check(builder.CreateICmpSLT(low, builder.getInt64(lowest)),
          "low is out of bounds for " + dtypeName);
    check(builder.CreateICmpSGT(closedHigh, builder.getInt64(highest)),
          "high is out of bounds for " + dtypeName);
  } else if (!dtype->isSigned()) {
    check(builder.CreateICmpSLT(low, builder.getInt64(0)), "low is out of bounds for " + dtypeName);
  }
  llvm::Value *empty = builder.CreateICmpSGT(low, closedHigh);
  llvm::Value *lowIsZero = builder.CreateICmpEQ(low, builder.getInt64(0));
  llvm::Value *open = builder.CreateNot(endpoint);
  auto raise = [&](llvm::Value *zero, llvm::Value *closed, const char *message) {
    check(builder.CreateAnd(empty, builder.CreateAnd(zero, closed)), message);
  };
  raise(lowIsZero, open, "high <= 0");
  raise(lowIsZero, endpoint, "high < 0");
  raise(builder.CreateNot(lowIsZero), open, "low >= high");
  raise(builder.CreateNot(lowIsZero), endpoint, "low > high");
  llvm::Value *range = builder.CreateSub(closedHigh, low);
  if (bits >= 32)
    return drawSized(lowering, call, shape, [&]() -> llvm::Value * {
      llvm::Value *drawn =
          callRandomRuntime(lowering, "taipan_np_generator_bounded", i64,
                            {builder.getPtrTy(), i64, i64}, {values[0], low, range});
      return lowering.castValue(drawn, types::int64(), dtype);
    });
  // Narrow dtypes share one 32-bit word among several draws of a fill (NumPy's buffer), so the
  // buffer starts empty at each call and lives through its fill.
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::Value *bufferCount = lowering.createEntryAlloca(i32, "integers.buffer.count");
  llvm::Value *buffer = lowering.createEntryAlloca(i32, "integers.buffer");
  builder.CreateStore(builder.getInt32(0), bufferCount);
  builder.CreateStore(builder.getInt32(0), buffer);
  llvm::Value *narrowRange = builder.CreateTrunc(range, i32);
  return drawSized(lowering, call, shape, [&]() -> llvm::Value * {
    llvm::Value *drawn =
        callRandomRuntime(lowering, "taipan_np_generator_bounded_small", i32,
                          {builder.getPtrTy(), i32, i32, builder.getPtrTy(), builder.getPtrTy()},
                          {values[0], narrowRange, builder.getInt32(bits), bufferCount, buffer});
    // NumPy's off + draw in the dtype's width: low's bits, wrapped (bool's off is 0).
    llvm::Value *value = builder.CreateAdd(builder.CreateZExt(drawn, i64), low);
    return lowering.castValue(value, types::int64(), dtype);
  });
}

/// Generator.shuffle(x, axis=0) in place and Generator.permutation(x, axis=0): the slices
/// along the axis swapped through the Generator's bit generator, in NumPy's order.
llvm::Value *lowerGeneratorShuffle(LoweringApi &lowering, const LibraryCall &call,
                                   const std::vector<llvm::Value *> &values, bool isShuffle) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Type *i64 = builder.getInt64Ty();
  const Type *given = call.argumentTypes[1];
  llvm::Value *array = values[1];
  const Type *arrayType = given;
  llvm::Value *axis = builder.getInt64(0);
  if (!isShuffle) {
    arrayType = call.resultType;
    if (given->isArray()) {
      array = lowering.arrays().allocateArray(arrayType,
                                              lowering.arrays().arrayShape(values[1], given));
      lowering.arrays().copyBroadcast(array, arrayType, values[1], given);
    } else { // arange(x); NumPy ignores the axis of an integer
      llvm::Value *count = int64Argument(lowering, call, values, 1);
      array = lowering.arrays().allocateArray(arrayType, {count});
      lowering.arrays().forEachIndex({count}, [&](const std::vector<llvm::Value *> &at) {
        lowering.arrays().storeElement(lowering.arrays().elementAddress(array, arrayType, at),
                                       at[0], types::int64());
      });
    }
  }
  if (isGiven(call, 2) && given->isArray())
    axis = int64Argument(lowering, call, values, 2);
  llvm::Value *ndim = builder.getInt64(arrayType->ndim());
  axis = builder.CreateSelect(builder.CreateICmpSLT(axis, builder.getInt64(0)),
                              builder.CreateAdd(axis, ndim), axis);
  lowering.exceptions().raiseIf(builder.CreateOr(builder.CreateICmpSLT(axis, builder.getInt64(0)),
                                                 builder.CreateICmpSGE(axis, ndim)),
                                IndexErrorId, "Axis is out of bounds for the given array");
  llvm::Value *fields = lowering.createEntryAlloca(array->getType(), "shuffle.array");
  builder.CreateStore(array, fields);
  callRandomRuntime(lowering, "taipan_np_generator_shuffle_axis", builder.getVoidTy(),
                    {builder.getPtrTy(), builder.getPtrTy(), i64, i64, i64, builder.getInt32Ty()},
                    {values[0], fields, ndim, axis,
                     builder.getInt64(static_cast<int64_t>(arrayType->dtype()->itemSize())),
                     builder.getInt32(isShuffle ? 0 : 1)});
  return isShuffle ? noneValue(lowering) : array;
}

void addGeneratorMethods(Library &library) {
  LibraryFunction integers;
  integers.name = "numpy.random.Generator.integers";
  integers.parameters = {{"self"},       {"low"},         {"high", true},
                         {"size", true}, {"dtype", true}, {"endpoint", true}};
  integers.targets = OnCpu;
  integers.type = [](LibraryCall &call) {
    if (!call.argumentTypes[1]->isIntegerLike() ||
        (isGiven(call, 2) && !call.argumentTypes[2]->isIntegerLike()) ||
        (isGiven(call, 5) && !call.argumentTypes[5]->isIntegerLike()))
      throwNoImplementation(call);
    const Type *dtype = dtypeArgument(call, 4, types::int64());
    if (!isIntegersDtype(dtype))
      throwTypingError("Generator.integers: dtype must be an integer dtype or bool, not " +
                           dtype->name(),
                       call.location);
    return sizedResult(call, dtype, 3);
  };
  integers.lower = lowerIntegers;
  library.add(std::move(integers));

  for (bool isShuffle : {true, false}) {
    LibraryFunction function;
    function.name =
        isShuffle ? "numpy.random.Generator.shuffle" : "numpy.random.Generator.permutation";
    function.parameters = {{"self"}, {"x"}, {"axis", true}};
    function.targets = OnCpu;
    function.type = [isShuffle](LibraryCall &call) -> const Type * {
      const Type *given = call.argumentTypes[1];
      if (isGiven(call, 2) && !call.argumentTypes[2]->isIntegerLike())
        throwNoImplementation(call);
      if (isShuffle) {
        if (!given->isArray() || given->isReadonly())
          throwTypingError("Generator.shuffle takes a writable array", call.location);
        return types::none();
      }
      if (given->isIntegerLike())
        return newArrayType(types::int64(), 1);
      if (given->isArray())
        return newArrayType(given->dtype(), given->ndim());
      throwNoImplementation(call);
    };
    function.lower = [isShuffle](LoweringApi &lowering, const LibraryCall &call,
                                 const std::vector<llvm::Value *> &values) {
      return lowerGeneratorShuffle(lowering, call, values, isShuffle);
    };
    library.add(std::move(function));
  }
}

} // namespace

void registerNumpyDistributions(Library &library) {
  for (const Distribution &distribution : legacyDistributions())
    addDistribution(library, distribution, false);
  for (const Distribution &distribution : generatorDistributions())
    addDistribution(library, distribution, true);
  addVectorDistribution(library, true);
  addVectorDistribution(library, false);
  addGeneratorMethods(library);
}

} // namespace taipan
