// DataModelsTest.cpp - Unit tests of types/DataModels.h: every kind's model gives the size and
// alignment LLVM lays its representation out with, the references a value holds, and the
// registry serves a model registered for a kind.

#include "types/DataModels.h"

#include "lower/LowerTypes.h"
#include "types/ClassInstanceTypes.h"
#include "types/UserTypes.h"

#include <llvm/IR/DataLayout.h>
#include <llvm/IR/LLVMContext.h>

#include <gtest/gtest.h>

using namespace taipan;

namespace {

/// The x86-64 data layout taipan's CPU code uses (NVPTX64 agrees on these types). One per
/// test, as its LLVMContext: a DataLayout caches struct layouts by the types' addresses.
llvm::DataLayout layout() {
  return llvm::DataLayout(
      "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128");
}

/// A user type laid out as (bool, complex64), as a StructModel registers it.
const Type *modelledUserType() {
  const Type *user = types::userType(626262, "Pair");
  types::defineUserTypeModel(user, {"flag", "value"},
                             types::tuple({types::boolean(), types::complex(64)}));
  return user;
}

std::vector<const Type *> sampleTypes() {
  const Type *f64 = types::float64();
  const Type *i64 = types::int64();
  const Type *dict = types::dict(i64, f64);
  return {types::boolean(),
          types::integer(8, false),
          types::integer(16, true),
          types::floating(16),
          types::float32(),
          f64,
          types::complex(64),
          types::complex128(),
          types::none(),
          types::range(),
          types::sliceValue(true),
          types::unicode(),
          types::datetime(10),
          types::array(f64, 3, 'C', false),
          types::tuple({types::boolean(), f64, types::integer(16, true)}),
          types::tuple({types::array(f64, 1, 'C', false), types::unicode()}),
          types::namedTuple("m.P", 11, {"a", "b"}, {types::boolean(), types::complex(64)}),
          types::optional(types::array(f64, 2, 'A', false)),
          types::optional(types::boolean()),
          types::list(i64),
          dict,
          types::dictView(dict, 2),
          types::set(i64),
          types::pointer(f64),
          types::record({"a"}, {f64}, {0}, 8, false),
          types::firstClassFunction({f64}, f64),
          types::generator(i64),
          types::module("math"),
          modelledUserType()};
}

TEST(DataModelsTest, SizesAgreeWithLlvm) {
  llvm::LLVMContext context;
  llvm::DataLayout dataLayout = layout();
  for (const Type *type : sampleTypes()) {
    llvm::Type *memory = memoryType(context, type);
    EXPECT_EQ(type->storageSize(), dataLayout.getTypeAllocSize(memory).getFixedValue())
        << type->name();
    if (type->storageSize() > 0)
      EXPECT_EQ(type->storageAlignment(), dataLayout.getABITypeAlign(memory).value())
          << type->name();
    // A model answering holdsReferences itself agrees with its representation's pointers.
    EXPECT_EQ(type->holdsReferences(), !types::referenceOffsets(type).empty()) << type->name();
  }
}

TEST(DataModelsTest, ElementOffsetsAgreeWithLlvm) {
  llvm::LLVMContext context;
  const Type *tuple = types::tuple({types::boolean(), types::complex128(), types::integer(8, true),
                                    types::array(types::float32(), 2, 'C', false)});
  auto *structure = llvm::cast<llvm::StructType>(memoryType(context, tuple));
  llvm::DataLayout dataLayout = layout();
  const llvm::StructLayout *structLayout = dataLayout.getStructLayout(structure);
  for (size_t i = 0; i < tuple->elements().size(); ++i)
    EXPECT_EQ(tuple->elementOffset(i), structLayout->getElementOffset(static_cast<unsigned>(i)));
}

TEST(DataModelsTest, HeldReferencesFollowTheRepresentation) {
  const Type *array = types::array(types::float64(), 1, 'C', false);
  EXPECT_EQ(types::referenceOffsets(array), (std::vector<int64_t>{0}));
  EXPECT_TRUE(types::unicode()->isBlockReference());
  EXPECT_FALSE(types::pointer(types::float64())->isBlockReference());
  EXPECT_FALSE(types::record({"a"}, {types::float64()}, {0}, 8, false)->holdsReferences());
  const Type *mixed = types::tuple({types::int64(), array, types::unicode()});
  EXPECT_EQ(types::referenceOffsets(mixed),
            (std::vector<int64_t>{8, static_cast<int64_t>(8 + array->storageSize())}));
  const Type *maybe = types::optional(types::unicode());
  EXPECT_EQ(types::referenceOffsets(maybe), (std::vector<int64_t>{8}));
  EXPECT_TRUE(maybe->holdsReferences());
  EXPECT_FALSE(types::tuple({types::int64(), types::float64()})->holdsReferences());
}

TEST(DataModelsTest, RuntimeValuesAreTheModelsSay) {
  EXPECT_TRUE(types::none()->isRuntimeValue());
  EXPECT_FALSE(types::module("math")->isRuntimeValue());
  EXPECT_FALSE(types::dtypeValue(types::float64())->isRuntimeValue());
  EXPECT_FALSE(types::tuple({types::int64(), types::builtin("abs")})->isRuntimeValue());
  EXPECT_FALSE(types::optional(types::module("math"))->isRuntimeValue());
}

/// A model for the test: every value is one int32.
class Int32Model final : public DataModel {
public:
  Representation representation(const Type *) const override { return Representation::integer(32); }
};

TEST(DataModelsTest, AModelRegisteredForAKindIsUsed) {
  const Type *user = types::userType(515151, "Opaque32");
  const DataModel &original = dataModelOf(user);
  static const Int32Model int32Model;
  registerDataModel(TypeKind::UserType, &int32Model);
  EXPECT_EQ(&dataModelOf(user), &int32Model);
  EXPECT_EQ(user->storageSize(), 4u);
  llvm::LLVMContext context;
  EXPECT_TRUE(valueType(context, user)->isIntegerTy(32));
  registerDataModel(TypeKind::UserType, &original);
  EXPECT_EQ(user->storageSize(), 0u); // no model of its own was given to the type
}

} // namespace
