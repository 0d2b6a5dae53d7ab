// Tests of the library registry: lookup, Python's argument binding for library functions, the
// type rules of registered entries and the loops ufunc entries select.
#include "library/Families.h"

#include <gtest/gtest.h>

namespace taipan {
namespace {

TEST(LibraryTest, FindsRegisteredFunctionsOnly) {
  const Library &library = Library::get();
  ASSERT_NE(library.find("math.sqrt"), nullptr);
  EXPECT_EQ(library.find("math.sqrt")->name, "math.sqrt");
  EXPECT_EQ(library.find("math.sqrt")->targets, OnEveryTarget);
  EXPECT_EQ(library.find("math.no_such_function"), nullptr);
  EXPECT_EQ(library.find("sqrt"), nullptr);
}

TEST(LibraryTest, TypeRulesFollowNumba) {
  const LibraryFunction *sqrt = Library::get().find("math.sqrt");
  LibraryCall call;
  call.function = sqrt;
  call.argumentTypes = {types::float32()};
  EXPECT_EQ(sqrt->type(call), types::float32());
  call.argumentTypes = {types::int64()};
  EXPECT_EQ(sqrt->type(call), types::float64());
  call.argumentTypes = {types::complex128()};
  EXPECT_THROW(sqrt->type(call), CompileError);
  const LibraryFunction *frexp = Library::get().find("math.frexp");
  call.function = frexp;
  call.argumentTypes = {types::float64()};
  EXPECT_EQ(frexp->type(call), types::tuple({types::float64(), types::int64()}));
}

TEST(LibraryTest, BindsPositionalOnlyAndOptionalParameters) {
  FunctionSource source;
  Expr *x = source.newExpr(ExprKind::Constant, {1, 0});
  Expr *base = source.newExpr(ExprKind::Constant, {1, 4});
  const LibraryFunction &log = *Library::get().find("math.log");
  EXPECT_EQ(Library::bindArguments(log, {x}, {}, {}, {}).size(), 1u);
  EXPECT_EQ(Library::bindArguments(log, {x, base}, {}, {}, {}).size(), 2u);
  EXPECT_THROW(Library::bindArguments(log, {x, base, x}, {}, {}, {}), CompileError);
  EXPECT_THROW(Library::bindArguments(log, {}, {}, {}, {}), CompileError);
  // math functions take no keywords, as in CPython.
  EXPECT_THROW(Library::bindArguments(log, {x}, {"base"}, {base}, {}), CompileError);
}

TEST(LibraryTest, BindsKeywordsByName) {
  LibraryFunction function;
  function.name = "test.f";
  function.parameters = {{"a", false}, {"b", true}, {"c", true}};
  FunctionSource source;
  Expr *a = source.newExpr(ExprKind::Constant, {1, 0});
  Expr *b = source.newExpr(ExprKind::Constant, {1, 2});
  std::vector<Expr *> bound = Library::bindArguments(function, {a}, {"b"}, {b}, {});
  ASSERT_EQ(bound.size(), 2u);
  EXPECT_EQ(bound[0], a);
  EXPECT_EQ(bound[1], b);
  EXPECT_THROW(Library::bindArguments(function, {a}, {"a"}, {b}, {}), CompileError);
  EXPECT_THROW(Library::bindArguments(function, {a}, {"d"}, {b}, {}), CompileError);
  // c given while b is left out: b is a null argument.
  bound = Library::bindArguments(function, {a}, {"c"}, {b}, {});
  ASSERT_EQ(bound.size(), 3u);
  EXPECT_EQ(bound[1], nullptr);
  EXPECT_EQ(bound[2], b);
}

TEST(LibraryTest, HoldsNumpyFunctionsMethodsAndAttributes) {
  const Library &library = Library::get();
  ASSERT_NE(library.find("numpy.sum"), nullptr);
  ASSERT_NE(library.find("array.sum"), nullptr);
  EXPECT_FALSE(library.find("array.sum")->isAttribute);
  ASSERT_NE(library.find("array.shape"), nullptr);
  EXPECT_TRUE(library.find("array.shape")->isAttribute);
  EXPECT_EQ(library.find("numpy.random.rand")->targets, OnCpu);
  const LibraryFunction *shape = library.find("array.shape");
  LibraryCall call;
  call.function = shape;
  call.argumentTypes = {types::array(types::float32(), 2, 'C', false)};
  EXPECT_EQ(shape->type(call), types::tuple({types::int64(), types::int64()}));
  // np.zeros(3, dtype=None): a skipped dtype is float64; sum along an axis drops it.
  const LibraryFunction *zeros = library.find("numpy.zeros");
  call.function = zeros;
  call.argumentTypes = {types::int64(), types::none()};
  EXPECT_EQ(zeros->type(call), types::array(types::float64(), 1, 'C', false));
  const LibraryFunction *sum = library.find("array.sum");
  call.function = sum;
  call.argumentTypes = {types::array(types::integer(32, true), 2, 'C', false), types::int64()};
  EXPECT_EQ(sum->type(call), types::array(types::int64(), 1, 'C', false));
}

TEST(LibraryTest, HoldsPythonBuiltinsAndCudaIntrinsics) {
  const Library &library = Library::get();
  for (const char *name : {"abs",
                           "min",
                           "max",
                           "round",
                           "int",
                           "float",
                           "bool",
                           "complex",
                           "divmod",
                           "pow",
                           "len",
                           "print",
                           "range",
                           "sum",
                           "enumerate",
                           "zip",
                           "method.conjugate",
                           "numpy.float32",
                           "cuda.syncthreads",
                           "cuda.atomic.add",
                           "cuda.shared.array",
                           "cuda.cg.grid_group.sync"})
    EXPECT_NE(library.find(name), nullptr) << name;
  EXPECT_EQ(library.find("cuda.syncthreads")->targets, OnGpu);
  EXPECT_EQ(library.find("abs")->targets, OnEveryTarget);
  EXPECT_TRUE(library.find("print")->lowersArguments);
  // Values and the namespaces the registered names make.
  ASSERT_NE(library.findValue("cuda.threadIdx.x"), nullptr);
  EXPECT_EQ(library.findValue("cuda.warpsize")->type, types::integer(32, true));
  EXPECT_EQ(library.find("cuda.threadIdx.x"), nullptr);
  for (const char *name : {"cuda.threadIdx", "cuda.atomic", "cuda.shared", "cuda.cg.grid_group"})
    EXPECT_TRUE(library.isNamespace(name)) << name;
  EXPECT_FALSE(library.isNamespace("cuda"));
  EXPECT_FALSE(library.isNamespace("math"));
}

TEST(LibraryTest, CudaArraysDeclareTheirShapeConstant) {
  for (const char *name : {"cuda.shared.array", "cuda.local.array"}) {
    const LibraryFunction *array = Library::get().find(name);
    ASSERT_NE(array, nullptr) << name;
    ASSERT_TRUE(array->constantArgument.has_value()) << name;
    EXPECT_EQ(array->constantArgument->position, 0u);
    EXPECT_NE(array->constantArgument->requirement.find("constant shape"), std::string::npos);
  }
  EXPECT_FALSE(Library::get().find("math.sqrt")->constantArgument.has_value());
}

TEST(LibraryTest, TypeRulesRecordTheirDecisions) {
  const LibraryFunction *zip = Library::get().find("zip");
  LibraryCall call;
  call.function = zip;
  call.argumentTypes = {types::array(types::float64(), 1, 'C', false), types::range()};
  call.iteratedByLoop = true;
  EXPECT_EQ(zip->type(call), types::none());
  EXPECT_EQ(call.iteration, LibraryIteration::ArgumentsInStep);
  // Outside a for loop, zip builds tuples only.
  LibraryCall built;
  built.function = zip;
  built.argumentTypes = call.argumentTypes;
  EXPECT_THROW(zip->type(built), CompileError);
  const LibraryFunction *grid = Library::get().find("cuda.grid");
  LibraryCall gridCall;
  gridCall.function = grid;
  gridCall.argumentTypes = {types::int64()};
  gridCall.constants = {2};
  EXPECT_EQ(grid->type(gridCall), types::tuple({types::int64(), types::int64()}));
  gridCall.constants = {4};
  EXPECT_THROW(grid->type(gridCall), CompileError);
}

TEST(LibraryTest, PositionalOnlyFunctionsRefuseKeywords) {
  FunctionSource source;
  Expr *x = source.newExpr(ExprKind::Constant, {1, 0});
  const LibraryFunction &syncwarp = *Library::get().find("cuda.syncwarp");
  try {
    Library::bindArguments(syncwarp, {}, {"mask"}, {x}, {});
    FAIL() << "a keyword was accepted";
  } catch (const CompileError &error) {
    EXPECT_EQ(error.kind, CompileErrorKind::Unsupported);
    EXPECT_NE(std::string(error.what()).find("cuda.syncwarp() takes no keyword arguments"),
              std::string::npos);
  }
  const LibraryFunction &shared = *Library::get().find("cuda.shared.array");
  EXPECT_EQ(Library::bindArguments(shared, {}, {"dtype", "shape"}, {x, x}, {}).size(), 2u);
}

/// The type of a call of ufunc `name` on `arguments`; its loop is left in `call`.
const Type *typeUfunc(const std::string &name, const std::vector<const Type *> &arguments,
                      LibraryCall &call) {
  call.function = Library::get().find(name);
  call.argumentTypes = arguments;
  return call.function->type(call);
}

TEST(LibraryTest, UfuncsRecordNumpysLoopAndBroadcastOverArrays) {
  LibraryCall call;
  ASSERT_TRUE(Library::get().find("numpy.sin")->ufunc.has_value());
  EXPECT_FALSE(Library::get().find("math.sin")->ufunc.has_value());
  // Small integers compute in float32, wider ones in float64.
  EXPECT_EQ(typeUfunc("numpy.sin", {types::integer(16, true)}, call), types::float32());
  EXPECT_EQ(call.loop.inputs, std::vector<const Type *>{types::float32()});
  EXPECT_EQ(typeUfunc("numpy.sin", {types::int64()}, call), types::float64());
  // Integers divide in float64; the loop converts both inputs.
  const Type *int8 = types::integer(8, true);
  EXPECT_EQ(typeUfunc("numpy.divide", {int8, int8}, call), types::float64());
  EXPECT_EQ(call.loop.inputs, (std::vector<const Type *>{types::float64(), types::float64()}));
  // abs of a complex number is its real magnitude.
  EXPECT_EQ(typeUfunc("numpy.abs", {types::complex(64)}, call), types::float32());
  EXPECT_EQ(call.loop.inputs, std::vector<const Type *>{types::complex(64)});
  // where keeps its condition's type and promotes the values.
  const Type *array = types::array(types::float32(), 2, 'A', true);
  EXPECT_EQ(typeUfunc("numpy.where", {types::boolean(), int8, array}, call),
            types::array(types::float32(), 2, 'C', false));
  EXPECT_EQ(call.loop.inputs,
            (std::vector<const Type *>{types::boolean(), types::float32(), types::float32()}));
  EXPECT_EQ(call.loop.output, types::float32());
  // No loop: complex fmod, or an operand that is not a number.
  EXPECT_THROW(typeUfunc("numpy.fmod", {types::complex128(), types::complex128()}, call),
               CompileError);
  EXPECT_THROW(typeUfunc("numpy.sin", {types::none()}, call), CompileError);
}

TEST(LibraryTest, DescribesTargets) {
  EXPECT_EQ(describeTargets(OnCpu), "the CPU");
  EXPECT_EQ(describeTargets(OnGpu), "the GPU");
  EXPECT_EQ(describeTargets(OnEveryTarget), "every target");
  EXPECT_EQ(describeTargetMismatch("cuda.syncthreads()", OnCpu, OnGpu),
            "cuda.syncthreads() is not supported on the CPU (it runs on the GPU, in CUDA kernels "
            "and device functions)");
}

} // namespace
} // namespace taipan
