// The LLVM IR spelling of a taipan type's representation, for code that builds LLVM IR outside
// the compiler (an intrinsic's llvmlite builder) and must agree with lower/LowerTypes.
#pragma once

#include "types/Type.h"

#include <string>

namespace taipan {

/// The LLVM type of a value of `type` as text (`i64`, `{ ptr, ptr, i64, i64, ptr, [1 x i64],
/// [1 x i64] }`): in registers (bool is i1) or, `inMemory`, as stored (bool is i8).
std::string llvmTypeText(const Type *type, bool inMemory);

} // namespace taipan
