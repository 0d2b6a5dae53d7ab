// TypeClassesTest.cpp - Unit tests of types/TypeClasses.h: each kind's class and payload, the
// LLVM-style casts, and the check of accessors read on a type of another kind.

#include "types/ClassInstanceTypes.h"
#include "types/Type.h"
#include "types/UserTypes.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

using namespace taipan;

namespace {

TEST(TypeClassesTest, EachKindHasItsClass) {
  EXPECT_TRUE(isa<NumberType>(types::int64()));
  EXPECT_TRUE(isa<NumberType>(types::boolean()));
  EXPECT_TRUE(isa<NumberType>(types::complex128()));
  EXPECT_FALSE(isa<NumberType>(types::none()));
  EXPECT_TRUE(isa<DatetimeType>(types::datetime(10)));
  EXPECT_TRUE(isa<ArrayType>(types::array(types::float64(), 2, 'F', false)));
  EXPECT_TRUE(isa<TupleType>(types::tuple({types::int64()})));
  EXPECT_TRUE(isa<WrapperType>(types::optional(types::int64())));
  EXPECT_TRUE(isa<ListType>(types::typedList(types::int64())));
  EXPECT_TRUE(isa<WrapperType>(types::list(types::int64())));
  EXPECT_TRUE(isa<HashedContainerType>(types::set(types::int64())));
  EXPECT_TRUE(isa<DictViewType>(types::dictView(types::dict(types::int64(), types::int64()), 1)));
  EXPECT_TRUE(isa<SymbolType>(types::module("math")));
  EXPECT_TRUE(isa<RegistryEntryType>(types::exceptionClass(3, "ValueError")));
  EXPECT_TRUE(isa<FunctionSignatureType>(types::firstClassFunction({}, types::int64())));
  EXPECT_TRUE(isa<PythonDefinedType>(types::userType(9001, "Interval")));
  EXPECT_FALSE(isa<ArrayType>(nullptr));
}

TEST(TypeClassesTest, NamedTuplesAreTuples) {
  const Type *point =
      types::namedTuple("geometry.Point", 7, {"x", "y"}, {types::float64(), types::float64()});
  ASSERT_TRUE(isa<TupleType>(point));
  const NamedTupleType *named = dyn_cast<NamedTupleType>(point);
  ASSERT_NE(named, nullptr);
  EXPECT_EQ(named->classId(), 7);
  EXPECT_EQ(named->className(), "geometry.Point");
  EXPECT_EQ(named->fields(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(dyn_cast<NamedTupleType>(types::tuple({types::float64()})), nullptr);
  EXPECT_TRUE(types::literalList({types::int64(), types::unicode()})->isLiteralList());
}

TEST(TypeClassesTest, CastToTheWrongClassThrows) {
  EXPECT_EQ(cast<ArrayType>(types::array(types::int64(), 1, 'C', false))->dimensions(), 1);
  EXPECT_THROW(cast<ArrayType>(types::int64()), std::logic_error);
  EXPECT_EQ(dyn_cast<ArrayType>(types::int64()), nullptr);
}

TEST(TypeClassesTest, PayloadsDoNotShareFields) {
  // Each of these once read a field that another kind used for something else.
  const Type *aligned = types::record({"a"}, {types::integer(32, true)}, {0}, 4, true);
  EXPECT_TRUE(aligned->isAligned());
  const Type *external =
      types::externalFunction("f", {types::float64()}, types::float64(), true, 0x1000);
  EXPECT_TRUE(external->usesCConvention());
  EXPECT_EQ(external->address(), 0x1000u);
  const Type *items = types::dictView(types::dict(types::int64(), types::float64()), 2);
  EXPECT_EQ(items->viewKind(), 2);
  EXPECT_EQ(items->viewItemType(), types::tuple({types::int64(), types::float64()}));
  EXPECT_TRUE(types::frozenset(types::int64())->isFrozen());
  EXPECT_FALSE(types::set(types::int64())->isFrozen());
  EXPECT_EQ(types::datetime(10)->datetimeUnit(), 10);
  EXPECT_EQ(types::datetime(10)->bits(), 64);
  EXPECT_TRUE(types::sliceValue(true)->sliceHasStep());
  EXPECT_FALSE(types::sliceValue(false)->sliceHasStep());
}

TEST(TypeClassesTest, ClassInstancesKeepTheirOwnIdsAndLayouts) {
  const Type *instance = types::classInstance(424242, "mod.Point", "instance.jitclass.Point#x");
  EXPECT_EQ(classIdOf(instance), 424242);
  EXPECT_EQ(classFieldsLayout(instance), nullptr);
  EXPECT_TRUE(types::defineClassFields(instance, {"x", "y"}, {types::float64(), types::int64()}));
  EXPECT_FALSE(types::defineClassFields(instance, {"z"}, {types::float64()}));
  EXPECT_EQ(classFieldsLayout(instance), types::tuple({types::float64(), types::int64()}));
  EXPECT_EQ(instance->fieldIndex("y"), 1);
  EXPECT_EQ(instance->text(), "mod.Point");

  const Type *user = types::userType(424243, "Interval");
  EXPECT_EQ(userTypeId(user), 424243);
  EXPECT_FALSE(user->isRuntimeValue());
  EXPECT_TRUE(types::defineUserTypeModel(user, {"lo", "hi"},
                                         types::tuple({types::float64(), types::float64()})));
  EXPECT_TRUE(user->isRuntimeValue());
  EXPECT_EQ(userTypeMemberNames(user), (std::vector<std::string>{"lo", "hi"}));
  EXPECT_EQ(user->storageSize(), 16u);
}

TEST(TypeClassesTest, AccessorsOfAnotherKindAreReported) {
  // ctest sets TAIPAN_STRICT_TYPES, as the Python tests do: a read of another kind's payload
  // is an error there (elsewhere it gives an empty value).
  ASSERT_NE(std::getenv("TAIPAN_STRICT_TYPES"), nullptr);
  EXPECT_THROW(types::datetime(10)->ndim(), std::logic_error);
  EXPECT_THROW(types::int64()->dtype(), std::logic_error);
  EXPECT_THROW(types::record({"a"}, {types::integer(32, true)}, {0}, 4, true)->isSigned(),
               std::logic_error);
  try {
    (void)types::dictView(types::dict(types::int64(), types::int64()), 0)->ndim();
    FAIL() << "ndim() of a dict view was not reported";
  } catch (const std::logic_error &error) {
    EXPECT_NE(std::string(error.what()).find("ndim()"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("dict_keys"), std::string::npos) << error.what();
  }
  // Component types are defined for every kind: empty where a kind has none.
  EXPECT_TRUE(types::int64()->elements().empty());
}

} // namespace
