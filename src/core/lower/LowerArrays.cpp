// Arrays in compiled code: reference counting of the memory blocks behind them, allocation,
// indexing (views for basic indexing), item assignment with broadcasting, rows of arrays.
#include "lower/FunctionLowering.h"

#include "registry/Library.h"
#include "syntax/VariableVersions.h"
#include "types/CharSequences.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

namespace taipan {

ArrayLowering::ArrayLowering(FunctionLowering &core) : LoweringRoom(core) {}

// ---- the array value ------------------------------------------------------------------------

llvm::Value *ArrayLowering::arrayField(llvm::Value *array, ArrayLayout::Field field,
                                       int dimension) {
  if (dimension < 0)
    return builder.CreateExtractValue(array, {static_cast<unsigned>(field)});
  return builder.CreateExtractValue(
      array, {static_cast<unsigned>(field), static_cast<unsigned>(dimension)});
}

llvm::Value *ArrayLowering::withArrayField(llvm::Value *array, ArrayLayout::Field field,
                                           llvm::Value *value, int dimension) {
  if (dimension < 0)
    return builder.CreateInsertValue(array, value, {static_cast<unsigned>(field)});
  return builder.CreateInsertValue(
      array, value, {static_cast<unsigned>(field), static_cast<unsigned>(dimension)});
}

std::vector<llvm::Value *> ArrayLowering::arrayShape(llvm::Value *array, const Type *type) {
  std::vector<llvm::Value *> shape;
  for (int i = 0; i < type->ndim(); ++i)
    shape.push_back(arrayField(array, ArrayLayout::Shape, i));
  return shape;
}

llvm::Value *ArrayLowering::allocateArray(const Type *arrayType,
                                          const std::vector<llvm::Value *> &shape) {
  llvm::Type *i64 = builder.getInt64Ty();
  int64_t itemSize = static_cast<int64_t>(arrayType->dtype()->itemSize());
  // The runtime checks the extents (negative, overflowing) and raises as NumPy does.
  llvm::Value *extents = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!shape.empty()) {
    extents = core.createEntryAlloca(llvm::ArrayType::get(i64, shape.size()), "shape");
    for (size_t i = 0; i < shape.size(); ++i)
      builder.CreateStore(shape[i], builder.CreateConstInBoundsGEP1_64(i64, extents, i));
  }
  llvm::Value *block = builder.CreateCall(
      moduleLowering.runtimeFunction("taipan_nrt_allocate_array", builder.getPtrTy(),
                                     {builder.getPtrTy(), i64, i64}),
      {extents, builder.getInt64(static_cast<int64_t>(shape.size())), builder.getInt64(itemSize)});
  core.exitIf(builder.CreateIsNull(block), builder.getInt32(1));
  llvm::Value *count = builder.getInt64(1);
  for (llvm::Value *extent : shape)
    count = builder.CreateNUWMul(count, extent);
  // The data follows the block's header; its address is the header's second word.
  llvm::Value *data = builder.CreateLoad(
      builder.getPtrTy(), builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), block, 8));
  llvm::Value *array = llvm::UndefValue::get(valueType(context, arrayType));
  array = withArrayField(array, ArrayLayout::MemInfo, block);
  array = withArrayField(array, ArrayLayout::Parent,
                         llvm::ConstantPointerNull::get(builder.getPtrTy()));
  array = withArrayField(array, ArrayLayout::ItemCount, count);
  array = withArrayField(array, ArrayLayout::ItemSize, builder.getInt64(itemSize));
  array = withArrayField(array, ArrayLayout::Data, data);
  // C order, or F order for an F type (elementAddress takes the first axis's stride to be the
  // item size there).
  bool fortran = arrayType->layout() == 'F';
  llvm::Value *stride = builder.getInt64(itemSize);
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t i = fortran ? k : shape.size() - 1 - k;
    array = withArrayField(array, ArrayLayout::Shape, shape[i], static_cast<int>(i));
    array = withArrayField(array, ArrayLayout::Strides, stride, static_cast<int>(i));
    stride = builder.CreateMul(stride, shape[i]);
  }
  core.addTemporary(array, arrayType);
  return array;
}

llvm::Value *ArrayLowering::axisStride(llvm::Value *array, const Type *arrayType, int axis) {
  // The innermost stride of a contiguous array is the item size: a constant lets LLVM
  // vectorise. (An axis of extent 1 may have any stride, but is only ever indexed at 0.)
  bool innermost = arrayType->layout() == 'C'   ? axis == arrayType->ndim() - 1
                   : arrayType->layout() == 'F' ? axis == 0
                                                : false;
  if (innermost)
    return builder.getInt64(static_cast<int64_t>(arrayType->dtype()->itemSize()));
  return arrayField(array, ArrayLayout::Strides, axis);
}

llvm::Value *ArrayLowering::elementAddress(llvm::Value *array, const Type *arrayType,
                                           const std::vector<llvm::Value *> &indices) {
  llvm::Value *offset = builder.getInt64(0);
  for (size_t i = 0; i < indices.size(); ++i)
    offset = builder.CreateAdd(
        offset, builder.CreateMul(indices[i], axisStride(array, arrayType, static_cast<int>(i))));
  return builder.CreateGEP(builder.getInt8Ty(), arrayField(array, ArrayLayout::Data), offset);
}

llvm::Value *ArrayLowering::loadElement(llvm::Value *address, const Type *dtype) {
  if (dtype->isRecord())
    return address; // a record is the address of its bytes
  return fromMemoryForm(builder, builder.CreateLoad(memoryType(context, dtype), address), dtype);
}

void ArrayLowering::storeElement(llvm::Value *address, llvm::Value *value, const Type *dtype) {
  if (dtype->isRecord()) {
    storeRecordField(address, value, dtype); // copies the record's bytes
    return;
  }
  builder.CreateStore(toMemoryForm(builder, value, dtype), address);
}

