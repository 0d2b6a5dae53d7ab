// One comparison read from a three-way order (negative, zero or positive, as strcmp gives and the
// string runtimes return), shared by the lowering of strings and of byte strings.
#pragma once

#include "support/Operators.h"

#include <llvm/IR/IRBuilder.h>

namespace taipan {

/// `order op 0` for an i32 three-way `order` and an ordering comparison `op` (==, !=, <, <=, >,
/// >=): the i1 saying whether the left operand stands in relation `op` to the right one.
inline llvm::Value *compareThreeWayOrder(llvm::IRBuilder<> &builder, CompareOp op,
                                         llvm::Value *order) {
  llvm::Value *zero = builder.getInt32(0);
  switch (op) {
  case CompareOp::Eq:
    return builder.CreateICmpEQ(order, zero);
  case CompareOp::NotEq:
    return builder.CreateICmpNE(order, zero);
  case CompareOp::Lt:
    return builder.CreateICmpSLT(order, zero);
  case CompareOp::LtE:
    return builder.CreateICmpSLE(order, zero);
  case CompareOp::Gt:
    return builder.CreateICmpSGT(order, zero);
  default:
    return builder.CreateICmpSGE(order, zero);
  }
}

} // namespace taipan
