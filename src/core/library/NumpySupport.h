// What the NumPy families of the library share: registering a function with its array-method
// twin, typing shape and dtype arguments, and the array views and copies several entries emit.
#pragma once

#include "library/Families.h"
#include "lower/LoweringApi.h"

namespace taipan {

/// Registers numpy.<name> and, with `withMethod`, its twin array.<name> (the array first),
/// both with these parameters and rules; with `lowersArguments` the lowering rule lowers the
/// arguments itself (it receives no values).
void addNumpyFunction(Library &library, const std::string &name,
                      std::vector<LibraryParameter> parameters, LibraryTypeRule type,
                      LibraryLowerRule lower, bool withMethod = false,
                      bool lowersArguments = false);

// ---- typing ------------------------------------------------------------------------------

/// A new array: C-contiguous and writable.
const Type *newArrayType(const Type *dtype, int ndim);
/// The type of a new array of `dtype` in the memory order of `array` (NumPy's order='K'): F for
/// an F array, C otherwise.
const Type *keptOrderCopyType(const Type *dtype, const Type *array);
/// The ndim a shape argument (an integer or a tuple of integers) gives, or -1.
int shapeDimensions(const Type *shape);
/// Whether the call gave parameter `index`, and not as None.
bool isGiven(const LibraryCall &call, size_t index);
/// The dtype parameter `index` names (np.float32, float, a.dtype), or `fallback` when the call
/// left it out or passed None; a TypingError for anything else.
const Type *dtypeArgument(const LibraryCall &call, size_t index, const Type *fallback);
/// The type of a.T: the axes reversed, so C becomes F and F becomes C.
const Type *transposedType(const Type *array);
/// Throws "no implementation of <function> for argument types (...)" (the arguments given).
[[noreturn]] void throwNoImplementation(const LibraryCall &call);
/// The array the call's first argument is; throwNoImplementation when it is not an array.
const Type *arrayArgument(const LibraryCall &call);

// ---- lowering ----------------------------------------------------------------------------

/// Argument `index` as an int64.
llvm::Value *int64Argument(LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values, size_t index);
/// The extents a shape value (an integer or a tuple of integers) gives, as int64s.
std::vector<llvm::Value *> shapeExtents(LoweringApi &lowering, llvm::Value *shape,
                                        const Type *shapeType);
/// A C-contiguous version of an array: itself when its type says so, else a copy.
llvm::Value *contiguous(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                        const Type **resultType);
/// A view with new extents (one may be -1) of a C-contiguous array, or of a C copy.
llvm::Value *reshapeArray(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                          std::vector<llvm::Value *> extents, const Type *resultType);
/// The view with the axes in reverse order (a.T).
llvm::Value *transposeArray(LoweringApi &lowering, llvm::Value *array, const Type *arrayType,
                            const Type *resultType);

/// Raises NumPy's AxisError "axis A is out of bounds for array of dimension N" (`axis` the
/// int64 the user gave) when `outOfRange` is true; continues in a new block otherwise.
void raiseAxisErrorIf(LoweringApi &lowering, llvm::Value *outOfRange, llvm::Value *axis, int ndim);

/// runtime/Sort.h's SortDtype for a real type (float16 excepted): np.sort's and list.sort's.
int sortDtypeCode(const Type *dtype);

} // namespace taipan
