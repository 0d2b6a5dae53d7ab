// NumPy's inner-loop entry, which the ufunc and gufunc loop targets share: the loop over
// NumPy's outer dimension, the call of the root per element, and the stop at a failed element.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <string>
#include <vector>

namespace taipan {

class ModuleLowering;
struct TypedFunction;

/// The entry's parameters: `char **args`, `npy_intp *dimensions`, `npy_intp *steps`.
struct NumpyLoopParameters {
  llvm::Value *operands;
  llvm::Value *dimensions;
  llvm::Value *steps;
};

/// The root's arguments (its result pointer first) for the element at `index`.
using NumpyLoopElement =
    std::function<std::vector<llvm::Value *>(llvm::IRBuilder<> &builder, llvm::Value *index)>;

/// A copy of the loop for when `condition` (an i1 computed in the entry block) holds, such as
/// every operand being contiguous or a broadcast scalar: it indexes typed pointers, which
/// LLVM's vectoriser turns into SIMD code. With a `chunk` size the loop runs over chunks of at
/// most that many elements: `beginChunk` runs before each with the chunk's first index (to
/// rebase the operands), and `element` gets the index within the chunk.
struct NumpyLoopForm {
  llvm::Value *condition;
  NumpyLoopElement element;
  int64_t chunk = 0;
  std::function<void(llvm::IRBuilder<> &builder, llvm::Value *start)> beginChunk;
};

/// What a target's `prepare` gives the loop: the arguments of any element, and the special
/// forms tried first, in order.
struct NumpyLoopBody {
  NumpyLoopElement element;
  std::vector<NumpyLoopForm> forms;
};

/// Emits `void <root><suffix>(ptr args, ptr dimensions, ptr steps, ptr data)`, which calls the
/// root for each of the `dimensions[0]` elements and, when one raises, calls
/// taipan_ufunc_loop_failed and returns. `prepare` runs once in the entry block, loading what
/// every element needs, and returns the element forms. Returns the entry's symbol.
std::string
defineNumpyLoop(ModuleLowering &lowering, TypedFunction &root, const std::string &suffix,
                const std::function<NumpyLoopBody(llvm::IRBuilder<> &builder,
                                                  const NumpyLoopParameters &parameters)> &prepare);

/// `array[index]` for an array of `element`s (loads the entry's parameter arrays).
llvm::Value *loadEntry(llvm::IRBuilder<> &builder, llvm::Type *element, llvm::Value *array,
                       size_t index);

/// The address of operand data at `base + index * step`.
llvm::Value *elementAddress(llvm::IRBuilder<> &builder, llvm::Value *base, llvm::Value *step,
                            llvm::Value *index);

} // namespace taipan
