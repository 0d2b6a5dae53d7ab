// The optimisation pipeline every target runs: LLVM's new pass manager at a level 0-3, with
// the target's machine (for its cost model) and its tuning (vectorisers) as the hooks.
#pragma once

#include "support/StageTimes.h"

#include <llvm/Passes/PassBuilder.h>

#include <functional>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace taipan {

/// Optimises `module` at `level` (0: the O0 pipeline, which still runs always-inline) for
/// `machine`, with the target's `tuning` (the CPU enables both vectorisers from level 2) and,
/// with `vectorMath`, glibc's libmvec as the vectorisers' math library. Each pass's own time
/// (its nested passes excluded) goes to its group in `times` ("optimization: loops", ...) when
/// `times` is given. `beforeVectorizers` adds the target's own function passes just before
/// the loop vectoriser (levels 1-3).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, int level,
                    const llvm::PipelineTuningOptions &tuning, StageTimes *times,
                    bool vectorMath = false,
                    const std::function<void(llvm::FunctionPassManager &)> &beforeVectorizers = {});

} // namespace taipan
