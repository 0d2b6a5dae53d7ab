// Tests of the library registry: lookup, Python's argument binding for library functions, and
// the type rules of registered entries.
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

TEST(LibraryTest, DescribesTargets) {
  EXPECT_EQ(describeTargets(OnCpu), "the CPU");
  EXPECT_EQ(describeTargets(OnGpu), "the GPU");
  EXPECT_EQ(describeTargets(OnEveryTarget), "every target");
}

} // namespace
} // namespace taipan
