// Advanced indexing with one integer or boolean array among integers and slices (`r[mask]` of a
// 2-D array, `v[i, 0]`, `v[idx]`), read into a new array and stored through, as Numba does it.
#include "lower/FunctionLowering.h"

#include "runtime/Runtime.h"
#include "typing/ArrayTyping.h"

namespace taipan {
namespace {

/// Where a selection's array stands: its piece, the axis of the base array it selects along,
/// the axis of the view of everything else it selects from, and the result's axis for it.
struct SelectionShape {
  Expr *selector = nullptr;
  int baseAxis = 0;
  int viewAxis = 0;
  int resultAxis = 0;
};

SelectionShape describeSelection(FunctionLowering &core, Expr *index) {
  std::vector<Expr *> pieces =
      index->kind == ExprKind::Tuple ? index->operands : std::vector<Expr *>{index};
  SelectionShape shape;
  // NumPy: integers and the array are all advanced indices; when a slice stands between two
  // of them the selected axis goes first, else where the first of them stands.
  int firstAdvanced = -1, lastAdvanced = -1, slicesBetween = 0, slicesBefore = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Type *type = core.typeOf(pieces[i]);
    bool advanced = type->isArray() || type->isIntegerLike();
    if (type->isArray() && !isScalarIndexArray(type)) { // a 0-d array is an integer
      shape.selector = pieces[i];
      shape.baseAxis = static_cast<int>(i);
      shape.viewAxis = slicesBefore;
    }
    if (advanced) {
      if (firstAdvanced < 0)
        firstAdvanced = static_cast<int>(i);
      lastAdvanced = static_cast<int>(i);
    } else {
      ++slicesBefore;
    }
  }
  for (int i = firstAdvanced; i <= lastAdvanced; ++i) {
    const Type *type = core.typeOf(pieces[static_cast<size_t>(i)]);
    slicesBetween += type->isArray() || type->isIntegerLike() ? 0 : 1;
  }
  shape.resultAxis = slicesBetween ? 0 : shape.viewAxis;
  return shape;
}

/// `indices` with `value` inserted at `axis`.
std::vector<llvm::Value *> withIndexAt(std::vector<llvm::Value *> indices, int axis,
                                       llvm::Value *value) {
  indices.insert(indices.begin() + axis, value);
  return indices;
}

} // namespace

/// The state one walk over a selection needs: the view of the other pieces, the selector.
struct ArrayLowering::SelectionWalk {
  const Type *viewType;
  llvm::Value *view;
  const Type *selectorType;
  llvm::Value *selector;
  llvm::Value *selectorExtent;
  SelectionShape shape;
  std::vector<llvm::Value *> otherExtents; ///< the view's extents but the selected axis's
  llvm::Value *selectedCount;              ///< how many positions the array selects
};

ArrayLowering::SelectionWalk ArrayLowering::startSelection(Expr *expr, const Type *resultType) {
  SelectionWalk walk;
  const Type *arrayType = core.typeOf(expr->operands[0]);
  walk.shape = describeSelection(core, expr->operands[1]);
  walk.viewType =
      types::array(arrayType->dtype(), resultType->ndim(), 'A', arrayType->isReadonly());
  llvm::Value *unused = nullptr;
  walk.view = lowerArrayIndex(expr, &unused, walk.shape.selector, walk.viewType);
  walk.selectorType = core.typeOf(walk.shape.selector);
  walk.selector = core.lowerExpr(walk.shape.selector);
  walk.selectorExtent = arrayField(walk.selector, ArrayLayout::Shape, 0);
  std::vector<llvm::Value *> extents = arrayShape(walk.view, walk.viewType);
  llvm::Value *extent = extents[static_cast<size_t>(walk.shape.viewAxis)];
  extents.erase(extents.begin() + walk.shape.viewAxis);
  walk.otherExtents = extents;
  walk.selectedCount = walk.selectorExtent;
  if (walk.selectorType->dtype()->isBoolean()) {
    core.exceptions().raiseIf(builder.CreateICmpNE(extent, walk.selectorExtent), IndexErrorId,
                              "boolean index did not match indexed array along dimension " +
                                  std::to_string(walk.shape.baseAxis));
    llvm::Type *i64 = builder.getInt64Ty();
    llvm::AllocaInst *count = core.createEntryAlloca(i64, "mask.count");
    builder.CreateStore(builder.getInt64(0), count);
    forEachIndex({walk.selectorExtent}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *flag =
          loadElement(elementAddress(walk.selector, walk.selectorType, at), types::boolean());
      llvm::Value *current = builder.CreateLoad(i64, count);
      builder.CreateStore(builder.CreateAdd(current, builder.CreateZExt(flag, i64)), count);
    });
    walk.selectedCount = builder.CreateLoad(i64, count);
  }
  return walk;
}

