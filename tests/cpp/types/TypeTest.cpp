// TypeTest.cpp - Unit tests of types/Type.h: interning, Numba's type names, the memory layout
// of scalars and tuples, and the lookup of scalar types by name.

#include "types/Type.h"

#include "../testing/TypePrinter.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace taipan;

namespace {

TEST(TypeTest, EqualTypesAreTheSamePointer) {
  EXPECT_EQ(types::integer(64, true), types::int64());
  EXPECT_EQ(types::integer(64, false), types::uint64());
  EXPECT_EQ(types::floating(64), types::float64());
  EXPECT_EQ(types::floating(32), types::float32());
  EXPECT_EQ(types::complex(128), types::complex128());
  EXPECT_EQ(types::intp(), types::int64());
  EXPECT_EQ(types::integer(32, true), types::integer(32, true));
  EXPECT_NE(types::integer(32, true), types::integer(32, false));
  EXPECT_NE(types::integer(32, true), types::integer(64, true));
  EXPECT_NE(types::float32(), types::float64());

  const Type *pair = types::tuple({types::int64(), types::float64()});
  EXPECT_EQ(pair, types::tuple({types::int64(), types::float64()}));
  EXPECT_NE(pair, types::tuple({types::float64(), types::int64()}));
  EXPECT_EQ(types::tuple({pair, types::boolean()}), types::tuple({pair, types::boolean()}));

  EXPECT_EQ(types::array(types::float64(), 2, 'C', false),
            types::array(types::float64(), 2, 'C', false));
  EXPECT_NE(types::array(types::float64(), 2, 'C', false),
            types::array(types::float64(), 2, 'F', false));
  EXPECT_NE(types::array(types::float64(), 2, 'C', false),
            types::array(types::float64(), 2, 'C', true));

  EXPECT_EQ(types::module("math"), types::module("math"));
  EXPECT_NE(types::module("math"), types::module("cmath"));
  EXPECT_EQ(types::builtin("math.sqrt"), types::builtin("math.sqrt"));
  EXPECT_EQ(types::stringLiteral("hi"), types::stringLiteral("hi"));
  EXPECT_NE(types::stringLiteral("hi"), types::stringLiteral("ho"));
  EXPECT_EQ(types::exceptionClass(1, "ZeroDivisionError"),
            types::exceptionClass(1, "ZeroDivisionError"));
  EXPECT_NE(types::exceptionClass(1, "Error"), types::exceptionClass(2, "Error"));
}

TEST(TypeTest, CompileTimeTypesOfDifferentKindsAreDistinct) {
  // A module, a builtin and a string literal with the same text must not share an entry.
  EXPECT_NE(types::module("x"), types::builtin("x"));
  EXPECT_NE(types::module("x"), types::stringLiteral("x"));
  EXPECT_EQ(types::module("x")->kind(), TypeKind::Module);
  EXPECT_EQ(types::builtin("x")->kind(), TypeKind::Builtin);
  EXPECT_EQ(types::builtin("math.sqrt")->text(), "math.sqrt");
  EXPECT_EQ(types::exceptionClass(7, "MyError")->exceptionId(), 7);
  EXPECT_EQ(types::exceptionClass(7, "MyError")->text(), "MyError");
}

TEST(TypeTest, JitFunctionTypesAreKeyedByFunction) {
  FunctionSource *first = reinterpret_cast<FunctionSource *>(0x1000);
  FunctionSource *second = reinterpret_cast<FunctionSource *>(0x2000);
  EXPECT_EQ(types::jitFunction(first), types::jitFunction(first));
  EXPECT_NE(types::jitFunction(first), types::jitFunction(second));
  EXPECT_EQ(types::jitFunction(first)->function(), first);
  EXPECT_EQ(types::jitFunction(first)->kind(), TypeKind::JitFunction);
}

TEST(TypeTest, InterningIsThreadSafe) {
  std::vector<const Type *> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&seen, i] {
      const Type *result = nullptr;
      for (int repeat = 0; repeat < 200; ++repeat)
        result = types::tuple(
            {types::integer(16, false), types::complex(64), types::stringLiteral("thread")});
      seen[i] = result;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const Type *type : seen)
    EXPECT_EQ(type, seen.front());
}

TEST(TypeTest, ScalarNames) {
  EXPECT_EQ(types::int64()->name(), "int64");
  EXPECT_EQ(types::uint64()->name(), "uint64");
  EXPECT_EQ(types::integer(8, true)->name(), "int8");
  EXPECT_EQ(types::integer(32, false)->name(), "uint32");
  EXPECT_EQ(types::float32()->name(), "float32");
  EXPECT_EQ(types::float64()->name(), "float64");
  EXPECT_EQ(types::complex(64)->name(), "complex64");
  EXPECT_EQ(types::complex128()->name(), "complex128");
  EXPECT_EQ(types::boolean()->name(), "bool");
  EXPECT_EQ(types::none()->name(), "none");
  EXPECT_EQ(types::range()->name(), "range_state64");
}

