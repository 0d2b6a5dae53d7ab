// Tiered compilation of CPU functions: which modules may run level-0 code first, and be
// compiled again at their full level once their calls have paid for it.
#pragma once

#include <cstddef>

namespace llvm {
class Module;
} // namespace llvm

namespace taipan {

/// The fewest instructions a lowered module needs before a first tier pays: below it (a handful
/// of statements) a level-3 compile costs about what a level-0 one does.
constexpr size_t FirstTierMinimumInstructions = 100;

/// Whether the lowered `module` may be compiled at level 0 first: no function it defines has a
/// loop, none calls itself through others, and it has at least FirstTierMinimumInstructions
/// instructions. A call of such code runs for a time bounded by its size, so level-0 code costs
/// each call a bounded amount, and the caller can count calls to decide when to compile again.
bool qualifiesForFirstTier(const llvm::Module &module);

} // namespace taipan
