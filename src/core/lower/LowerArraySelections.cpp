// NumPy's advanced indexing (`a[i, j]` with index arrays broadcast together, masks, None and
// '...' beside them, tuple values holding them): read into a new array and stored through.
#include "lower/FunctionLowering.h"

#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/ArrayTyping.h"

namespace taipan {
namespace {

/// One piece of an index as written or as a tuple value holds it, its ellipsis not expanded.
struct IndexPiece {
  const Type *type;
  Expr *written = nullptr;      ///< the piece's expression when the index is written out
  llvm::Value *value = nullptr; ///< its value when taken from a tuple value
};

std::vector<IndexPiece> indexPieces(FunctionLowering &core, Expr *index) {
  std::vector<IndexPiece> pieces;
  const Type *indexType = core.typeOf(index);
  if (index->kind == ExprKind::Tuple) {
    for (Expr *piece : index->operands)
      pieces.push_back({core.typeOf(piece), piece});
  } else if (indexType->isTuple()) { // a[t] with t = (i, idx, ..., None)
    llvm::Value *tuple = core.lowerExpr(index);
    for (size_t i = 0; i < indexType->elements().size(); ++i)
      pieces.push_back({indexType->elements()[i], nullptr,
                        core.tupleElement(tuple, indexType, static_cast<unsigned>(i))});
  } else {
    pieces.push_back({indexType, index});
  }
  return pieces;
}

bool isIndexArray(const Type *type) { return type->isArray() && !isScalarIndexArray(type); }

} // namespace

/// How each axis of the indexed array is addressed, and the result's shape (NumPy's rules: the
/// index arrays broadcast together; the axes they give stand where the first of them (or of the
/// integers) stands when no slice, None or '...' separates them, else first).
struct ArrayLowering::AdvancedIndex {
  enum class Access { Fixed, Range, Selected };
  struct Axis {
    Access access = Access::Range;
    llvm::Value *start = nullptr; ///< Fixed: the checked position; Range: the first position
    llvm::Value *step = nullptr;  ///< Range: the step
    llvm::Value *extent = nullptr;
    int resultAxis = 0; ///< Range: the result's axis it runs along
    int selector = 0;   ///< Selected: which index array gives its positions
  };
  struct Selector {
    const Type *type;
    llvm::Value *array;
  };
  const Type *arrayType;
  llvm::Value *array;
  std::vector<Axis> axes;
  std::vector<Selector> selectors;
  std::vector<llvm::Value *> resultShape;
  int broadcastStart = 0; ///< the result's axis the index arrays' broadcast shape starts at
  int broadcastDimensions = 0;
};

bool ArrayLowering::holdsIndexArray(Expr *subscript) {
  if (!core.typeOf(subscript->operands[0])->isArray())
    return false;
  Expr *index = subscript->operands[1];
  const Type *indexType = core.typeOf(index);
  if (index->kind == ExprKind::Tuple) {
    for (Expr *piece : index->operands)
      if (isIndexArray(core.typeOf(piece)))
        return true;
    return false;
  }
  if (indexType->isTuple()) {
    for (const Type *element : indexType->elements())
      if (isIndexArray(element))
        return true;
    return false;
  }
  return isIndexArray(indexType);
}

bool ArrayLowering::isAdvancedIndex(Expr *subscript) {
  if (!holdsIndexArray(subscript))
    return false;
  const Type *arrayType = core.typeOf(subscript->operands[0]);
  Expr *index = subscript->operands[1];
  const Type *indexType = core.typeOf(index);
  if (index->kind == ExprKind::Tuple || indexType->isTuple())
    return true;
  // One array alone: a 1-D one of a 1-D array and a mask of the array's shape have their own
  // loops (LowerArrays.cpp).
  if (indexType->dtype()->isBoolean())
    return indexType->ndim() != arrayType->ndim();
  return arrayType->ndim() > 1 || indexType->ndim() > 1;
}

ArrayLowering::AdvancedIndex ArrayLowering::prepareAdvancedIndex(Expr *subscript) {
  AdvancedIndex index;
  index.arrayType = core.typeOf(subscript->operands[0]);
  index.array = core.lowerExpr(subscript->operands[0]);
  std::vector<IndexPiece> pieces = indexPieces(core, subscript->operands[1]);
  int ndim = index.arrayType->ndim();
  int consumed = 0;
  for (const IndexPiece &piece : pieces) // a mask indexes as many axes as it has
    consumed += piece.type->isNone() || piece.type == ellipsisType()           ? 0
                : isIndexArray(piece.type) && piece.type->dtype()->isBoolean() ? piece.type->ndim()
                                                                               : 1;
  // The result's axes in the order of the pieces: a basic one (a slice's, a new axis, one no
  // piece names) or the place of an advanced piece (an integer or an index array).
  struct ResultPiece {
    bool advanced;
    int axis; ///< basic: the array's axis it runs along, or -1 for a new axis
  };
  std::vector<ResultPiece> order;
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *zero = builder.getInt64(0);
  llvm::Value *one = builder.getInt64(1);
  auto wholeAxis = [&](int axis) {
    AdvancedIndex::Axis whole;
    whole.start = zero;
    whole.step = one;
    whole.extent = arrayField(index.array, ArrayLayout::Shape, axis);
    index.axes.push_back(whole);
    order.push_back({false, axis});
  };
  for (const IndexPiece &piece : pieces) {
    int axis = static_cast<int>(index.axes.size());
    const Type *type = piece.type;
    if (type == ellipsisType()) {
      for (int i = 0; i < ndim - consumed; ++i)
        wholeAxis(static_cast<int>(index.axes.size()));
      continue;
    }
    if (type->isNone()) {
      order.push_back({false, -1});
      continue;
    }
    llvm::Value *extent = arrayField(index.array, ArrayLayout::Shape, axis);
    AdvancedIndex::Axis access;
    access.extent = extent;
    if (type == sliceType()) { // a slice written in the index: Python's rules, its bounds in order
      auto bound = [&](int i) -> llvm::Value * {
        Expr *part = piece.written->operands[static_cast<size_t>(i)];
        if (!part || core.typeOf(part)->isNone())
          return nullptr;
        return core.castValue(core.lowerExpr(part), core.typeOf(part), types::int64());
      };
      llvm::Value *startBound = bound(0);
      llvm::Value *stopBound = bound(1);
      llvm::Value *step = bound(2);
      if (step)
        core.exceptions().raiseIf(builder.CreateICmpEQ(step, zero), ValueErrorId,
                                  "slice step cannot be zero");
      ContainerLowering::ListSlice slice =
          core.containers().adjustSlice(startBound, stopBound, step, extent);
      access.start = slice.start;
      access.step = slice.step;
      access.extent = slice.count;
      order.push_back({false, axis});
    } else if (type->kind() == TypeKind::Slice) {
      llvm::Value *value = piece.value ? piece.value : core.lowerExpr(piece.written);
      ContainerLowering::ListSlice slice = core.containers().listSliceOfValue(value, extent);
      access.start = slice.start;
      access.step = slice.step;
      access.extent = slice.count;
      order.push_back({false, axis});
    } else if (isIndexArray(type) && type->dtype()->isBoolean()) {
      // A mask of k dimensions indexes k axes with the k index arrays of its true items'
      // positions (NumPy's nonzero), its extents checked against the axes it stands for.
      llvm::Value *mask = piece.value ? piece.value : core.lowerExpr(piece.written);
      int maskDimensions = type->ndim();
      std::vector<llvm::Value *> maskShape = arrayShape(mask, type);
      for (int d = 0; d < maskDimensions; ++d)
        core.exceptions().raiseIf(
            builder.CreateICmpNE(maskShape[static_cast<size_t>(d)],
                                 arrayField(index.array, ArrayLayout::Shape, axis + d)),
            IndexErrorId,
            "boolean index did not match indexed array along axis " + std::to_string(axis + d));
      llvm::AllocaInst *count = core.createEntryAlloca(i64, "mask.count");
      builder.CreateStore(zero, count);
      forEachIndex(maskShape, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *flag = loadElement(elementAddress(mask, type, at), types::boolean());
        builder.CreateStore(
            builder.CreateAdd(builder.CreateLoad(i64, count), builder.CreateZExt(flag, i64)),
            count);
      });
      const Type *positionsType = types::array(types::int64(), 1, 'C', false);
      std::vector<llvm::Value *> positions;
      for (int d = 0; d < maskDimensions; ++d)
        positions.push_back(allocateArray(positionsType, {builder.CreateLoad(i64, count)}));
      builder.CreateStore(zero, count);
      forEachIndex(maskShape, [&](const std::vector<llvm::Value *> &at) {
        llvm::Value *flag = loadElement(elementAddress(mask, type, at), types::boolean());
        llvm::BasicBlock *take = core.newBlock("mask.take");
        llvm::BasicBlock *next = core.newBlock("mask.next");
        builder.CreateCondBr(flag, take, next);
        builder.SetInsertPoint(take);
        llvm::Value *k = builder.CreateLoad(i64, count);
        for (int d = 0; d < maskDimensions; ++d)
          storeElement(elementAddress(positions[static_cast<size_t>(d)], positionsType, {k}),
                       at[static_cast<size_t>(d)], types::int64());
        builder.CreateStore(builder.CreateAdd(k, one), count);
        builder.CreateBr(next);
        builder.SetInsertPoint(next);
      });
      for (int d = 0; d < maskDimensions; ++d) {
        AdvancedIndex::Axis selected;
        selected.access = AdvancedIndex::Access::Selected;
        selected.extent = arrayField(index.array, ArrayLayout::Shape, axis + d);
        selected.selector = static_cast<int>(index.selectors.size());
        index.selectors.push_back({positionsType, positions[static_cast<size_t>(d)]});
        index.axes.push_back(selected);
        order.push_back({true, axis + d});
      }
      index.broadcastDimensions = std::max(index.broadcastDimensions, 1);
      continue;
    } else if (isIndexArray(type)) {
      llvm::Value *selector = piece.value ? piece.value : core.lowerExpr(piece.written);
      const Type *selectorType = type;
      access.access = AdvancedIndex::Access::Selected;
      access.selector = static_cast<int>(index.selectors.size());
      index.selectors.push_back({selectorType, selector});
      index.broadcastDimensions = std::max(index.broadcastDimensions, selectorType->ndim());
      order.push_back({true, axis});
    } else { // an integer (or a 0-d integer array): advanced among index arrays, always checked
      llvm::Value *position = piece.value ? piece.value : lowerIndexPiece(piece.written);
      access.access = AdvancedIndex::Access::Fixed;
      access.start = checkedIndex(position, type, extent, axis, /*alwaysCheck=*/true);
      order.push_back({true, axis});
    }
    index.axes.push_back(access);
  }
  while (static_cast<int>(index.axes.size()) < ndim)
    wholeAxis(static_cast<int>(index.axes.size()));

