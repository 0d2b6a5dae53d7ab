// Tests of the library registry: lookup, Python's argument binding for library functions, the
// type rules of registered entries and the loops ufunc entries select.
#include "library/Library.h"

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
  // c given while b is left out cannot be passed as a trailing argument list.
  EXPECT_THROW(Library::bindArguments(function, {a}, {"c"}, {b}, {}), CompileError);
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
}

} // namespace
} // namespace taipan