/// Whether an int64 index is negative (it then counts from the end). An index `x - y` whose
/// subtraction cannot wrap (`nsw`, lowerIndexPiece) is negative exactly when `x < y`, and that
/// is the test emitted: LLVM 19 does not rewrite `(x - y) < 0` so, and then cannot see that a
/// dominating `if x >= y:` decides it. numbagg's `if i >= window: a[i - window]` kept its
/// wraparound (a select and a multiply per element) without this.
static llvm::Value *isNegativeIndex(llvm::IRBuilder<> &builder, llvm::Value *position) {
  auto *difference = llvm::dyn_cast<llvm::BinaryOperator>(position);
  if (difference && difference->getOpcode() == llvm::Instruction::Sub &&
      difference->hasNoSignedWrap())
    return builder.CreateICmpSLT(difference->getOperand(0), difference->getOperand(1));
  return builder.CreateICmpSLT(position, builder.getInt64(0));
}

llvm::Value *ArrayLowering::checkedIndex(llvm::Value *index, const Type *indexType,
                                         llvm::Value *extent, int axis, bool alwaysCheck) {
  if (isScalarIndexArray(indexType)) { // a 0-d integer array: its one item
    index = loadElement(arrayField(index, ArrayLayout::Data), indexType->dtype());
    indexType = indexType->dtype();
  }
  llvm::Value *position = core.castValue(index, indexType, types::int64());
  if (!indexType->isInteger() || indexType->isSigned())
    position = builder.CreateSelect(isNegativeIndex(builder, position),
                                    builder.CreateAdd(position, extent), position);
  if (alwaysCheck || options.boundscheck) {
    llvm::BasicBlock *failure = core.newBlock("index.error");
    llvm::BasicBlock *fine = core.newBlock("index.ok");
    builder.CreateCondBr(builder.CreateICmpUGE(position, extent), failure, fine,
                         llvm::MDBuilder(context).createBranchWeights(1, 1 << 20));
    builder.SetInsertPoint(failure);
    llvm::Type *i64 = builder.getInt64Ty();
    builder.CreateCall(
        moduleLowering.runtimeFunction("taipan_raise_index_error", builder.getVoidTy(),
                                       {i64, i64, i64}),
        {core.castValue(index, indexType, types::int64()), builder.getInt64(axis), extent});
    core.exitFunction(builder.getInt32(1));
    builder.SetInsertPoint(fine);
  }
  return position;
}

llvm::Value *ArrayLowering::lowerIndexPiece(Expr *piece) {
  const Type *type = core.typeOf(piece);
  if (options.boundscheck || piece->kind != ExprKind::BinOp || type != types::int64())
    return core.lowerExpr(piece);
  BinaryOp op = piece->binaryOp;
  if (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mult)
    return core.lowerExpr(piece);
  Expr *left = piece->operands[0];
  Expr *right = piece->operands[1];
  const Type *leftType = core.typeOf(left);
  const Type *rightType = core.typeOf(right);
  // Only integer operands: an int64 result of other operands (an overloaded operator) keeps
  // its own lowering. Narrower operands are lowered as written (their own wraparound).
  if (!leftType->isInteger() || !leftType->isSigned() || !rightType->isInteger() ||
      !rightType->isSigned())
    return core.lowerExpr(piece);
  llvm::Value *leftValue = lowerIndexPiece(left);
  llvm::Value *rightValue = lowerIndexPiece(right);
  llvm::Value *result =
      core.operators().lowerBinary(op, leftValue, leftType, rightValue, rightType, type);
  if (auto *arithmetic = llvm::dyn_cast<llvm::BinaryOperator>(result))
    if (llvm::isa<llvm::OverflowingBinaryOperator>(arithmetic))
      arithmetic->setHasNoSignedWrap(true);
  return result;
}

void ArrayLowering::forEachIndex(
    const std::vector<llvm::Value *> &shape,
    const std::function<void(const std::vector<llvm::Value *> &)> &body) {
  std::vector<llvm::Value *> indices;
  std::function<void(size_t)> nest = [&](size_t depth) {
    if (depth == shape.size()) {
      body(indices);
      return;
    }
    llvm::BasicBlock *before = builder.GetInsertBlock();
    llvm::BasicBlock *header = core.newBlock("nd.loop");
    llvm::BasicBlock *bodyBlock = core.newBlock("nd.body");
    llvm::BasicBlock *exit = core.newBlock("nd.exit");
    builder.CreateBr(header);
    builder.SetInsertPoint(header);
    llvm::PHINode *index = builder.CreatePHI(builder.getInt64Ty(), 2);
    index->addIncoming(builder.getInt64(0), before);
    builder.CreateCondBr(builder.CreateICmpSLT(index, shape[depth]), bodyBlock, exit);
    builder.SetInsertPoint(bodyBlock);
    indices.push_back(index);
    nest(depth + 1);
    indices.pop_back();
    llvm::Value *next = builder.CreateAdd(index, builder.getInt64(1));
    index->addIncoming(next, builder.GetInsertBlock());
    builder.CreateBr(header);
    builder.SetInsertPoint(exit);
  };
  nest(0);
}