  // The index arrays' broadcast shape (NumPy raises IndexError when they do not broadcast).
  std::vector<llvm::Value *> broadcast(static_cast<size_t>(index.broadcastDimensions), one);
  llvm::Value *mismatch = builder.getFalse();
  for (const AdvancedIndex::Selector &selector : index.selectors) {
    int offset = index.broadcastDimensions - selector.type->ndim();
    for (int d = 0; d < selector.type->ndim(); ++d) {
      llvm::Value *extent = arrayField(selector.array, ArrayLayout::Shape, d);
      llvm::Value *&current = broadcast[static_cast<size_t>(offset + d)];
      llvm::Value *extentIsOne = builder.CreateICmpEQ(extent, one);
      mismatch = builder.CreateOr(
          mismatch, builder.CreateAnd(builder.CreateNot(extentIsOne),
                                      builder.CreateAnd(builder.CreateICmpNE(current, one),
                                                        builder.CreateICmpNE(current, extent))));
      current = builder.CreateSelect(extentIsOne, current, extent);
    }
  }
  core.exceptions().raiseIf(mismatch, IndexErrorId,
                            "shape mismatch: indexing arrays could not be broadcast together");

  // Where the broadcast axes go: where the first advanced piece stands when the advanced
  // pieces are adjacent, else first.
  int firstAdvanced = -1, lastAdvanced = -1;
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i].advanced) {
      if (firstAdvanced < 0)
        firstAdvanced = static_cast<int>(i);
      lastAdvanced = static_cast<int>(i);
    }
  bool adjacent = true;
  for (int i = firstAdvanced; i <= lastAdvanced; ++i)
    adjacent &= order[static_cast<size_t>(i)].advanced;
  bool broadcastPlaced = false;
  auto placeBroadcast = [&]() {
    index.broadcastStart = static_cast<int>(index.resultShape.size());
    index.resultShape.insert(index.resultShape.end(), broadcast.begin(), broadcast.end());
    broadcastPlaced = true;
  };
  if (!adjacent)
    placeBroadcast();
  for (const ResultPiece &piece : order) {
    if (piece.advanced) {
      if (!broadcastPlaced)
        placeBroadcast();
      continue;
    }
    if (piece.axis < 0) { // a new axis
      index.resultShape.push_back(one);
      continue;
    }
    AdvancedIndex::Axis &axis = index.axes[static_cast<size_t>(piece.axis)];
    axis.resultAxis = static_cast<int>(index.resultShape.size());
    index.resultShape.push_back(axis.extent);
  }
  return index;
}

