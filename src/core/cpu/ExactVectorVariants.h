// Vector variants of libm functions that give the scalar call's bits, offered to the loop
// vectoriser only: scalar calls stay libm's, vectorised loops inline the variant afterwards.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class GlobalVariable;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace taipan {

/// A libm function with vector variants bit-identical to it (glibc's exp, expf): `lanes` lists
/// the widths the vectoriser may choose, and `defineBody` writes the body of the variant
/// declared as `<lanes x T> (<lanes x T>)`, computing `lanes` calls at once.
struct ExactVectorVariants {
  llvm::StringRef libmName;
  llvm::ArrayRef<unsigned> lanes;
  void (*defineBody)(llvm::Function &variant);
};

/// The name of the variant of `libmName` with `lanes` lanes: `taipan_exact_<libm>_v<lanes>`.
std::string variantName(llvm::StringRef libmName, unsigned lanes);

/// Gives every call of `variants.libmName` in `module` whose call site does not allow
/// approximate functions (fastmath's 'afn', which keeps libmvec's SIMD functions) the variants,
/// masked and not, as its `vector-function-abi-variant`s: declarations, kept in
/// `llvm.compiler.used` until inlineExactVectorVariants gives the called ones their bodies. The
/// calls themselves stay libm's: a loop that does not vectorise runs glibc's scalar code, with
/// its predicted branches, rather than the branch-free variant.
void offerExactVectorVariants(llvm::Module &module, const ExactVectorVariants &variants);

/// The module's private constant array of 64-bit `words` called `name`, added on first use.
llvm::GlobalVariable *constantTable(llvm::Module &module, llvm::StringRef name,
                                    llvm::ArrayRef<uint64_t> words);

/// The entries of the constant array `table` at each lane's index in the vector `indices`
/// plus 0, 1, ... `count` - 1 (one vector for each), read lane by lane: each index extracted
/// once, one scalar load per entry. A masked gather is split the same way by code generation
/// where the CPU has no fast gather (znver3), but after computing each lane's address in
/// vector registers and extracting 64-bit pointers once per gather, which made exp's loop ~10%
/// slower than the vectoriser's own lane-by-lane loads.
llvm::SmallVector<llvm::Value *, 2> readLaneByLane(llvm::IRBuilderBase &builder,
                                                   llvm::GlobalVariable *table,
                                                   llvm::Value *indices, unsigned count = 1);

/// For the start of the vectorisers' pipeline: a loop that calls a function with exact
/// variants is interleaved once (`llvm.loop.interleave.count` 1) unless its metadata says
/// otherwise. The vectoriser prices a variant call at a fixed 10 whatever its body, finds the
/// loop small and interleaves it 4 times to keep the load and store ports busy; with the
/// ~100-instruction body inlined those copies run out of registers (constants spill to the
/// stack: exp's loop 5.0 against 4.2 ms). Given the inlined body it chose 1 itself.
struct InterleaveExactVariantLoopsOnce : llvm::PassInfoMixin<InterleaveExactVariantLoopsOnce> {
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

/// Defines the variants of `offered` that the vectorisers called (what they made of the libm
/// calls), inlines those calls, and removes the variants: run after the optimisation pipeline,
/// which has no inliner after the vectorisers. Bodies are only written here, for the widths
/// used: defined before the pipeline, all of them were optimised as functions whether called or
/// not, which tripled the compile time of a loop calling exp (13 -> 40 ms); code generation
/// cleans up what is inlined and hoists its constants out of the loop.
void inlineExactVectorVariants(llvm::Module &module,
                               llvm::ArrayRef<const ExactVectorVariants *> offered);

} // namespace taipan
