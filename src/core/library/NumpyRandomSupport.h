// What np.random's library files share (NumpyRandom.cpp, NumpyDistributions.cpp): the sized
// result of a sampling call, its per-element draws, and the registration of the distributions.
#pragma once

#include "library/NumpySupport.h"

#include <functional>

namespace taipan {

/// A scalar of `scalar`, or an array of it when parameter `size` gives a shape.
const Type *sizedResult(const LibraryCall &call, const Type *scalar, size_t size);

/// One draw of a sampling function, repeated per element when the call is sized.
using RandomDraw = std::function<llvm::Value *()>;

/// The draw itself, or an array of `shape` filled with draws in C order (NumPy's order).
llvm::Value *drawSized(LoweringApi &lowering, const LibraryCall &call,
                       const std::vector<llvm::Value *> &shape, const RandomDraw &draw);

/// The shape parameter `size` gives, when the call is sized.
std::vector<llvm::Value *> sizeShape(LoweringApi &lowering, const LibraryCall &call,
                                     const std::vector<llvm::Value *> &values, size_t size);

/// A call of the runtime function `symbol`.
llvm::Value *callRandomRuntime(LoweringApi &lowering, const char *symbol, llvm::Type *result,
                               llvm::ArrayRef<llvm::Type *> parameters,
                               llvm::ArrayRef<llvm::Value *> arguments);

/// shuffle(x) and permutation(x) of argument `arrayIndex`: rows of a C-contiguous array
/// swapped whole through the legacy stream.
llvm::Value *lowerRandomShuffle(LoweringApi &lowering, const LibraryCall &call,
                                const std::vector<llvm::Value *> &values, size_t arrayIndex,
                                bool isShuffle);

/// The continuous and discrete distributions of np.random (legacy RandomState streams) and the
/// methods of a np.random.Generator argument (library/NumpyDistributions.cpp).
void registerNumpyDistributions(Library &library);

} // namespace taipan