llvm::Value *ArrayLowering::lowerConstantArray(const GlobalValue &value) {
  // The bytes become a private constant of the module; the array borrows it (no block). The
  // bytes of records stay writable: a record read from the array is the address of its bytes,
  // which r.x = v writes through (into the module's frozen copy, never the Python array's).
  const Type *arrayType = value.arrayType;
  if (value.onDevice)
    return lowerDeviceArrayGlobal(value);
  llvm::Constant *data =
      llvm::ConstantDataArray::getRaw(value.bytes, value.bytes.size(), builder.getInt8Ty());
  bool writable = !arrayType->isRecord() && arrayType->dtype()->isRecord();
  auto *global =
      new llvm::GlobalVariable(moduleLowering.module, data->getType(), !writable,
                               llvm::GlobalValue::PrivateLinkage, data, "taipan_constant_array");
  global->setAlignment(llvm::Align(64));
  if (arrayType->isRecord()) {
    // A global record: a copy of its bytes for this use (Numba copies a constant record to
    // the stack), so writes through it stay local.
    llvm::AllocaInst *copy = core.createEntryAlloca(data->getType(), "constant.record");
    copy->setAlignment(llvm::Align(16));
    builder.CreateMemCpy(copy, llvm::Align(16), global, llvm::Align(64),
                         builder.getInt64(static_cast<int64_t>(value.bytes.size())));
    return copy;
  }
  int64_t itemSize = static_cast<int64_t>(arrayType->dtype()->itemSize());
  llvm::Value *array = llvm::Constant::getNullValue(valueType(context, arrayType));
  int64_t count = 1;
  for (int64_t extent : value.shape)
    count *= extent;
  array = withArrayField(array, ArrayLayout::ItemCount, builder.getInt64(count));
  array = withArrayField(array, ArrayLayout::ItemSize, builder.getInt64(itemSize));
  array = withArrayField(array, ArrayLayout::Data, global);
  int64_t stride = itemSize;
  for (size_t i = value.shape.size(); i-- > 0;) {
    array = withArrayField(array, ArrayLayout::Shape, builder.getInt64(value.shape[i]),
                           static_cast<int>(i));
    array =
        withArrayField(array, ArrayLayout::Strides, builder.getInt64(stride), static_cast<int>(i));
    stride *= value.shape[i];
  }
  return array;
}

llvm::Value *ArrayLowering::lowerDeviceArrayGlobal(const GlobalValue &value) {
  // The array borrows the device memory it views (no block): the Python object keeps it, as
  // numba-cuda's captured arrays do.
  const Type *arrayType = value.arrayType;
  int64_t itemSize = static_cast<int64_t>(arrayType->dtype()->itemSize());
  llvm::Value *array = llvm::Constant::getNullValue(valueType(context, arrayType));
  int64_t count = 1;
  for (int64_t extent : value.shape)
    count *= extent;
  llvm::Constant *address =
      llvm::ConstantExpr::getIntToPtr(builder.getInt64(value.deviceAddress), builder.getPtrTy());
  array = withArrayField(array, ArrayLayout::ItemCount, builder.getInt64(count));
  array = withArrayField(array, ArrayLayout::ItemSize, builder.getInt64(itemSize));
  array = withArrayField(array, ArrayLayout::Data, address);
  for (size_t i = 0; i < value.shape.size(); ++i) {
    array = withArrayField(array, ArrayLayout::Shape, builder.getInt64(value.shape[i]),
                           static_cast<int>(i));
    array = withArrayField(array, ArrayLayout::Strides, builder.getInt64(value.strides[i]),
                           static_cast<int>(i));
  }
  return array;
}

// ---- indexing -------------------------------------------------------------------------------

