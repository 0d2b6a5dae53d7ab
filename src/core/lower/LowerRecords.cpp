// Lowering of record (structured dtype) values: a record is the address of its bytes, so
// `a[i]` of an array of records is an address, fields are loads and stores at a constant
// offset from it, and `a.x` is a strided view of the array's data.
#include "lower/FunctionLowering.h"

#include "support/CompileError.h"
#include "types/CharSequences.h"
#include "typing/RecordTyping.h"

namespace taipan {

/// The field name an expression reads of a record or an array of records, as typing found it;
/// empty when it reads none.
static std::string accessedField(const Expr *expr, const TypedFunction &function) {
  if (expr->kind != ExprKind::Attribute && expr->kind != ExprKind::Subscript)
    return "";
  const Type *indexType =
      expr->kind == ExprKind::Subscript ? function.typeOf(expr->operands[1]) : nullptr;
  return accessedRecordField(expr, function.typeOf(expr->operands[0]), indexType, function.globals);
}

bool ArrayLowering::isRecordAccess(const Expr *expr) const {
  std::string name = accessedField(expr, function);
  if (name.empty())
    return false;
  const Type *base = core.typeOf(expr->operands[0]);
  if (base->isRecord())
    return true;
  // An array attribute the library implements (a.shape) is a library call, never a field.
  return typeRecordFieldView(base, name, expr->location) && !function.libraryCalls.count(expr->id);
}

/// The address of field `index` of the record at `record`.
static llvm::Value *fieldAddress(llvm::IRBuilder<> &builder, llvm::Value *record,
                                 const Type *recordType, int index) {
  return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), record,
                                            recordType->fieldOffset(static_cast<size_t>(index)));
}

llvm::Value *ArrayLowering::recordFieldAddress(Expr *target) {
  if (!isRecordAccess(target))
    return nullptr;
  const Type *recordType = core.typeOf(target->operands[0]);
  if (!recordType->isRecord())
    return nullptr;
  int index = recordType->fieldIndex(accessedField(target, function));
  const Type *field = recordType->fieldTypes()[static_cast<size_t>(index)];
  if (field->kind() == TypeKind::NestedArray && !types::isCharSequence(field))
    return nullptr; // read as a view, updated through it
  return fieldAddress(builder, core.lowerExpr(target->operands[0]), recordType, index);
}

/// The alignment a field of `record` may assume: its natural one in an align=True record
/// (NumPy pads those so every element of an array keeps it, which the GPU's wide loads need),
/// else 1, since a packed record's fields need not be aligned.
static llvm::Align fieldAlignment(const Type *record, const Type *field) {
  if (record && record->isAligned() && field->isNumber())
    return llvm::Align(field->storageAlignment());
  return llvm::Align(1);
}

static llvm::Value *loadField(llvm::IRBuilder<> &builder, llvm::Value *address,
                              const Type *fieldType, llvm::Align alignment) {
  if (fieldType->isRecord())
    return address;
  llvm::Value *loaded =
      builder.CreateAlignedLoad(memoryType(builder.getContext(), fieldType), address, alignment);
  return fromMemoryForm(builder, loaded, fieldType);
}

static void storeField(llvm::IRBuilder<> &builder, llvm::Value *address, llvm::Value *value,
                       const Type *fieldType, llvm::Align alignment) {
  if (fieldType->isRecord()) {
    builder.CreateMemCpy(address, llvm::Align(1), value, llvm::Align(1),
                         builder.getInt64(fieldType->itemSize()));
    return;
  }
  builder.CreateAlignedStore(toMemoryForm(builder, value, fieldType), address, alignment);
}

llvm::Value *ArrayLowering::loadRecordField(llvm::Value *address, const Type *fieldType) {
  return loadField(builder, address, fieldType, llvm::Align(1));
}

void ArrayLowering::storeRecordField(llvm::Value *address, llvm::Value *value,
                                     const Type *fieldType) {
  storeField(builder, address, value, fieldType, llvm::Align(1));
}