llvm::Value *ArrayLowering::advancedElementAddress(const AdvancedIndex &index,
                                                   const std::vector<llvm::Value *> &at) {
  llvm::Value *offset = builder.getInt64(0);
  for (size_t axis = 0; axis < index.axes.size(); ++axis) {
    const AdvancedIndex::Axis &access = index.axes[axis];
    llvm::Value *position = access.start;
    if (access.access == AdvancedIndex::Access::Range) {
      position = builder.CreateAdd(
          access.start, builder.CreateMul(at[static_cast<size_t>(access.resultAxis)], access.step));
    } else if (access.access == AdvancedIndex::Access::Selected) {
      // The index array's item at the result's index, broadcast (an extent of 1 repeats).
      const AdvancedIndex::Selector &selector =
          index.selectors[static_cast<size_t>(access.selector)];
      int offsetInBroadcast = index.broadcastDimensions - selector.type->ndim();
      std::vector<llvm::Value *> item;
      for (int d = 0; d < selector.type->ndim(); ++d) {
        llvm::Value *extent = arrayField(selector.array, ArrayLayout::Shape, d);
        item.push_back(builder.CreateSelect(
            builder.CreateICmpEQ(extent, builder.getInt64(1)), builder.getInt64(0),
            at[static_cast<size_t>(index.broadcastStart + offsetInBroadcast + d)]));
      }
      llvm::Value *value =
          loadElement(elementAddress(selector.array, selector.type, item), selector.type->dtype());
      position = checkedIndex(value, selector.type->dtype(), access.extent, static_cast<int>(axis),
                              /*alwaysCheck=*/true);
    }
    offset = builder.CreateAdd(offset,
                               builder.CreateMul(position, axisStride(index.array, index.arrayType,
                                                                      static_cast<int>(axis))));
  }
  return builder.CreateGEP(builder.getInt8Ty(), arrayField(index.array, ArrayLayout::Data), offset);
}

