// Lowering of operators on numbers: arithmetic (Python's or NumPy's error model),
// comparisons and comparison chains, complex parts, and random bits.
#pragma once

#include "lower/LoweringApi.h"
#include "lower/LoweringRoom.h"

namespace taipan {

class FunctionLowering;

/// Arithmetic (LowerArithmetic.cpp), comparisons (LowerComparisons.cpp) and random
/// numbers (LowerBuiltins.cpp). Holds a reference to the core (FunctionLowering), whose state and
/// exits it uses.
class OperatorLowering : LoweringRoom {
public:
  explicit OperatorLowering(FunctionLowering &core);

  llvm::Value *lowerBinary(BinaryOp op, llvm::Value *left, const Type *leftType, llvm::Value *right,
                           const Type *rightType, const Type *resultType);
  llvm::Value *lowerIntegerBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type, bool checkZero = true);
  /// Python's `//` or `%` of a signed integer by a constant that is neither 0 nor -1.
  llvm::Value *lowerFloorByConstant(bool isDivision, llvm::Value *dividend,
                                    llvm::ConstantInt *divisor);
  llvm::Value *lowerFloatBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                const Type *type);
  llvm::Value *lowerComplexBinary(BinaryOp op, llvm::Value *left, llvm::Value *right,
                                  const Type *type);
  llvm::Value *lowerIntegerPower(llvm::Value *base, llvm::Value *exponent, const Type *type);
  llvm::Value *lowerUnary(Expr *expr);
  /// -x of a number of `type` (integers wrap).
  llvm::Value *lowerNegation(llvm::Value *value, const Type *type);
  llvm::Value *lowerCompareChain(Expr *expr);
  llvm::Value *lowerTupleComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                                    llvm::Value *right, const Type *rightType);
  llvm::Value *lowerComparison(CompareOp op, llvm::Value *left, const Type *leftType,
                               llvm::Value *right, const Type *rightType);
  /// `left is right`, for pairs typing accepted (identityIsDecidable).
  llvm::Value *lowerIdentity(llvm::Value *left, const Type *leftType, llvm::Value *right,
                             const Type *rightType);
  llvm::Value *complexParts(llvm::Value *value, llvm::Value *&imag);
  llvm::Value *makeComplex(llvm::Value *real, llvm::Value *imag, const Type *type);
  void emitZeroDivisionCheck(llvm::Value *divisor, const Type *type, const char *message);
  llvm::Value *lowerRandomWord(llvm::Value *state);
  llvm::Value *lowerRandomDouble();
};

} // namespace taipan
