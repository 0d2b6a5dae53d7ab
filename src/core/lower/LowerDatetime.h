// Lowering of NumPy datetime64/timedelta64 scalars: int64 counts of a unit with NaT as
// INT64_MIN; unit conversions, NumPy's arithmetic and its NaT-aware comparisons.
#pragma once

#include "lower/FunctionLowering.h"

namespace taipan {

/// A count of `from`'s unit as a count of `to`'s (same kind), as NumPy's cast computes it: an
/// exact factor to a finer unit, floor scaling to a coarser one (timedeltas of years or months
/// by NumPy's average lengths), dates through the calendar; NaT stays NaT.
llvm::Value *convertDatetimeUnit(FunctionLowering &lowering, llvm::Value *value, const Type *from,
                                 const Type *to);
/// `left op right` where typing gave a datetime-like operand (DatetimeTyping.h).
llvm::Value *lowerDatetimeBinary(FunctionLowering &lowering, BinaryOp op, llvm::Value *left,
                                 const Type *leftType, llvm::Value *right, const Type *rightType,
                                 const Type *resultType);
/// `left op right` of two datetimes or two timedeltas: false when either is NaT (true for !=).
llvm::Value *lowerDatetimeComparison(FunctionLowering &lowering, CompareOp op, llvm::Value *left,
                                     const Type *leftType, llvm::Value *right,
                                     const Type *rightType);
/// Whether a count is NaT.
llvm::Value *isNotATime(FunctionLowering &lowering, llvm::Value *value);

} // namespace taipan