llvm::Value *ArrayLowering::lowerArrayIndex(Expr *expr, llvm::Value **elementAddressOut) {
  Expr *baseExpr = expr->operands[0];
  Expr *index = expr->operands[1];
  const Type *arrayType = core.typeOf(baseExpr);
  llvm::Value *array = core.lowerExpr(baseExpr);
  struct Item {
    IndexPieceKind kind;
    Expr *piece;                  ///< nullptr for a full slice from an ellipsis
    llvm::Value *value = nullptr; ///< an integer or slice value taken from a tuple-valued index
    const Type *type = nullptr;
  };
  std::vector<Item> items;
  const Type *indexType = core.typeOf(index);
  if (index->kind != ExprKind::Tuple && indexType->isTuple()) {
    // a[t] with t = (i, s, None, ...): the tuple's integers, slice values, new axes and
    // ellipsis (full slices), in order.
    llvm::Value *tuple = core.lowerExpr(index);
    int consumed = 0;
    for (const Type *element : indexType->elements())
      consumed += element->isNone() || element == ellipsisType() ? 0 : 1;
    for (size_t i = 0; i < indexType->elements().size(); ++i) {
      const Type *element = indexType->elements()[i];
      if (element == ellipsisType()) {
        items.insert(items.end(), arrayType->ndim() - consumed, {IndexPieceKind::Slice, nullptr});
        continue;
      }
      IndexPieceKind kind = element->isNone()                    ? IndexPieceKind::NewAxis
                            : element->kind() == TypeKind::Slice ? IndexPieceKind::Slice
                                                                 : IndexPieceKind::Integer;
      items.push_back(
          {kind, nullptr, core.tupleElement(tuple, indexType, static_cast<unsigned>(i)), element});
    }
  } else {
    std::vector<Expr *> pieces =
        index->kind == ExprKind::Tuple ? index->operands : std::vector<Expr *>{index};
    std::vector<const Type *> pieceTypes;
    for (Expr *piece : pieces)
      pieceTypes.push_back(core.typeOf(piece));
    classifyIndex(arrayType, pieceTypes, expr->location); // reports bad indices
    // Expand an ellipsis into full slices.
    int consumed = 0;
    for (const Type *type : pieceTypes)
      consumed += (type == sliceType() || (!type->isNone() && type != ellipsisType())) ? 1 : 0;
    for (Expr *piece : pieces) {
      const Type *type = core.typeOf(piece);
      if (type == ellipsisType())
        items.insert(items.end(), arrayType->ndim() - consumed, {IndexPieceKind::Slice, nullptr});
      else if (type->isNone())
        items.push_back({IndexPieceKind::NewAxis, piece});
      else if (type == sliceType() || type->kind() == TypeKind::Slice)
        items.push_back({IndexPieceKind::Slice, piece});
      else
        items.push_back({IndexPieceKind::Integer, piece});
    }
  }
  // Walk the pieces, building the view's extents and strides and its first element's offset.
  llvm::Value *offset = builder.getInt64(0);
  std::vector<llvm::Value *> extents, strides;
  int axis = 0;
  for (const Item &item : items) {
    IndexPieceKind kind = item.kind;
    Expr *piece = item.piece;
    if (kind == IndexPieceKind::NewAxis) {
      extents.push_back(builder.getInt64(1));
      strides.push_back(builder.getInt64(0));
      continue;
    }
    llvm::Value *extent = arrayField(array, ArrayLayout::Shape, axis);
    llvm::Value *stride = axisStride(array, arrayType, axis);
    if (kind == IndexPieceKind::Integer) {
      llvm::Value *position =
          piece ? checkedIndex(lowerIndexPiece(piece), core.typeOf(piece), extent, axis)
                : checkedIndex(item.value, item.type, extent, axis);
      offset = builder.CreateAdd(offset, builder.CreateMul(position, stride));
    } else if (item.value || (piece && core.typeOf(piece)->kind() == TypeKind::Slice)) {
      // A slice value: its bounds are unpacked already; a zero step raises here.
      ContainerLowering::ListSlice adjusted = core.containers().listSliceOfValue(
          item.value ? item.value : core.lowerExpr(piece), extent);
      offset = builder.CreateAdd(
          offset,
          builder.CreateSelect(builder.CreateICmpSGT(adjusted.count, builder.getInt64(0)),
                               builder.CreateMul(adjusted.start, stride), builder.getInt64(0)));
      extents.push_back(adjusted.count);
      strides.push_back(builder.CreateMul(stride, adjusted.step));
    } else if (!piece) {
      extents.push_back(extent);
      strides.push_back(stride);
    } else {
      // A slice: Python's PySlice_AdjustIndices, at run time.
      llvm::Value *zero = builder.getInt64(0);
      llvm::Value *one = builder.getInt64(1);
      auto part = [&](int i) -> std::pair<llvm::Value *, bool> {
        Expr *bound = piece->operands[i];
        if (!bound || core.typeOf(bound)->isNone())
          return {nullptr, false};
        return {core.castValue(core.lowerExpr(bound), core.typeOf(bound), types::int64()), true};
      };
      auto [stepValue, hasStep] = part(2);
      llvm::Value *step = hasStep ? stepValue : one;
      if (hasStep)
        core.exceptions().raiseIf(builder.CreateICmpEQ(step, zero), ValueErrorId,
                                  "slice step cannot be zero");
      // Python's PySlice_AdjustIndices, as for lists; the bounds are lowered in the order
      // above (the step first), then adjusted.
      llvm::Value *startBound = part(0).first;
      llvm::Value *stopBound = part(1).first;
      ContainerLowering::ListSlice adjusted =
          core.containers().adjustSlice(startBound, stopBound, hasStep ? step : nullptr, extent);
      llvm::Value *start = adjusted.start;
      llvm::Value *length = adjusted.count;
      offset =
          builder.CreateAdd(offset, builder.CreateSelect(builder.CreateICmpSGT(length, zero),
                                                         builder.CreateMul(start, stride), zero));
      extents.push_back(length);
      strides.push_back(builder.CreateMul(stride, step));
    }
    ++axis;
  }
  for (; axis < arrayType->ndim(); ++axis) {
    extents.push_back(arrayField(array, ArrayLayout::Shape, axis));
    strides.push_back(arrayField(array, ArrayLayout::Strides, axis));
  }
  llvm::Value *address =
      builder.CreateGEP(builder.getInt8Ty(), arrayField(array, ArrayLayout::Data), offset);
  const Type *resultType = core.typeOf(expr);
  if (!resultType->isArray()) {
    *elementAddressOut = address;
    return nullptr;
  }
  llvm::Value *view = llvm::UndefValue::get(valueType(context, resultType));
  view = withArrayField(view, ArrayLayout::MemInfo, arrayField(array, ArrayLayout::MemInfo));
  view = withArrayField(view, ArrayLayout::Parent, arrayField(array, ArrayLayout::Parent));
  view = withArrayField(view, ArrayLayout::ItemSize, arrayField(array, ArrayLayout::ItemSize));
  view = withArrayField(view, ArrayLayout::Data, address);
  llvm::Value *count = builder.getInt64(1);
  for (size_t i = 0; i < extents.size(); ++i) {
    view = withArrayField(view, ArrayLayout::Shape, extents[i], static_cast<int>(i));
    view = withArrayField(view, ArrayLayout::Strides, strides[i], static_cast<int>(i));
    count = builder.CreateMul(count, extents[i]);
  }
  view = withArrayField(view, ArrayLayout::ItemCount, count);
  // A view shares its base's block: it holds a reference of its own.
  core.incref(view, resultType);
  core.addTemporary(view, resultType);
  return view;
}

/// Raises NumPy's IndexError unless the mask `selector` has the shape of `array`.
static void checkMaskShape(FunctionLowering &core, ArrayLowering &arrays, llvm::Value *array,
                           llvm::Value *selector, int ndim) {
  llvm::IRBuilder<> &builder = core.irBuilder();
  for (int axis = 0; axis < ndim; ++axis)
    core.exceptions().raiseIf(
        builder.CreateICmpNE(arrays.arrayField(array, ArrayLayout::Shape, axis),
                             arrays.arrayField(selector, ArrayLayout::Shape, axis)),
        IndexErrorId,
        "boolean index did not match indexed array along dimension " + std::to_string(axis));
}

