// np.dot (and the @ operator, which lowers through this entry): 1-D and 2-D float arrays (a
// loop for two vectors, BLAS or the runtime's blocked kernel (runtime/Matmul) otherwise) and
// complex ones (loops).
#include "library/NumpySupport.h"

#include "lower/ArrayLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "lower/OperatorLowering.h"
#include "typing/BuiltinTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

const Type *typeDot(const LibraryCall &call) {
  const Type *left = call.argumentTypes[0], *right = call.argumentTypes[1];
  if (!left->isArray() || !right->isArray() || left->ndim() > 2 || right->ndim() > 2 ||
      left->ndim() == 0 || right->ndim() == 0 ||
      !(left->dtype()->isFloat() || left->dtype()->isComplex()) || left->dtype() != right->dtype())
    throwTypingError("np.dot and @ take 1-D or 2-D float or complex arrays of one dtype, not " +
                         describeArgumentTypes(call.argumentTypes),
                     call.location);
  int ndim = left->ndim() + right->ndim() - 2;
  return ndim == 0 ? left->dtype() : newArrayType(left->dtype(), ndim);
}

/// The product of two complex arrays of one dtype, 1-D or 2-D: loops over C copies, summing
/// each item over the inner index in order (BLAS's zgemm is not linked).
llvm::Value *lowerComplexDot(LoweringApi &lowering, llvm::Value *left, const Type *leftType,
                             llvm::Value *right, const Type *rightType, const Type *resultType,
                             llvm::Value *inner) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  ArrayLowering &arrays = lowering.arrays();
  const Type *dtype = leftType->dtype();
  llvm::Type *part = valueType(lowering.llvmContext(), types::floating(dtype->bits() / 2));
  llvm::Value *zero = lowering.operators().makeComplex(llvm::ConstantFP::get(part, 0.0),
                                                       llvm::ConstantFP::get(part, 0.0), dtype);
  llvm::AllocaInst *total =
      lowering.createEntryAlloca(valueType(lowering.llvmContext(), dtype), "dot.total");
  const Type *leftContiguousType = nullptr, *rightContiguousType = nullptr;
  llvm::Value *a = contiguous(lowering, left, leftType, &leftContiguousType);
  llvm::Value *b = contiguous(lowering, right, rightType, &rightContiguousType);
  bool leftMatrix = leftType->ndim() == 2, rightMatrix = rightType->ndim() == 2;
  llvm::Value *rows =
      leftMatrix ? arrays.arrayField(a, ArrayLayout::Shape, 0) : builder.getInt64(1);
  llvm::Value *columns =
      rightMatrix ? arrays.arrayField(b, ArrayLayout::Shape, 1) : builder.getInt64(1);
  // total = sum over k of a[i, k] * b[k, j] (a vector side has no i or j)
  auto sumAt = [&](llvm::Value *i, llvm::Value *j) {
    builder.CreateStore(zero, total);
    arrays.forEachIndex({inner}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *k = at[0];
      std::vector<llvm::Value *> leftIndex =
          leftMatrix ? std::vector<llvm::Value *>{i, k} : std::vector<llvm::Value *>{k};
      std::vector<llvm::Value *> rightIndex =
          rightMatrix ? std::vector<llvm::Value *>{k, j} : std::vector<llvm::Value *>{k};
      llvm::Value *product = lowering.operators().lowerBinary(
          BinaryOp::Mult,
          arrays.loadElement(arrays.elementAddress(a, leftContiguousType, leftIndex), dtype), dtype,
          arrays.loadElement(arrays.elementAddress(b, rightContiguousType, rightIndex), dtype),
          dtype, dtype);
      llvm::Value *sum = lowering.operators().lowerBinary(
          BinaryOp::Add, builder.CreateLoad(total->getAllocatedType(), total), dtype, product,
          dtype, dtype);
      builder.CreateStore(sum, total);
    });
    return builder.CreateLoad(total->getAllocatedType(), total);
  };
  if (!leftMatrix && !rightMatrix)
    return sumAt(nullptr, nullptr);
  std::vector<llvm::Value *> shape;
  if (leftMatrix)
    shape.push_back(rows);
  if (rightMatrix)
    shape.push_back(columns);
  llvm::Value *c = arrays.allocateArray(resultType, shape);
  arrays.forEachIndex({rows, columns}, [&](const std::vector<llvm::Value *> &at) {
    std::vector<llvm::Value *> index;
    if (leftMatrix)
      index.push_back(at[0]);
    if (rightMatrix)
      index.push_back(at[1]);
    arrays.storeElement(arrays.elementAddress(c, resultType, index), sumAt(at[0], at[1]), dtype);
  });
  return c;
}