llvm::Value *ArrayLowering::lowerAdvancedIndex(Expr *subscript) {
  const Type *resultType = core.typeOf(subscript);
  const Type *dtype = resultType->dtype();
  AdvancedIndex index = prepareAdvancedIndex(subscript);
  llvm::Value *result = allocateArray(resultType, index.resultShape);
  forEachIndex(index.resultShape, [&](const std::vector<llvm::Value *> &at) {
    storeElement(elementAddress(result, resultType, at),
                 loadElement(advancedElementAddress(index, at), dtype), dtype);
  });
  return result;
}

void ArrayLowering::lowerAdvancedIndexStore(Expr *target, llvm::Value *value,
                                            const Type *valueType) {
  // A scalar goes to every selected element; an array is broadcast to the selection's shape
  // (NumPy's rule), or the store raises ValueError before writing anything. Where an index
  // repeats a position, the last store wins, as in NumPy.
  const Type *dtype = core.typeOf(target)->dtype();
  AdvancedIndex index = prepareAdvancedIndex(target);
  if (valueType->isArray() && valueType->ndim() == 0) { // a 0-d array: its item, everywhere
    value = loadElement(arrayField(value, ArrayLayout::Data), valueType->dtype());
    valueType = valueType->dtype();
  }
  llvm::Value *copy = nullptr;
  int offset = 0;
  if (valueType->isArray()) {
    offset = static_cast<int>(index.resultShape.size()) - valueType->ndim();
    llvm::Value *fits = builder.getTrue();
    for (int d = 0; d < valueType->ndim(); ++d) {
      llvm::Value *extent = arrayField(value, ArrayLayout::Shape, d);
      llvm::Value *wanted = index.resultShape[static_cast<size_t>(offset + d)];
      fits = builder.CreateAnd(fits,
                               builder.CreateOr(builder.CreateICmpEQ(extent, wanted),
                                                builder.CreateICmpEQ(extent, builder.getInt64(1))));
    }
    core.exceptions().raiseIf(builder.CreateNot(fits), ValueErrorId,
                              "shape mismatch: value array could not be broadcast to indexing "
                              "result");
    // A value that may share the array's memory (a[idx] = a[::-1]) is read from a copy.
    value = separateFrom(index.array, value, valueType, &valueType, &copy);
  }
  forEachIndex(index.resultShape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *element = value;
    const Type *elementType = valueType;
    if (valueType->isArray()) {
      std::vector<llvm::Value *> from;
      for (int d = 0; d < valueType->ndim(); ++d) {
        llvm::Value *extent = arrayField(value, ArrayLayout::Shape, d);
        from.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                            builder.getInt64(0),
                                            at[static_cast<size_t>(offset + d)]));
      }
      elementType = valueType->dtype();
      element = loadElement(elementAddress(value, valueType, from), elementType);
    }
    storeElement(advancedElementAddress(index, at), core.castValue(element, elementType, dtype),
                 dtype);
  });
  if (copy)
    core.decref(copy, valueType);
}

