// How taipan types are represented in LLVM IR: the in-register form of values and the
// in-memory form (booleans take a byte in memory), and conversions between the two.
#pragma once

#include "types/Type.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>

namespace taipan {

/// The LLVM type of a value held in a register (bool is i1).
llvm::Type *valueType(llvm::LLVMContext &context, const Type *type);

/// The LLVM type of a value stored in memory or inside a tuple (bool is i8). Matches
/// Type::storageSize and Type::elementOffset, which boxing relies on.
llvm::Type *memoryType(llvm::LLVMContext &context, const Type *type);

/// Converts between the register and memory forms (a no-op except for booleans).
llvm::Value *toMemoryForm(llvm::IRBuilder<> &builder, llvm::Value *value, const Type *type);
llvm::Value *fromMemoryForm(llvm::IRBuilder<> &builder, llvm::Value *value, const Type *type);

} // namespace taipan