/// A view of `count` items of `dtype` at `data` with `shape` and `strides`, borrowing the
/// block and parent of `owner` (an array value, or null for none).
llvm::Value *ArrayLowering::recordView(const Type *viewType, llvm::Value *owner, llvm::Value *data,
                                       const std::vector<llvm::Value *> &shape,
                                       const std::vector<llvm::Value *> &strides) {
  llvm::Value *view = llvm::Constant::getNullValue(valueType(context, viewType));
  if (owner)
    for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent})
      view = withArrayField(view, field, arrayField(owner, field));
  llvm::Value *count = builder.getInt64(1);
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    count = builder.CreateMul(count, shape[axis]);
    view = withArrayField(view, ArrayLayout::Shape, shape[axis], static_cast<int>(axis));
    view = withArrayField(view, ArrayLayout::Strides, strides[axis], static_cast<int>(axis));
  }
  view = withArrayField(view, ArrayLayout::ItemCount, count);
  view = withArrayField(view, ArrayLayout::ItemSize,
                        builder.getInt64(static_cast<int64_t>(viewType->dtype()->itemSize())));
  view = withArrayField(view, ArrayLayout::Data, data);
  if (owner) {
    core.incref(view, viewType);
    core.addTemporary(view, viewType);
  }
  return view;
}

/// Appends the shape and C strides of a subarray field.
static void appendNested(llvm::IRBuilder<> &builder, const Type *nested,
                         std::vector<llvm::Value *> &shape, std::vector<llvm::Value *> &strides) {
  int64_t stride = static_cast<int64_t>(nested->itemSize());
  std::vector<llvm::Value *> nestedStrides;
  for (int64_t extent : nested->nestedShape()) {
    stride /= extent > 0 ? extent : 1;
    shape.push_back(builder.getInt64(extent));
    nestedStrides.push_back(builder.getInt64(stride));
  }
  strides.insert(strides.end(), nestedStrides.begin(), nestedStrides.end());
}

llvm::Value *ArrayLowering::lowerRecordAccess(Expr *expr) {
  Expr *base = expr->operands[0];
  const Type *baseType = core.typeOf(base);
  std::string name = accessedField(expr, function);
  llvm::Value *value = core.lowerExpr(base);
  if (baseType->isRecord()) {
    int index = baseType->fieldIndex(name);
    const Type *field = baseType->fieldTypes()[static_cast<size_t>(index)];
    llvm::Value *address = fieldAddress(builder, value, baseType, index);
    if (types::isCharSequence(field)) // as compiled code reads it (types::itemValueType)
      return core.castValue(loadField(builder, address, field, llvm::Align(1)), field,
                            core.typeOf(expr));
    if (field->kind() != TypeKind::NestedArray)
      return loadField(builder, address, field, fieldAlignment(baseType, field));
    // r.v of a subarray field: a C view of the record's bytes, owned by no block (it lives as
    // long as the record's array, as in Numba).
    std::vector<llvm::Value *> shape, strides;
    appendNested(builder, field, shape, strides);
    return recordView(core.typeOf(expr), nullptr, address, shape, strides);
  }
  // a.x: the field's bytes in every record, with the array's shape and strides.
  const Type *record = baseType->dtype();
  int index = record->fieldIndex(name);
  const Type *field = record->fieldTypes()[static_cast<size_t>(index)];
  std::vector<llvm::Value *> shape = arrayShape(value, baseType), strides;
  for (int axis = 0; axis < baseType->ndim(); ++axis)
    strides.push_back(arrayField(value, ArrayLayout::Strides, axis));
  if (field->kind() == TypeKind::NestedArray && !types::isCharSequence(field))
    appendNested(builder, field, shape, strides);
  llvm::Value *data = fieldAddress(builder, arrayField(value, ArrayLayout::Data), record, index);
  return recordView(core.typeOf(expr), value, data, shape, strides);
}

void ArrayLowering::lowerRecordStore(Expr *target, llvm::Value *value, const Type *valueType) {
  const Type *slotType = core.typeOf(target);
  if (slotType->isArray()) { // r.v = values: into the subarray field, element by element
    assignIntoArray(core.lowerExpr(target), slotType, value, valueType);
    return;
  }
  llvm::Value *address = recordFieldAddress(target);
  // The field's own type: a `<U n` field's str type (types::itemValueType) is no slot.
  const Type *recordType = core.typeOf(target->operands[0]);
  slotType = recordType->fieldTypes()[static_cast<size_t>(
      recordType->fieldIndex(accessedField(target, function)))];
  storeField(builder, address, core.castValue(value, valueType, slotType), slotType,
             fieldAlignment(recordType, slotType));
}

} // namespace taipan