llvm::Value *ArrayLowering::lowerArraySubscript(Expr *expr) {
  Expr *index = expr->operands[1];
  const Type *arrayType = core.typeOf(expr->operands[0]);
  const Type *indexType = core.typeOf(index);
  bool indexArray = indexType->isArray() && !isScalarIndexArray(indexType);
  if (isAdvancedIndex(expr))
    return lowerAdvancedIndex(expr);
  if (indexArray) {
    // A boolean mask of the array's shape, or an integer array of a 1-D array: a new 1-D
    // array.
    llvm::Value *array = core.lowerExpr(expr->operands[0]);
    llvm::Value *selector = core.lowerExpr(index);
    const Type *dtype = arrayType->dtype();
    const Type *resultType = core.typeOf(expr);
    llvm::Value *extent = arrayField(array, ArrayLayout::Shape, 0);
    llvm::Value *selectorExtent = arrayField(selector, ArrayLayout::Shape, 0);
    llvm::Type *i64 = builder.getInt64Ty();
    if (indexType->dtype()->isBoolean()) {
      checkMaskShape(core, *this, array, selector, arrayType->ndim());
      std::vector<llvm::Value *> maskShape = arrayShape(selector, indexType);
      llvm::AllocaInst *count = core.createEntryAlloca(i64, "mask.count");
      builder.CreateStore(builder.getInt64(0), count);
      forEachIndex(maskShape, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *flag = loadElement(elementAddress(selector, indexType, at), types::boolean());
        llvm::Value *current = builder.CreateLoad(i64, count);
        builder.CreateStore(builder.CreateAdd(current, builder.CreateZExt(flag, i64)), count);
      });
      llvm::Value *result = allocateArray(resultType, {builder.CreateLoad(i64, count)});
      builder.CreateStore(builder.getInt64(0), count);
      forEachIndex(maskShape, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *flag = loadElement(elementAddress(selector, indexType, at), types::boolean());
        llvm::BasicBlock *copy = core.newBlock("mask.copy");
        llvm::BasicBlock *next = core.newBlock("mask.next");
        builder.CreateCondBr(flag, copy, next);
        builder.SetInsertPoint(copy);
        llvm::Value *position = builder.CreateLoad(i64, count);
        storeElement(elementAddress(result, resultType, {position}),
                     loadElement(elementAddress(array, arrayType, at), dtype), dtype);
        builder.CreateStore(builder.CreateAdd(position, builder.getInt64(1)), count);
        builder.CreateBr(next);
        builder.SetInsertPoint(next);
      });
      return result;
    }
    llvm::Value *result = allocateArray(resultType, {selectorExtent});
    forEachIndex({selectorExtent}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *position =
          loadElement(elementAddress(selector, indexType, at), indexType->dtype());
      // fancy indexing always checks
      position = checkedIndex(position, indexType->dtype(), extent, 0, /*alwaysCheck=*/true);
      storeElement(elementAddress(result, resultType, at),
                   loadElement(elementAddress(array, arrayType, {position}), dtype), dtype);
    });
    return result;
  }
  llvm::Value *address = nullptr;
  llvm::Value *view = lowerArrayIndex(expr, &address);
  if (view)
    return view;
  // The item as compiled code reads it (a `<U n` item is read as a str: types::itemValueType).
  const Type *baseType = core.typeOf(expr->operands[0]);
  const Type *stored = baseType->isArray() ? baseType->dtype() : core.typeOf(expr);
  return core.castValue(loadElement(address, stored), stored, core.typeOf(expr));
}

/// NumPy drops a source's extra leading axes when each is 1 (a (1, n) row stored into (n,)):
/// `source` becomes the view of its last `ndim` axes, or ValueError is raised when it runs.
static void dropLeadingUnitAxes(ArrayLowering &arrays, FunctionLowering &core, llvm::Value *&source,
                                const Type *&sourceType, int ndim) {
  if (!sourceType->isArray() || sourceType->ndim() <= ndim)
    return;
  llvm::IRBuilder<> &builder = core.irBuilder();
  int extra = sourceType->ndim() - ndim;
  for (int axis = 0; axis < extra; ++axis)
    core.exceptions().raiseIf(
        builder.CreateICmpNE(arrays.arrayField(source, ArrayLayout::Shape, axis),
                             builder.getInt64(1)),
        ValueErrorId, "could not broadcast input array into the target shape");
  const Type *trailingType = types::array(sourceType->dtype(), ndim, 'A', true);
  llvm::Value *trailing = llvm::UndefValue::get(valueType(builder.getContext(), trailingType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemCount,
                     ArrayLayout::ItemSize, ArrayLayout::Data})
    trailing = arrays.withArrayField(trailing, field, arrays.arrayField(source, field));
  for (int axis = 0; axis < ndim; ++axis) {
    trailing =
        arrays.withArrayField(trailing, ArrayLayout::Shape,
                              arrays.arrayField(source, ArrayLayout::Shape, extra + axis), axis);
    trailing = arrays.withArrayField(trailing, ArrayLayout::Strides,
                                     arrays.axisStride(source, sourceType, extra + axis), axis);
  }
  source = trailing; // the same block: no reference of its own (the source holds one)
  sourceType = trailingType;
}

void ArrayLowering::lowerArrayStore(Expr *target, llvm::Value *value, const Type *valueType) {
  if (valueType->isOptional()) { // read once, before any element is written: TypeError if None
    value = core.castValue(value, valueType, valueType->optionalValue());
    valueType = valueType->optionalValue();
  }
  if (core.typeOf(target->operands[0])->isPointer()) {
    const Type *slotType = core.typeOf(target);
    storeElement(core.pointerElementAddress(target), core.castValue(value, valueType, slotType),
                 slotType);
    return;
  }
  Expr *index = target->operands[1];
  const Type *indexType = core.typeOf(index);
  bool indexArray = indexType->isArray() && !isScalarIndexArray(indexType);
  bool selection = isAdvancedIndex(target);
  if (selection || indexArray) // the selection's slot has the typed result's dimensions
    dropLeadingUnitAxes(*this, core, value, valueType, core.typeOf(target)->ndim());
  if (selection) {
    lowerAdvancedIndexStore(target, value, valueType);
    return;
  }
  if (indexArray) {
    lowerSelectedStore(target, value, valueType);
    return;
  }
  llvm::Value *address = nullptr;
  llvm::Value *view = lowerArrayIndex(target, &address);
  const Type *slotType = core.typeOf(target);
  if (!view) {
    slotType = core.typeOf(target->operands[0])->dtype(); // a `<U n` item's str type is no slot
    if (valueType->isArray()) { // a 0-d array (typing allows no other): its item
      value = loadElement(arrayField(value, ArrayLayout::Data), valueType->dtype());
      valueType = valueType->dtype();
    }
    storeElement(address, core.castValue(value, valueType, slotType), slotType);
    return;
  }
  assignIntoArray(view, slotType, value, valueType);
}