void ArrayLowering::lowerAdvancedAugmentedStore(Expr *target, BinaryOp op, llvm::Value *value,
                                                const Type *valueType) {
  // NumPy's `a[idx] += v` is `a[idx] = a[idx] + v`: the selected items are read into a new
  // array, combined with v, then stored back, so a position selected twice is updated once
  // (with the last of its results), as in NumPy.
  const Type *dtype = core.typeOf(target)->dtype();
  AdvancedIndex index = prepareAdvancedIndex(target);
  const Type *itemsType =
      types::array(dtype, static_cast<int>(index.resultShape.size()), 'C', false);
  llvm::Value *items = allocateArray(itemsType, index.resultShape);
  forEachIndex(index.resultShape, [&](const std::vector<llvm::Value *> &at) {
    storeElement(elementAddress(items, itemsType, at),
                 loadElement(advancedElementAddress(index, at), dtype), dtype);
  });
  if (valueType->isArray() && valueType->ndim() == 0) { // a 0-d array: its item
    value = loadElement(arrayField(value, ArrayLayout::Data), valueType->dtype());
    valueType = valueType->dtype();
  }
  const Type *valueElement = valueType->isArray() ? valueType->dtype() : valueType;
  const Type *resultElement = binaryResultType(op, dtype, valueElement);
  int offset =
      static_cast<int>(index.resultShape.size()) - (valueType->isArray() ? valueType->ndim() : 0);
  if (valueType->isArray())
    for (int d = 0; d < valueType->ndim(); ++d) {
      llvm::Value *extent = arrayField(value, ArrayLayout::Shape, d);
      core.exceptions().raiseIf(
          builder.CreateAnd(
              builder.CreateICmpNE(extent, index.resultShape[static_cast<size_t>(offset + d)]),
              builder.CreateICmpNE(extent, builder.getInt64(1))),
          ValueErrorId, "operands could not be broadcast together");
    }
  bool savedContext = core.insideElementwise;
  core.insideElementwise = true;
  forEachIndex(index.resultShape, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *slot = elementAddress(items, itemsType, at);
    llvm::Value *operand = value;
    if (valueType->isArray()) {
      std::vector<llvm::Value *> from;
      for (int d = 0; d < valueType->ndim(); ++d) {
        llvm::Value *extent = arrayField(value, ArrayLayout::Shape, d);
        from.push_back(builder.CreateSelect(builder.CreateICmpEQ(extent, builder.getInt64(1)),
                                            builder.getInt64(0),
                                            at[static_cast<size_t>(offset + d)]));
      }
      operand = loadElement(elementAddress(value, valueType, from), valueElement);
    }
    llvm::Value *result = core.operators().lowerBinary(op, loadElement(slot, dtype), dtype, operand,
                                                       valueElement, resultElement);
    storeElement(slot, core.castValue(result, resultElement, dtype), dtype);
  });
  core.insideElementwise = savedContext;
  forEachIndex(index.resultShape, [&](const std::vector<llvm::Value *> &at) {
    storeElement(advancedElementAddress(index, at),
                 loadElement(elementAddress(items, itemsType, at), dtype), dtype);
  });
}

} // namespace taipan
