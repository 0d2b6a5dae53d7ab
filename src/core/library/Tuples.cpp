// The methods of tuples: t.count(x) and t.index(x), and the copy() of a LiteralList (Numba's
// immutable list of items of different types, stored as a tuple). Items are compared with x as
// `==` compares them: an item of a type that never equals x (a string and a number) counts as
// unequal without being compared.
#include "library/Families.h"

#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/OperatorLowering.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// Whether `==` between values of these types is decided at run time; other pairs are unequal.
bool comparedAtRunTime(const Type *value, const Type *item) {
  if (value->isString() && item->isString())
    return true;
  if (value->isNone() && item->isNone())
    return true;
  return comparisonOperandType(CompareOp::Eq, value, item) != nullptr;
}

/// Whether item `index` of `tuple` equals `value`, as an i1.
llvm::Value *itemEquals(LoweringApi &lowering, llvm::Value *tuple, const Type *tupleType,
                        size_t index, llvm::Value *value, const Type *valueType) {
  const Type *itemType = tupleType->elements()[index];
  if (!comparedAtRunTime(valueType, itemType))
    return lowering.irBuilder().getFalse();
  llvm::Value *item = lowering.tupleElement(tuple, tupleType, static_cast<unsigned>(index));
  return lowering.operators().lowerComparison(CompareOp::Eq, value, valueType, item, itemType);
}

/// A tuple argument's items must each be comparable to x or never equal it; arrays, lists and
/// the like are refused, as `==` with them is not a truth value.
bool isScalar(const Type *type) {
  return type->isNumber() || type->isBoolean() || type->isString() || type->isNone();
}

void requireItemsComparable(const LibraryCall &call) {
  const Type *value = call.argumentTypes[1];
  for (const Type *item : call.argumentTypes[0]->elements())
    if (!(isScalar(item) && isScalar(value)) && !comparedAtRunTime(value, item))
      throwNoOverload(call);
}

} // namespace

void registerTupleMethods(Library &library) {
  library.add(
      "tuple.count", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        requireItemsComparable(call);
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *count = builder.getInt64(0);
        for (size_t i = 0; i < call.argumentTypes[0]->elements().size(); ++i)
          count = builder.CreateAdd(
              count, builder.CreateZExt(itemEquals(lowering, values[0], call.argumentTypes[0], i,
                                                   values[1], call.argumentTypes[1]),
                                        builder.getInt64Ty()));
        return count;
      });
  addCpu(
      library, "tuple.index", {{"", false}, {"", false}},
      [](LibraryCall &call) -> const Type * {
        if (call.argumentTypes[0]->isLiteralList())
          throwTypingError("list.index is unsupported for literal lists", call.location);
        requireItemsComparable(call);
        return types::int64();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        llvm::Value *found = builder.getInt64(-1);
        for (size_t i = call.argumentTypes[0]->elements().size(); i-- > 0;)
          found = builder.CreateSelect(itemEquals(lowering, values[0], call.argumentTypes[0], i,
                                                  values[1], call.argumentTypes[1]),
                                       builder.getInt64(static_cast<int64_t>(i)), found);
        lowering.exceptions().raiseIf(builder.CreateICmpSLT(found, builder.getInt64(0)),
                                      ValueErrorId, "tuple.index(x): x not in tuple");
        return found;
      });
  library.add(
      "tuple.copy", {{"", false}},
      [](LibraryCall &call) -> const Type * {
        if (!call.argumentTypes[0]->isLiteralList())
          throwNoOverload(call);
        return call.argumentTypes[0]; // the items cannot change, so the copy may share them
      },
      [](LoweringApi &, const LibraryCall &, const Values &values) { return values[0]; });
  // A named tuple class called in compiled code; typing binds the arguments in field order
  // (typing/NamedTupleTyping.h) and records the call itself, so the type rule is never asked.
  library.add(
      "namedtuple.new", {}, [](LibraryCall &call) -> const Type * { throwNoOverload(call); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        const Type *type = call.resultType;
        std::vector<llvm::Value *> items; // converted (which may raise) before any is owned
        for (size_t i = 0; i < values.size(); ++i)
          items.push_back(
              lowering.castValue(values[i], call.argumentTypes[i], type->elements()[i]));
        for (size_t i = 0; i < items.size(); ++i)
          items[i] = lowering.takeOwnership(items[i], type->elements()[i]);
        llvm::Value *tuple = lowering.lowerTuple(items, type);
        lowering.addTemporary(tuple, type); // it owns its items' references
        return tuple;
      });
}

} // namespace taipan