TEST(TypeTest, CompoundNames) {
  EXPECT_EQ(types::tuple({types::int64(), types::int64(), types::int64()})->name(),
            "UniTuple(int64 x 3)");
  EXPECT_EQ(types::tuple({types::int64(), types::float64()})->name(), "Tuple(int64, float64)");
  EXPECT_EQ(types::tuple({types::boolean()})->name(), "UniTuple(bool x 1)");
  EXPECT_EQ(types::tuple({})->name(), "Tuple()");
  const Type *inner = types::tuple({types::float32(), types::float32()});
  EXPECT_EQ(types::tuple({inner, types::int64()})->name(), "Tuple(UniTuple(float32 x 2), int64)");
  EXPECT_EQ(types::array(types::float64(), 2, 'C', false)->name(), "array(float64, 2d, C)");
  EXPECT_EQ(types::array(types::integer(32, true), 1, 'A', false)->name(), "array(int32, 1d, A)");
  EXPECT_EQ(types::array(types::float32(), 3, 'F', true)->name(), "readonly array(float32, 3d, F)");
}

TEST(TypeTest, KindPredicates) {
  EXPECT_TRUE(types::boolean()->isBoolean());
  EXPECT_TRUE(types::boolean()->isNumber());
  EXPECT_TRUE(types::int64()->isInteger());
  EXPECT_TRUE(types::int64()->isSigned());
  EXPECT_FALSE(types::uint64()->isSigned());
  EXPECT_EQ(types::integer(16, true)->bits(), 16);
  EXPECT_EQ(types::complex128()->bits(), 128);
  EXPECT_TRUE(types::complex128()->isComplex());
  EXPECT_TRUE(types::complex128()->isNumber());
  EXPECT_FALSE(types::none()->isNumber());
  EXPECT_TRUE(types::none()->isNone());

  const Type *uniform = types::tuple({types::int64(), types::int64()});
  const Type *mixed = types::tuple({types::int64(), types::float64()});
  EXPECT_TRUE(uniform->isTuple());
  EXPECT_TRUE(uniform->isUniformTuple());
  EXPECT_FALSE(mixed->isUniformTuple());
  EXPECT_FALSE(types::tuple({})->isUniformTuple());
  ASSERT_EQ(mixed->elements().size(), 2u);
  EXPECT_EQ(mixed->elements()[1], types::float64());

  const Type *array = types::array(types::float64(), 2, 'C', false);
  EXPECT_TRUE(array->isArray());
  EXPECT_EQ(array->dtype(), types::float64());
  EXPECT_EQ(array->ndim(), 2);
  EXPECT_EQ(array->layout(), 'C');
  EXPECT_FALSE(array->isReadonly());
}

TEST(TypeTest, RuntimeValues) {
  EXPECT_TRUE(types::int64()->isRuntimeValue());
  EXPECT_TRUE(types::none()->isRuntimeValue());
  EXPECT_TRUE(types::range()->isRuntimeValue());
  EXPECT_TRUE(types::tuple({types::int64(), types::boolean()})->isRuntimeValue());
  EXPECT_FALSE(types::module("math")->isRuntimeValue());
  EXPECT_FALSE(types::builtin("abs")->isRuntimeValue());
  EXPECT_FALSE(types::stringLiteral("text")->isRuntimeValue());
  EXPECT_FALSE(types::tuple({types::int64(), types::module("math")})->isRuntimeValue());
}

TEST(TypeTest, ScalarStorage) {
  EXPECT_EQ(types::boolean()->storageSize(), 1u);
  EXPECT_EQ(types::boolean()->storageAlignment(), 1u);
  EXPECT_EQ(types::integer(8, true)->storageSize(), 1u);
  EXPECT_EQ(types::integer(16, false)->storageSize(), 2u);
  EXPECT_EQ(types::integer(32, true)->storageSize(), 4u);
  EXPECT_EQ(types::int64()->storageSize(), 8u);
  EXPECT_EQ(types::int64()->storageAlignment(), 8u);
  EXPECT_EQ(types::float32()->storageSize(), 4u);
  EXPECT_EQ(types::float32()->storageAlignment(), 4u);
  EXPECT_EQ(types::float64()->storageSize(), 8u);
  EXPECT_EQ(types::complex(64)->storageSize(), 8u);
  EXPECT_EQ(types::complex(64)->storageAlignment(), 4u);
  EXPECT_EQ(types::complex128()->storageSize(), 16u);
  EXPECT_EQ(types::complex128()->storageAlignment(), 8u);
  EXPECT_EQ(types::range()->storageSize(), 32u); // four int64s, as its LLVM struct
  EXPECT_EQ(types::range()->storageAlignment(), 8u);
  EXPECT_EQ(types::none()->storageSize(), 0u);
}