/// The product of two float arrays of one dtype, 1-D or 2-D.
llvm::Value *lowerDot(LoweringApi &lowering, llvm::Value *left, const Type *leftType,
                      llvm::Value *right, const Type *rightType, const Type *resultType) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::LLVMContext &context = lowering.llvmContext();
  const Type *dtype = leftType->dtype();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *inner = lowering.arrays().arrayField(left, ArrayLayout::Shape, leftType->ndim() - 1);
  llvm::Value *rightInner = lowering.arrays().arrayField(right, ArrayLayout::Shape, 0);
  lowering.exceptions().raiseIf(builder.CreateICmpNE(inner, rightInner), ValueErrorId,
                                "shapes not aligned: the inner dimensions of dot differ");
  if (dtype->isComplex())
    return lowerComplexDot(lowering, left, leftType, right, rightType, resultType, inner);
  if (leftType->ndim() == 1 && rightType->ndim() == 1) {
    llvm::AllocaInst *total = lowering.createEntryAlloca(valueType(context, dtype), "dot.total");
    builder.CreateStore(llvm::ConstantFP::get(valueType(context, dtype), 0.0), total);
    lowering.arrays().forEachIndex({inner}, [&](const std::vector<llvm::Value *> &at) {
      llvm::Value *product =
          builder.CreateFMul(lowering.arrays().loadElement(
                                 lowering.arrays().elementAddress(left, leftType, at), dtype),
                             lowering.arrays().loadElement(
                                 lowering.arrays().elementAddress(right, rightType, at), dtype));
      builder.CreateStore(
          builder.CreateFAdd(builder.CreateLoad(valueType(context, dtype), total), product), total);
    });
    return builder.CreateLoad(valueType(context, dtype), total);
  }
  // Matrix products go to BLAS (or the runtime's blocked kernel) on C-contiguous operands;
  // a vector is a matrix with one row (on the left) or one column (on the right).
  const Type *leftContiguousType = nullptr, *rightContiguousType = nullptr;
  llvm::Value *a = contiguous(lowering, left, leftType, &leftContiguousType);
  llvm::Value *b = contiguous(lowering, right, rightType, &rightContiguousType);
  llvm::Value *rows = leftType->ndim() == 2 ? lowering.arrays().arrayField(a, ArrayLayout::Shape, 0)
                                            : builder.getInt64(1);
  llvm::Value *columns = rightType->ndim() == 2
                             ? lowering.arrays().arrayField(b, ArrayLayout::Shape, 1)
                             : builder.getInt64(1);
  std::vector<llvm::Value *> shape;
  if (leftType->ndim() == 2)
    shape.push_back(rows);
  if (rightType->ndim() == 2)
    shape.push_back(columns);
  llvm::Value *c = lowering.arrays().allocateArray(resultType, shape);
  llvm::Type *pointer = builder.getPtrTy();
  builder.CreateCall(lowering.module().runtimeFunction(
                         dtype->bits() == 32 ? "taipan_matmul_f32" : "taipan_matmul_f64",
                         builder.getVoidTy(),
                         {pointer, pointer, pointer, i64, i64, i64, i64, i64, i64}),
                     {lowering.arrays().arrayField(a, ArrayLayout::Data),
                      lowering.arrays().arrayField(b, ArrayLayout::Data),
                      lowering.arrays().arrayField(c, ArrayLayout::Data), rows, columns, inner,
                      inner, columns, columns});
  return c;
}

} // namespace

void registerNumpyLinalgFunctions(Library &library) {
  addNumpyFunction(
      library, "dot", {{"a"}, {"b"}}, typeDot,
      [](LoweringApi &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values) {
        return lowerDot(lowering, values[0], call.argumentTypes[0], values[1],
                        call.argumentTypes[1], call.resultType);
      });
}

} // namespace taipan
