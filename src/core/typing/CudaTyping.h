// Typing of what CUDA kernels call: thread indices, memory spaces, synchronisation, atomics,
// warp intrinsics and integer intrinsics (the `taipan.cuda` namespace, as "cuda.*" builtins).
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// Whether "cuda.<name>" is a function or namespace of the CUDA namespace.
bool isCudaBuiltin(const std::string &name);

/// The value type of a CUDA builtin that is a value (cuda.threadIdx.x, cuda.warpsize), or
/// nullptr for functions and namespaces.
const Type *cudaValueType(const std::string &name);

/// The result type of calling a CUDA builtin. `argumentExprs` give the constant of grid(n);
/// `shape` the constant extents of a shared or local array (the argument these builtins
/// declare constant, see ConstantArguments.h).
const Type *typeCudaCall(const std::string &name, const std::vector<const Type *> &arguments,
                         const std::vector<Expr *> &argumentExprs, SourceLocation location,
                         const std::vector<int64_t> *shape = nullptr);

/// Binds the keyword arguments of a call of a CUDA builtin to its parameters as Numba names them
/// (`cuda.shared.array(shape=(16, 16), dtype=float32)`, `cuda.grid(ndim=2)`): the call's
/// operands are put in parameter order and its keywords cleared, so that typing and lowering
/// see positional arguments only. Builtins Numba takes positionally only refuse keywords.
void bindCudaKeywords(const std::string &name, Expr &call);

} // namespace taipan
