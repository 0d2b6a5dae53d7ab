// Lowering of arrays and records: the array value, allocation, indexing, stores with
// broadcasting, array expressions (one fused loop) and record fields.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Arrays (LowerArrays.cpp), array expressions (ArrayExpressions.cpp) and records
/// (LowerRecords.cpp, a record value is the address of its bytes). Holds a reference to the core
/// (FunctionLowering), whose state and exits it uses.
class ArrayLowering : LoweringRoom {
public:
  explicit ArrayLowering(FunctionLowering &core);

  void lowerAugmentedStore(Stmt *stmt);
  /// Row `index` of an array: an element of a 1-D array, else a view (a temporary).
  llvm::Value *arrayRow(llvm::Value *array, const Type *arrayType, llvm::Value *index);
  const Type *arrayRowType(const Type *arrayType);
  /// A global NumPy array frozen into the module as a read-only constant.
  llvm::Value *lowerConstantArray(const GlobalValue &value);
  /// A captured device array (GlobalValue::onDevice): an array viewing its device memory.
  llvm::Value *lowerDeviceArrayGlobal(const GlobalValue &value);
  llvm::Value *arrayField(llvm::Value *array, ArrayLayout::Field field, int dimension = -1);
  llvm::Value *withArrayField(llvm::Value *array, ArrayLayout::Field field, llvm::Value *value,
                              int dimension = -1);
  std::vector<llvm::Value *> arrayShape(llvm::Value *array, const Type *type);
  /// A new C-contiguous array of `shape`, owned by the current statement.
  llvm::Value *allocateArray(const Type *arrayType, const std::vector<llvm::Value *> &shape);
  /// The byte stride of `axis`, a constant for the innermost axis of a contiguous array.
  llvm::Value *axisStride(llvm::Value *array, const Type *arrayType, int axis);
  llvm::Value *elementAddress(llvm::Value *array, const Type *arrayType,
                              const std::vector<llvm::Value *> &indices);
  llvm::Value *loadElement(llvm::Value *address, const Type *dtype);
  void storeElement(llvm::Value *address, llvm::Value *value, const Type *dtype);
  /// Wraps a negative index and, with boundscheck (or `alwaysCheck`: fancy indexing checks
  /// whatever the option says), raises IndexError naming the axis.
  llvm::Value *checkedIndex(llvm::Value *index, const Type *indexType, llvm::Value *extent,
                            int axis, bool alwaysCheck = false);
  /// The value of one integer piece of an index (`m + j * k` of `x[m + j * k]`). Its chain of
  /// int64 `+ - *` carries `nsw`, as all of Numba's integer arithmetic does: there an overflow
  /// leaves int64, hence the array, so it cannot select an element in Python either; with the
  /// flag LLVM proves such indices non-negative and strength-reduces them. Not with boundscheck,
  /// whose check must see the wrapped value.
  llvm::Value *lowerIndexPiece(Expr *piece);
  /// Nested loops over every index of `shape`, the outermost axis split over the thread pool as
  /// forEachIndexInParallel splits its range (grain: enough items per chunk); `body` gets the
  /// index and the captured values as the lowering that emits it holds them.
  void forEachOuterIndex(
      const std::vector<llvm::Value *> &shape, const std::vector<llvm::Value *> &captured,
      const std::function<void(FunctionLowering &lowering, const std::vector<llvm::Value *> &at,
                               const std::vector<llvm::Value *> &captured)> &body);
  /// Emits nested loops over every index of `shape` (row-major), calling `body` inside.
  void forEachIndex(const std::vector<llvm::Value *> &shape,
                    const std::function<void(const std::vector<llvm::Value *> &)> &body);
  /// Basic indexing: the view, or with `elementAddressOut` the address of one element.
  llvm::Value *lowerArrayIndex(Expr *expr, llvm::Value **elementAddressOut);
  /// NumPy's advanced indexing (LowerArraySelections.cpp): integer arrays of any dimensions
  /// broadcast together and masks, among integers, slices, None and '...', in an index written
  /// out or a tuple value; a new array, and the store through it. Whether `subscript` takes
  /// that path (one 1-D array of a 1-D array and a mask of the array's shape have their own).
  bool isAdvancedIndex(Expr *subscript);
  /// Whether the index of `subscript` (an array's) holds an index array, in whatever form.
  bool holdsIndexArray(Expr *subscript);
  llvm::Value *lowerAdvancedIndex(Expr *subscript);
  void lowerAdvancedIndexStore(Expr *target, llvm::Value *value, const Type *valueType);
  /// `a[idx] op= v`: NumPy's `a[idx] = a[idx] op v`, the index evaluated once.
  void lowerAdvancedAugmentedStore(Expr *target, BinaryOp op, llvm::Value *value,
                                   const Type *valueType);
  /// Each axis's access and the result's shape; the address of the result's element `at` in
  /// the indexed array.
  struct AdvancedIndex;
  AdvancedIndex prepareAdvancedIndex(Expr *subscript);
  llvm::Value *advancedElementAddress(const AdvancedIndex &index,
                                      const std::vector<llvm::Value *> &at);
  llvm::Value *lowerArraySubscript(Expr *expr);
  void lowerArrayStore(Expr *target, llvm::Value *value, const Type *valueType);
  void lowerSelectedStore(Expr *target, llvm::Value *value, const Type *valueType);
  /// Copies `source` (an array broadcast to the destination's shape, or a scalar) into `target`.
  void assignIntoArray(llvm::Value *target, const Type *targetType, llvm::Value *source,
                       const Type *sourceType);
  /// assignIntoArray of a list of numbers or nested tuples of numbers (checkSequenceStore), as
  /// the array NumPy makes of it, broadcast; ValueError when its shape does not broadcast.
  void assignSequenceIntoArray(llvm::Value *target, const Type *targetType,
                               const std::vector<llvm::Value *> &shape, llvm::Value *source,
                               const Type *sourceType);
  /// `source`, or a copy of it when it may overlap `target`; `copy` gets an array value whose
  /// block (null without a copy) the caller releases.
  llvm::Value *separateFrom(llvm::Value *target, llvm::Value *source, const Type *sourceType,
                            const Type **resultType, llvm::Value **copy);
  /// The element copy behind assignIntoArray, for operands known not to overlap.
  void copyBroadcast(llvm::Value *target, const Type *targetType, llvm::Value *source,
                     const Type *sourceType);
  /// Whether `expr` is part of an array expression: an elementwise operator or fused ufunc call
  /// making an array (not one bound to a user implementation), lowered as one loop.
  bool isElementwise(const Expr *expr) const;
  /// The operands (leaves) of an array expression, lowered, and the shape they broadcast to.
  struct ElementwiseOperands {
    std::vector<Expr *> leaves;
    std::map<const Expr *, llvm::Value *> values;
    std::vector<Expr *> arrays; ///< the leaves that are arrays
    std::vector<llvm::Value *> shape;
    bool contiguous = false; ///< every array leaf C-contiguous with the result's ndim
  };
  ElementwiseOperands prepareElementwise(Expr *expr);
  /// Whether the items can be visited flat: contiguous operands all of the broadcast shape.
  llvm::Value *elementwiseFlatPath(const ElementwiseOperands &operands);
  /// One item of the expression (NumPy's arithmetic, cast to its dtype): array leaves read at
  /// `address(leaf)`, scalar leaves as `held` gives them.
  llvm::Value *elementwiseItem(Expr *expr, const ElementwiseOperands &operands,
                               const std::map<const Expr *, llvm::Value *> &held,
                               const std::function<llvm::Value *(Expr *)> &address);
  /// The address in `array` (the value of `leaf`) of index `at` of the broadcast shape.
  llvm::Value *broadcastAddress(Expr *leaf, llvm::Value *array,
                                const std::vector<llvm::Value *> &at);
  llvm::Value *lowerElementwise(Expr *expr);
  /// Folds the items of the array expression `expr` into an accumulator without making the
  /// array (np.sum(a * b)): `step(lowering, accumulator, item)`, from the constant `identity`;
  /// split over the thread pool like reduceInParallel when the items can be visited flat.
  llvm::Value *reduceElementwise(
      Expr *expr, llvm::Value *identity,
      const std::function<llvm::Value *(LoweringApi &, llvm::Value *, llvm::Value *)> &step,
      const std::function<llvm::Value *(llvm::Value *, llvm::Value *)> &combine);
  llvm::Value *elementwiseScalar(Expr *expr, const std::map<const Expr *, llvm::Value *> &leaves);
  void collectElementwiseLeaves(Expr *expr, std::vector<Expr *> &leaves);
  /// One element of a ufunc call: `values` (of `types`) converted to the loop typing chose
  /// (`call.loop`), then the entry's kernel.
  llvm::Value *lowerUfuncElement(const LibraryCall &call, const std::vector<llvm::Value *> &values,
                                 const std::vector<const Type *> &types);
  /// Whether `expr` reads a field of a record (`r.x`, `r['x']`) or views one across an array
  /// of records (`a.x`, `a['x']`).
  bool isRecordAccess(const Expr *expr) const;
  llvm::Value *lowerRecordAccess(Expr *expr);
  /// The address of the record field `target` names, or nullptr when it is no record field
  /// (or a subarray field, which is read as a view).
  llvm::Value *recordFieldAddress(Expr *target);
  void lowerRecordStore(Expr *target, llvm::Value *value, const Type *valueType);
  llvm::Value *loadRecordField(llvm::Value *address, const Type *fieldType);
  void storeRecordField(llvm::Value *address, llvm::Value *value, const Type *fieldType);
  llvm::Value *recordView(const Type *viewType, llvm::Value *owner, llvm::Value *data,
                          const std::vector<llvm::Value *> &shape,
                          const std::vector<llvm::Value *> &strides);
};

} // namespace taipan