TEST(TypeTest, TupleLayout) {
  const Type *boolDouble = types::tuple({types::boolean(), types::float64()});
  EXPECT_EQ(boolDouble->elementOffset(0), 0u);
  EXPECT_EQ(boolDouble->elementOffset(1), 8u);
  EXPECT_EQ(boolDouble->storageSize(), 16u);
  EXPECT_EQ(boolDouble->storageAlignment(), 8u);

  const Type *doubleBool = types::tuple({types::float64(), types::boolean()});
  EXPECT_EQ(doubleBool->elementOffset(1), 8u);
  EXPECT_EQ(doubleBool->storageSize(), 16u); // padded to its alignment

  const Type *triple = types::tuple({types::int64(), types::int64(), types::int64()});
  EXPECT_EQ(triple->elementOffset(2), 16u);
  EXPECT_EQ(triple->storageSize(), 24u);

  const Type *small = types::tuple(
      {types::boolean(), types::integer(16, true), types::boolean(), types::integer(32, true)});
  EXPECT_EQ(small->elementOffset(0), 0u);
  EXPECT_EQ(small->elementOffset(1), 2u);
  EXPECT_EQ(small->elementOffset(2), 4u);
  EXPECT_EQ(small->elementOffset(3), 8u);
  EXPECT_EQ(small->storageSize(), 12u);
  EXPECT_EQ(small->storageAlignment(), 4u);

  const Type *floats = types::tuple({types::float32(), types::complex128()});
  EXPECT_EQ(floats->elementOffset(1), 8u);
  EXPECT_EQ(floats->storageSize(), 24u);

  const Type *nested =
      types::tuple({types::boolean(), types::tuple({types::float32(), types::float64()})});
  EXPECT_EQ(nested->elementOffset(1), 8u);
  EXPECT_EQ(nested->storageSize(), 24u);

  EXPECT_EQ(types::tuple({})->storageSize(), 0u);
  EXPECT_EQ(types::tuple({types::boolean(), types::boolean()})->storageSize(), 2u);
}

TEST(TypeTest, ScalarByNameAliases) {
  EXPECT_EQ(types::scalarByName("int64"), types::int64());
  EXPECT_EQ(types::scalarByName("i8"), types::int64());
  EXPECT_EQ(types::scalarByName("int8"), types::integer(8, true));
  EXPECT_EQ(types::scalarByName("i1"), types::integer(8, true));
  EXPECT_EQ(types::scalarByName("u1"), types::integer(8, false));
  EXPECT_EQ(types::scalarByName("uint16"), types::integer(16, false));
  EXPECT_EQ(types::scalarByName("u8"), types::uint64());
  EXPECT_EQ(types::scalarByName("i4"), types::integer(32, true));
  EXPECT_EQ(types::scalarByName("intp"), types::int64());
  EXPECT_EQ(types::scalarByName("uintp"), types::uint64());
  EXPECT_EQ(types::scalarByName("intc"), types::integer(32, true));
  EXPECT_EQ(types::scalarByName("uintc"), types::integer(32, false));
  EXPECT_EQ(types::scalarByName("float32"), types::float32());
  EXPECT_EQ(types::scalarByName("f4"), types::float32());
  EXPECT_EQ(types::scalarByName("float64"), types::float64());
  EXPECT_EQ(types::scalarByName("f8"), types::float64());
  EXPECT_EQ(types::scalarByName("double"), types::float64());
  EXPECT_EQ(types::scalarByName("complex64"), types::complex(64));
  EXPECT_EQ(types::scalarByName("c8"), types::complex(64));
  EXPECT_EQ(types::scalarByName("complex128"), types::complex128());
  EXPECT_EQ(types::scalarByName("c16"), types::complex128());
  EXPECT_EQ(types::scalarByName("bool"), types::boolean());
  EXPECT_EQ(types::scalarByName("boolean"), types::boolean());
  EXPECT_EQ(types::scalarByName("b1"), types::boolean());
  EXPECT_EQ(types::scalarByName("bool_"), types::boolean());
  EXPECT_EQ(types::scalarByName("none"), types::none());
  EXPECT_EQ(types::scalarByName("void"), types::none());
}

TEST(TypeTest, HalfPrecisionHasItsNames) {
  EXPECT_EQ(types::scalarByName("float16"), types::floating(16));
  EXPECT_EQ(types::scalarByName("f2"), types::floating(16));
  EXPECT_EQ(types::floating(16)->storageSize(), 2u);
}

TEST(TypeTest, ScalarByNameRejectsUnknownNames) {
  EXPECT_EQ(types::scalarByName("int128"), nullptr);
  EXPECT_EQ(types::scalarByName("float128"), nullptr);
  EXPECT_EQ(types::scalarByName("Int64"), nullptr);
  EXPECT_EQ(types::scalarByName(""), nullptr);
  EXPECT_EQ(types::scalarByName("UniTuple(int64 x 3)"), nullptr);
}

} // namespace
