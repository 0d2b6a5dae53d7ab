// LLVM representation of taipan types.
#include "lower/LowerTypes.h"

#include "types/CharSequences.h"
#include "types/ClassInstanceTypes.h"
#include "types/UserTypes.h"

#include <llvm/IR/DerivedTypes.h>

namespace taipan {

static llvm::Type *representation(llvm::LLVMContext &context, const Type *type, bool inMemory) {
  if (isClassInstance(type)) // the block holding the instance's fields
    return llvm::PointerType::getUnqual(context);
  if (isUserType(type)) { // its data model's representation (types/UserTypes.h)
    const Type *layout = userTypeLayout(type);
    return layout ? representation(context, layout, inMemory) : llvm::StructType::get(context);
  }
  switch (type->kind()) {
  case TypeKind::Boolean:
    return inMemory ? llvm::Type::getInt8Ty(context) : llvm::Type::getInt1Ty(context);
  case TypeKind::Integer:
  case TypeKind::Datetime: // an int64 count of the unit
  case TypeKind::Timedelta:
    return llvm::Type::getIntNTy(context, type->bits());
  case TypeKind::Float:
    return type->bits() == 16   ? llvm::Type::getHalfTy(context)
           : type->bits() == 32 ? llvm::Type::getFloatTy(context)
                                : llvm::Type::getDoubleTy(context);
  case TypeKind::Complex: {
    llvm::Type *part =
        type->bits() == 64 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
    return llvm::StructType::get(context, {part, part});
  }
  case TypeKind::Tuple: {
    std::vector<llvm::Type *> elements;
    for (const Type *element : type->elements())
      elements.push_back(representation(context, element, true));
    return llvm::StructType::get(context, elements);
  }
  case TypeKind::Range:
  case TypeKind::Slice: {
    llvm::Type *i64 = llvm::Type::getInt64Ty(context);
    return llvm::StructType::get(context, {i64, i64, i64, i64}); // types::sliceValue
  }
  case TypeKind::Pointer:
  case TypeKind::Record:  // the address of the record's bytes
  case TypeKind::Unicode: // the string's memory block
  case TypeKind::List:
  case TypeKind::Dict:
  case TypeKind::Generator: // the block holding the coroutine frame
  case TypeKind::Set:
  case TypeKind::DictView: // the dict's block
    return llvm::PointerType::getUnqual(context);
  case TypeKind::FirstClassFunction: { // {the C function's address, the Python object, jitted}
    llvm::Type *pointer = llvm::PointerType::getUnqual(context);
    return llvm::StructType::get(context, {pointer, pointer, llvm::Type::getInt64Ty(context)});
  }
  case TypeKind::Optional: // {flag byte, value}, the value in memory form as in tuples
    return llvm::StructType::get(context, {llvm::Type::getInt8Ty(context),
                                           representation(context, type->optionalValue(), true)});
  case TypeKind::NestedArray: // a fixed-width string (types/CharSequences.h): its characters
    if (types::isCharSequence(type))
      return llvm::ArrayType::get(
          llvm::Type::getIntNTy(context, 8 * types::charSequenceWidth(type)),
          static_cast<uint64_t>(types::charSequenceLength(type)));
    return llvm::StructType::get(context);
  case TypeKind::Array: {
    llvm::Type *i64 = llvm::Type::getInt64Ty(context);
    llvm::Type *pointer = llvm::PointerType::getUnqual(context);
    llvm::Type *extents = llvm::ArrayType::get(i64, static_cast<uint64_t>(type->ndim()));
    return llvm::StructType::get(context, {pointer, pointer, i64, i64, pointer, extents, extents});
  }
  default:
    // None and the compile-time-only types carry no data.
    return llvm::StructType::get(context);
  }
}

llvm::Type *valueType(llvm::LLVMContext &context, const Type *type) {
  return representation(context, type, false);
}

llvm::Type *memoryType(llvm::LLVMContext &context, const Type *type) {
  return representation(context, type, true);
}

llvm::Value *toMemoryForm(llvm::IRBuilder<> &builder, llvm::Value *value, const Type *type) {
  if (type->isBoolean())
    return builder.CreateZExt(value, builder.getInt8Ty());
  return value;
}

llvm::Value *fromMemoryForm(llvm::IRBuilder<> &builder, llvm::Value *value, const Type *type) {
  if (type->isBoolean())
    return builder.CreateICmpNE(value, builder.getInt8(0));
  return value;
}

} // namespace taipan
