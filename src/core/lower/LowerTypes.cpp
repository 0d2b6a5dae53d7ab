// LLVM representation of taipan types: their data models spelled as LLVM types.
#include "lower/LowerTypes.h"

#include "types/DataModels.h"

#include <llvm/IR/DerivedTypes.h>

namespace taipan {

/// The LLVM spelling of a data model's representation (types/DataModels.h); `inMemory` decides
/// a boolean's form at the top (members are always in memory form).
static llvm::Type *spell(llvm::LLVMContext &context, const Representation &representation,
                         bool inMemory) {
  switch (representation.form) {
  case Representation::Form::Boolean:
    return inMemory ? llvm::Type::getInt8Ty(context) : llvm::Type::getInt1Ty(context);
  case Representation::Form::Integer:
    return llvm::Type::getIntNTy(context, static_cast<unsigned>(representation.bits));
  case Representation::Form::Float:
    return representation.bits == 16   ? llvm::Type::getHalfTy(context)
           : representation.bits == 32 ? llvm::Type::getFloatTy(context)
                                       : llvm::Type::getDoubleTy(context);
  case Representation::Form::Pointer:
    return llvm::PointerType::getUnqual(context);
  case Representation::Form::Struct: {
    std::vector<llvm::Type *> members;
    for (const Representation &member : representation.members)
      members.push_back(spell(context, member, true));
    return llvm::StructType::get(context, members);
  }
  case Representation::Form::Array:
    return llvm::ArrayType::get(spell(context, representation.members.front(), true),
                                representation.count);
  case Representation::Form::Value:
    return memoryType(context, representation.type);
  default: // None and the compile-time-only types carry no data.
    return llvm::StructType::get(context);
  }
}

static llvm::Type *representation(llvm::LLVMContext &context, const Type *type, bool inMemory) {
  return spell(context, dataModelOf(type).representation(type), inMemory);
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
