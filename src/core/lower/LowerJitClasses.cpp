// Lowering of jitclass instances: fields are loads and stores at constant offsets in the
// instance's block, with the reference counting a list item gets.
#include "lower/LowerJitClasses.h"
#include "lower/FunctionLowering.h"

#include "runtime/MemoryRuntime.h"
#include "support/CompileError.h"
#include "typing/JitClassTyping.h"

namespace taipan {

namespace {

/// The byte offsets of the arrays inside a value of `type` (an array, or tuples holding them).
void collectArrayOffsets(const Type *type, int64_t base, std::vector<int64_t> &offsets) {
  if (type->isArray()) {
    offsets.push_back(base);
  } else if (type->isTuple()) {
    for (size_t i = 0; i < type->elements().size(); ++i)
      collectArrayOffsets(type->elements()[i], base + static_cast<int64_t>(type->elementOffset(i)),
                          offsets);
  }
}

/// A private constant table of int64 offsets (null for none).
llvm::Value *offsetTable(LoweringApi &lowering, const std::vector<int64_t> &offsets,
                         const char *name) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  if (offsets.empty())
    return llvm::ConstantPointerNull::get(builder.getPtrTy());
  auto *table =
      llvm::ConstantDataArray::get(lowering.llvmContext(), llvm::ArrayRef<int64_t>(offsets));
  return new llvm::GlobalVariable(lowering.module().module, table->getType(), true,
                                  llvm::GlobalValue::PrivateLinkage, table, name);
}

/// Marks the module as valid in this process only: a jitclass's instance type is known by its
/// registry id, which another process gives another class.
void markProcessSpecific(LoweringApi &lowering) {
  if (lowering.module().processSpecific.empty())
    lowering.module().processSpecific = "it uses a jitclass, which exists in this process only";
}

/// The address of field `name` in the block of `instance`.
llvm::Value *fieldAddress(llvm::IRBuilder<> &builder, llvm::Value *instance,
                          const Type *instanceType, const std::string &name) {
  llvm::Value *data = builder.CreateLoad(
      builder.getPtrTy(), builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), instance,
                                                             runtime::MemInfoDataOffset));
  size_t index = static_cast<size_t>(instanceType->fieldIndex(classFieldName(instanceType, name)));
  return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), data,
                                            classFieldsLayout(instanceType)->elementOffset(index));
}

} // namespace

llvm::Value *newClassInstance(LoweringApi &lowering, const Type *instanceType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  markProcessSpecific(lowering);
  const Type *layout = classFieldsLayout(instanceType);
  std::vector<int64_t> offsets = types::referenceOffsets(layout);
  llvm::Value *instance = lowering.containers().listRuntime(
      "taipan_jitclass_new", builder.getPtrTy(),
      {builder.getInt64(static_cast<int64_t>(layout->storageSize())),
       offsetTable(lowering, offsets, "jitclass.references"),
       builder.getInt64(static_cast<int64_t>(offsets.size()))});
  lowering.exitIf(builder.CreateIsNull(instance), builder.getInt32(MemoryErrorId));
  lowering.addTemporary(instance, instanceType);
  return instance;
}

bool isClassFieldAccess(const LoweringApi &lowering, const Expr *expr) {
  return expr->kind == ExprKind::Attribute &&
         classFieldType(classInstanceOf(lowering.typeOf(expr->operands[0])), expr->name) != nullptr;
}

/// The instance `base` evaluates to; an optional one raises TypeError when it is None.
static llvm::Value *lowerInstance(LoweringApi &lowering, Expr *base) {
  const Type *type = lowering.typeOf(base);
  llvm::Value *value = lowering.lowerExpr(base);
  return type->isOptional() ? lowering.castValue(value, type, type->optionalValue()) : value;
}

llvm::Value *lowerClassFieldLoad(LoweringApi &lowering, Expr *expr) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  markProcessSpecific(lowering);
  Expr *base = expr->operands[0];
  const Type *instanceType = classInstanceOf(lowering.typeOf(base));
  const Type *field = classFieldType(instanceType, expr->name);
  llvm::Value *address =
      fieldAddress(builder, lowerInstance(lowering, base), instanceType, expr->name);
  llvm::Value *value = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(lowering.llvmContext(), field), address), field);
  const Type *type = lowering.typeOf(expr);
  return type && type != field ? lowering.castValue(value, field, type) : value;
}

void storeClassField(LoweringApi &lowering, Expr *target, llvm::Value *value,
                     const Type *valueType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  markProcessSpecific(lowering);
  Expr *base = target->operands[0];
  const Type *instanceType = classInstanceOf(lowering.typeOf(base));
  const Type *field = classFieldType(instanceType, target->name);
  if (!field)
    throwTypingError("cannot set attribute '" + target->name + "' of " +
                         lowering.typeOf(base)->name(),
                     target->location);
  llvm::Value *instance = lowerInstance(lowering, base);
  llvm::Value *owned = lowering.takeOwnership(lowering.castValue(value, valueType, field), field);
  llvm::Value *address = fieldAddress(builder, instance, instanceType, target->name);
  llvm::Type *memory = memoryType(lowering.llvmContext(), field);
  llvm::Value *old = nullptr;
  if (field->holdsReferences())
    old = fromMemoryForm(builder, builder.CreateLoad(memory, address), field);
  builder.CreateStore(toMemoryForm(builder, owned, field), address);
  // The instance may outlive the call: an array borrowed from an argument gets a block.
  std::vector<int64_t> arrays;
  collectArrayOffsets(field, 0, arrays);
  if (!arrays.empty())
    lowering.containers().listRuntime("taipan_jitclass_adopt", builder.getVoidTy(),
                                      {address, offsetTable(lowering, arrays, "jitclass.arrays"),
                                       builder.getInt64(static_cast<int64_t>(arrays.size()))});
  if (old)
    lowering.decref(old, field);
}

} // namespace taipan