void ArrayLowering::lowerSelectedStore(Expr *target, llvm::Value *value, const Type *valueType) {
  // a[mask] = v and a[indices] = v: a scalar goes to every selected element; an array's
  // elements go in order (NumPy's rule for a 1-D selection).
  const Type *arrayType = core.typeOf(target->operands[0]);
  const Type *selectorType = core.typeOf(target->operands[1]);
  llvm::Value *array = core.lowerExpr(target->operands[0]);
  llvm::Value *selector = core.lowerExpr(target->operands[1]);
  const Type *dtype = arrayType->dtype();
  llvm::Type *i64 = builder.getInt64Ty();
  if (valueType->isArray() && valueType->ndim() == 0) { // a 0-d array: its item, everywhere
    value = loadElement(arrayField(value, ArrayLayout::Data), valueType->dtype());
    valueType = valueType->dtype();
  }
  llvm::Value *extent = arrayField(array, ArrayLayout::Shape, 0);
  bool isMask = selectorType->dtype()->isBoolean();
  if (isMask) // a mask has the array's shape (a 1-D one, or v[v > 0] of an n-d v)
    checkMaskShape(core, *this, array, selector, arrayType->ndim());
  llvm::Value *valueCount =
      valueType->isArray() ? arrayField(value, ArrayLayout::Shape, 0) : builder.getInt64(1);
  llvm::AllocaInst *taken = core.createEntryAlloca(i64, "selected.count");
  builder.CreateStore(builder.getInt64(0), taken);
  forEachIndex(arrayShape(selector, selectorType), [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *item =
        loadElement(elementAddress(selector, selectorType, at), selectorType->dtype());
    llvm::BasicBlock *store = core.newBlock("selected.store");
    llvm::BasicBlock *next = core.newBlock("selected.next");
    std::vector<llvm::Value *> position = at;
    if (isMask) {
      builder.CreateCondBr(item, store, next);
    } else {
      // fancy indices always check
      position = {checkedIndex(item, selectorType->dtype(), extent, 0, /*alwaysCheck=*/true)};
      builder.CreateBr(store);
    }
    builder.SetInsertPoint(store);
    llvm::Value *element = value;
    const Type *elementType = valueType;
    if (valueType->isArray()) {
      // Values repeat when there are fewer of them (NumPy allows 1; more is an error below).
      llvm::Value *count = builder.CreateLoad(i64, taken);
      llvm::Value *source = builder.CreateURem(count, valueCount);
      element = loadElement(elementAddress(value, valueType, {source}), valueType->dtype());
      elementType = valueType->dtype();
      builder.CreateStore(builder.CreateAdd(count, builder.getInt64(1)), taken);
    }
    storeElement(elementAddress(array, arrayType, position),
                 core.castValue(element, elementType, dtype), dtype);
    builder.CreateBr(next);
    builder.SetInsertPoint(next);
  });
}

void ArrayLowering::assignIntoArray(llvm::Value *target, const Type *targetType,
                                    llvm::Value *source, const Type *sourceType) {
  const Type *dtype = targetType->dtype();
  std::vector<llvm::Value *> shape = arrayShape(target, targetType);
  if (sourceType->isTuple() || sourceType->isList()) {
    assignSequenceIntoArray(target, targetType, shape, source, sourceType);
    return;
  }
  if (!sourceType->isArray()) {
    llvm::Value *element = core.castValue(source, sourceType, dtype);
    forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
      storeElement(elementAddress(target, targetType, at), element, dtype);
    });
    return;
  }
  dropLeadingUnitAxes(*this, core, source, sourceType, targetType->ndim());
  // Broadcast the source's trailing dimensions against the target's.
  int offset = targetType->ndim() - sourceType->ndim();
  for (int i = 0; i < sourceType->ndim(); ++i) {
    llvm::Value *sourceExtent = arrayField(source, ArrayLayout::Shape, i);
    core.exceptions().raiseIf(
        builder.CreateAnd(builder.CreateICmpNE(sourceExtent, shape[offset + i]),
                          builder.CreateICmpNE(sourceExtent, builder.getInt64(1))),
        ValueErrorId, "could not broadcast input array into the target shape");
  }
  if (moduleLowering.target.hasThreadHierarchy()) {
    // A GPU's arrays are borrowed (they carry no block that could show a shared owner) and no
    // copy can be allocated there: the source is read in place, as numba-cuda reads it.
    copyBroadcast(target, targetType, source, sourceType);
    return;
  }
  llvm::Value *copy = nullptr;
  const Type *separateType = sourceType;
  llvm::Value *separate = separateFrom(target, source, sourceType, &separateType, &copy);
  copyBroadcast(target, targetType, separate, separateType);
  core.decref(copy, separateType);
}