void ArrayLowering::walkSelection(
    const SelectionWalk &walk,
    const std::function<void(llvm::Value *source, const std::vector<llvm::Value *> &at)> &body) {
  // Each selected position in the array's order, then every index of the other axes: `body`
  // gets the view's element and its index in the result.
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::AllocaInst *taken = core.createEntryAlloca(i64, "selection.taken");
  builder.CreateStore(builder.getInt64(0), taken);
  llvm::Value *extent = arrayField(walk.view, ArrayLayout::Shape, walk.shape.viewAxis);
  bool isMask = walk.selectorType->dtype()->isBoolean();
  forEachIndex({walk.selectorExtent}, [&](const std::vector<llvm::Value *> &at) {
    llvm::Value *item = loadElement(elementAddress(walk.selector, walk.selectorType, at),
                                    walk.selectorType->dtype());
    llvm::BasicBlock *selected = core.newBlock("selection.take");
    llvm::BasicBlock *next = core.newBlock("selection.next");
    llvm::Value *position = at[0];
    if (isMask) {
      builder.CreateCondBr(item, selected, next);
    } else { // fancy indices always check, naming the base array's axis
      position = checkedIndex(item, walk.selectorType->dtype(), extent, walk.shape.baseAxis,
                              /*alwaysCheck=*/true);
      builder.CreateBr(selected);
    }
    builder.SetInsertPoint(selected);
    llvm::Value *k = builder.CreateLoad(i64, taken);
    forEachIndex(walk.otherExtents, [&](const std::vector<llvm::Value *> &rest) {
      llvm::Value *source = elementAddress(walk.view, walk.viewType,
                                           withIndexAt(rest, walk.shape.viewAxis, position));
      body(source, withIndexAt(rest, walk.shape.resultAxis, k));
    });
    builder.CreateStore(builder.CreateAdd(k, builder.getInt64(1)), taken);
    builder.CreateBr(next);
    builder.SetInsertPoint(next);
  });
}

llvm::Value *ArrayLowering::lowerSelection(Expr *expr) {
  const Type *resultType = core.typeOf(expr);
  const Type *dtype = resultType->dtype();
  SelectionWalk walk = startSelection(expr, resultType);
  llvm::Value *result = allocateArray(
      resultType, withIndexAt(walk.otherExtents, walk.shape.resultAxis, walk.selectedCount));
  walkSelection(walk, [&](llvm::Value *source, const std::vector<llvm::Value *> &at) {
    storeElement(elementAddress(result, resultType, at), loadElement(source, dtype), dtype);
  });
  return result;
}

void ArrayLowering::lowerSelectionStore(Expr *target, llvm::Value *value, const Type *valueType) {
  // A scalar goes to every selected element; an array is broadcast to the selection's shape
  // (NumPy's rule), or the store raises ValueError before writing anything.
  const Type *slotType = core.typeOf(target);
  const Type *dtype = slotType->dtype();
  SelectionWalk walk = startSelection(target, slotType);
  std::vector<llvm::Value *> shape =
      withIndexAt(walk.otherExtents, walk.shape.resultAxis, walk.selectedCount);
  int offset = 0;
  if (valueType->isArray()) {
    offset = slotType->ndim() - valueType->ndim(); // typing refused a value of more dimensions
    llvm::Value *fits = builder.getTrue();
    for (int d = 0; d < valueType->ndim(); ++d) {
      llvm::Value *extent = arrayField(value, ArrayLayout::Shape, d);
      llvm::Value *wanted = shape[static_cast<size_t>(offset + d)];
      fits = builder.CreateAnd(fits,
                               builder.CreateOr(builder.CreateICmpEQ(extent, wanted),
                                                builder.CreateICmpEQ(extent, builder.getInt64(1))));
    }
    core.exceptions().raiseIf(builder.CreateNot(fits), ValueErrorId,
                              "shape mismatch: value array could not be broadcast to indexing "
                              "result");
  }
  walkSelection(walk, [&](llvm::Value *destination, const std::vector<llvm::Value *> &at) {
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
    storeElement(destination, core.castValue(element, elementType, dtype), dtype);
  });
}

} // namespace taipan