void ArrayLowering::assignSequenceIntoArray(llvm::Value *target, const Type *targetType,
                                            const std::vector<llvm::Value *> &shape,
                                            llvm::Value *source, const Type *sourceType) {
  const Type *dtype = targetType->dtype();
  if (sourceType->isList() && sourceType->itemType() && !sourceType->itemType()->isNumber()) {
    // Nested lists (`a[:] = [[1, 2], [3, 4]]`): first the array NumPy makes of them, built by
    // np.array's own lowering (which checks that they are rectangular), then broadcast.
    int depth = 0;
    for (const Type *level = sourceType; level && (level->isList() || level->isTuple()); ++depth)
      level = level->isList()             ? level->itemType()
              : level->elements().empty() ? nullptr
                                          : level->elements()[0];
    const Type *arrayType = types::array(dtype, depth, 'C', false);
    LibraryCall call;
    call.function = Library::get().find("numpy.array");
    call.argumentTypes = {sourceType};
    call.resultType = arrayType;
    // The new array is the statement's temporary (allocateArray), released after the store.
    llvm::Value *array = call.function->lower(core, call, {source});
    assignIntoArray(target, targetType, array, arrayType);
    return;
  }
  // The sequence's extents: a list's length, or each tuple level's (static) count.
  std::vector<llvm::Value *> extents;
  std::vector<size_t> counts; // the tuples' counts, for the flat copy below
  if (sourceType->isList()) {
    extents.push_back(core.containers().listLength(source));
  } else {
    for (const Type *level = sourceType; level->isTuple(); level = level->elements()[0]) {
      counts.push_back(level->elements().size());
      extents.push_back(builder.getInt64(counts.back()));
      if (counts.back() == 0)
        break;
    }
  }
  size_t offset = shape.size() - extents.size();
  for (size_t i = 0; i < extents.size(); ++i)
    core.exceptions().raiseIf(
        builder.CreateAnd(builder.CreateICmpNE(extents[i], shape[offset + i]),
                          builder.CreateICmpNE(extents[i], builder.getInt64(1))),
        ValueErrorId, "could not broadcast input array into the target shape");
  // Nested tuples (their items' types may differ) are first converted into a flat buffer of
  // the array's dtype, in C order, which run-time indices then read.
  llvm::Value *buffer = nullptr;
  size_t total = 1;
  for (size_t count : counts)
    total *= count;
  if (!sourceType->isList() && total > 0) {
    buffer = core.createEntryAlloca(llvm::ArrayType::get(memoryType(context, dtype), total),
                                    "sequence.items");
    std::function<void(llvm::Value *, const Type *, size_t)> flatten = [&](llvm::Value *value,
                                                                           const Type *type,
                                                                           size_t position) {
      if (!type->isTuple()) {
        llvm::Value *address = builder.CreateConstInBoundsGEP2_64(
            llvm::ArrayType::get(memoryType(context, dtype), total), buffer, 0, position);
        storeElement(address, core.castValue(value, type, dtype), dtype);
        return;
      }
      size_t stride = 1;
      for (const Type *inner = type->elements()[0]; inner->isTuple(); inner = inner->elements()[0])
        stride *= inner->elements().size();
      for (size_t i = 0; i < type->elements().size(); ++i)
        flatten(core.tupleElement(value, type, static_cast<unsigned>(i)), type->elements()[i],
                position + i * stride);
    };
    flatten(source, sourceType, 0);
  }
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *item = nullptr;
    if (sourceType->isList()) {
      // A length of 1 broadcasts: its one item everywhere.
      llvm::Value *position = builder.CreateSelect(
          builder.CreateICmpEQ(extents[0], builder.getInt64(1)), builder.getInt64(0), at[offset]);
      item = core.castValue(core.containers().loadListItem(source, sourceType, position),
                            sourceType->itemType(), dtype);
    } else {
      if (total == 0)
        return; // an empty tuple fills an empty view
      llvm::Value *flat = builder.getInt64(0);
      for (size_t i = 0; i < counts.size(); ++i) {
        llvm::Value *position = counts[i] == 1 ? builder.getInt64(0) : at[offset + i];
        flat = builder.CreateAdd(builder.CreateMul(flat, builder.getInt64(counts[i])), position);
      }
      llvm::Value *address =
          builder.CreateInBoundsGEP(llvm::ArrayType::get(memoryType(context, dtype), total), buffer,
                                    {builder.getInt64(0), flat});
      item = loadElement(address, dtype);
    }
    storeElement(elementAddress(target, targetType, at), item, dtype);
  });
}

llvm::Value *ArrayLowering::separateFrom(llvm::Value *target, llvm::Value *source,
                                         const Type *sourceType, const Type **resultType,
                                         llvm::Value **copy) {
  // Views of one block may overlap (a[1:] = a[:-1]): NumPy then reads a copy of the source.
  auto sameOwner = [&](ArrayLayout::Field field) {
    llvm::Value *mine = arrayField(source, field);
    return builder.CreateAnd(builder.CreateICmpEQ(mine, arrayField(target, field)),
                             builder.CreateIsNotNull(mine));
  };
  llvm::Value *mayOverlap =
      builder.CreateOr(sameOwner(ArrayLayout::MemInfo), sameOwner(ArrayLayout::Parent));
  llvm::BasicBlock *before = builder.GetInsertBlock();
  llvm::BasicBlock *copyBlock = core.newBlock("separate.copy");
  llvm::BasicBlock *done = core.newBlock("separate.done");
  builder.CreateCondBr(mayOverlap, copyBlock, done);
  builder.SetInsertPoint(copyBlock);
  const Type *copyType = types::array(sourceType->dtype(), sourceType->ndim(), 'C', false);
  llvm::Value *copied = allocateArray(copyType, arrayShape(source, sourceType));
  core.takeOwnership(copied, copyType); // the caller releases it, on both paths
  copyBroadcast(copied, copyType, source, sourceType);
  llvm::Value *copiedBlock = arrayField(copied, ArrayLayout::MemInfo);
  llvm::BasicBlock *copyEnd = builder.GetInsertBlock();
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  // Either array is read through general strides; the copy's block (or none) is released after.
  *resultType = types::array(sourceType->dtype(), sourceType->ndim(), 'A', true);
  llvm::PHINode *chosen = builder.CreatePHI(source->getType(), 2);
  chosen->addIncoming(source, before);
  chosen->addIncoming(copied, copyEnd);
  llvm::PHINode *block = builder.CreatePHI(builder.getPtrTy(), 2);
  block->addIncoming(llvm::ConstantPointerNull::get(builder.getPtrTy()), before);
  block->addIncoming(copiedBlock, copyEnd);
  llvm::Value *owned =
      builder.CreateInsertValue(llvm::Constant::getNullValue(source->getType()), block,
                                {static_cast<unsigned>(ArrayLayout::MemInfo)});
  *copy = owned;
  return chosen;
}

void ArrayLowering::copyBroadcast(llvm::Value *target, const Type *targetType, llvm::Value *source,
                                  const Type *sourceType) {
  const Type *dtype = targetType->dtype();
  std::vector<llvm::Value *> shape = arrayShape(target, targetType);
  int offset = targetType->ndim() - sourceType->ndim();
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    std::vector<llvm::Value *> sourceIndex;
    for (int i = 0; i < sourceType->ndim(); ++i) {
      llvm::Value *extent = arrayField(source, ArrayLayout::Shape, i);
      sourceIndex.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                                 builder.getInt64(0), at[offset + i]));
    }
    llvm::Value *element =
        loadElement(elementAddress(source, sourceType, sourceIndex), sourceType->dtype());
    storeElement(elementAddress(target, targetType, at),
                 core.castValue(element, sourceType->dtype(), dtype), dtype);
  });
}

const Type *ArrayLowering::arrayRowType(const Type *arrayType) {
  if (arrayType->ndim() == 1)
    return types::itemValueType(arrayType->dtype());
  return types::array(arrayType->dtype(), arrayType->ndim() - 1,
                      arrayType->layout() == 'C' ? 'C' : 'A', arrayType->isReadonly());
}

llvm::Value *ArrayLowering::arrayRow(llvm::Value *array, const Type *arrayType,
                                     llvm::Value *index) {
  const Type *rowType = arrayRowType(arrayType);
  llvm::Value *address =
      builder.CreateGEP(builder.getInt8Ty(), arrayField(array, ArrayLayout::Data),
                        builder.CreateMul(index, arrayField(array, ArrayLayout::Strides, 0)));
  if (!rowType->isArray()) // the item as compiled code reads it (types::itemValueType)
    return core.castValue(loadElement(address, arrayType->dtype()), arrayType->dtype(), rowType);
  llvm::Value *row = llvm::UndefValue::get(valueType(context, rowType));
  for (auto field : {ArrayLayout::MemInfo, ArrayLayout::Parent, ArrayLayout::ItemSize})
    row = withArrayField(row, field, arrayField(array, field));
  row = withArrayField(row, ArrayLayout::Data, address);
  llvm::Value *count = builder.getInt64(1);
  for (int i = 1; i < arrayType->ndim(); ++i) {
    llvm::Value *extent = arrayField(array, ArrayLayout::Shape, i);
    row = withArrayField(row, ArrayLayout::Shape, extent, i - 1);
    row = withArrayField(row, ArrayLayout::Strides, arrayField(array, ArrayLayout::Strides, i),
                         i - 1);
    count = builder.CreateMul(count, extent);
  }
  row = withArrayField(row, ArrayLayout::ItemCount, count);
  core.incref(row, rowType);
  core.addTemporary(row, rowType);
  return row;
}

void ArrayLowering::lowerAugmentedStore(Stmt *stmt) {
  // a[i] += v updates one element; a[1:3] += v and a += v update the array in place.
  Expr *target = stmt->targets[0];
  BinaryOp op = stmt->augmentedOp;
  llvm::Value *value = core.lowerExpr(stmt->value);
  const Type *valueType = core.typeOf(stmt->value);
  const Type *slotType = core.typeOf(target);
  if (llvm::Value *field = recordFieldAddress(target)) { // r.x += v
    llvm::Value *current = loadRecordField(field, slotType);
    const Type *resultType = binaryResultType(op, slotType, valueType);
    llvm::Value *result =
        core.operators().lowerBinary(op, current, slotType, value, valueType, resultType);
    storeRecordField(field, core.castValue(result, resultType, slotType), slotType);
    return;
  }
  if (target->kind == ExprKind::Subscript && holdsIndexArray(target)) { // a[idx] += v
    lowerAdvancedAugmentedStore(target, op, value, valueType);
    return;
  }
  llvm::Value *address = nullptr;
  llvm::Value *view = nullptr;
  const Type *baseType =
      target->kind == ExprKind::Subscript ? core.typeOf(target->operands[0]) : nullptr;
  if (baseType && baseType->isPointer()) // p[i] += v through a CPointer: one element
    address = core.pointerElementAddress(target);
  else if (baseType && !baseType->isDict())
    view = lowerArrayIndex(target, &address);
  else // a variable's array (the version it reads), or the array a dict holds (borrowed)
    view = core.lowerExpr(target->kind == ExprKind::Name ? augmentedRead(stmt) : target);
  if (!view) {
    llvm::Value *current = loadElement(address, slotType);
    const Type *resultType = binaryResultType(op, slotType, valueType);
    llvm::Value *result =
        core.operators().lowerBinary(op, current, slotType, value, valueType, resultType);
    storeElement(address, core.castValue(result, resultType, slotType), slotType);
    return;
  }
  const Type *dtype = slotType->dtype();
  llvm::Value *copy = nullptr;
  if (valueType->isArray()) // a[::-1] += a reads a copy, as NumPy does
    value = separateFrom(view, value, valueType, &valueType, &copy);
  const Type *valueElement = valueType->isArray() ? valueType->dtype() : valueType;
  const Type *resultElement = binaryResultType(op, dtype, valueElement);
  std::vector<llvm::Value *> shape = arrayShape(view, slotType);
  int offset = slotType->ndim() - (valueType->isArray() ? valueType->ndim() : 0);
  if (valueType->isArray())
    for (int i = 0; i < valueType->ndim(); ++i) {
      llvm::Value *extent = arrayField(value, ArrayLayout::Shape, i);
      core.exceptions().raiseIf(
          builder.CreateAnd(builder.CreateICmpNE(extent, shape[offset + i]),
                            builder.CreateICmpNE(extent, builder.getInt64(1))),
          ValueErrorId, "operands could not be broadcast together");
    }
  bool savedContext = core.insideElementwise;
  core.insideElementwise = true;
  forEachIndex(shape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *slot = elementAddress(view, slotType, at);
    llvm::Value *operand = value;
    if (valueType->isArray()) {
      std::vector<llvm::Value *> index;
      for (int i = 0; i < valueType->ndim(); ++i) {
        llvm::Value *extent = arrayField(value, ArrayLayout::Shape, i);
        index.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                             builder.getInt64(0), at[offset + i]));
      }
      operand = loadElement(elementAddress(value, valueType, index), valueElement);
    }
    llvm::Value *result = core.operators().lowerBinary(op, loadElement(slot, dtype), dtype, operand,
                                                       valueElement, resultElement);
    storeElement(slot, core.castValue(result, resultElement, dtype), dtype);
  });
  core.insideElementwise = savedContext;
  if (copy)
    core.decref(copy, valueType);
}

} // namespace taipan
