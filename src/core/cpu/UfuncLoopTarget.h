// The ufunc-loop target: a scalar function compiled for the host CPU, entered through NumPy's
// inner-loop signature, so a numpy.ufunc (@vectorize) calls it over whole arrays.
#pragma once

#include "cpu/CpuTarget.h"

#include <algorithm>

namespace taipan {

/// The host CPU with NumPy's loop as the entry point; everything else is CpuTarget's (the third
/// target the Target interface was built for: it overrides the entry and nothing else).
class UfuncLoopTarget final : public CpuTarget {
public:
  using CpuTarget::CpuTarget;

  /// Only numbers and booleans cross a ufunc loop, and the function must return one.
  void checkEntry(const TypedFunction &root) const override;
  /// `void <root>_ufunc(ptr args, ptr dimensions, ptr steps, ptr data)`: for each of the
  /// `dimensions[0]` elements, reads every input at `args[k] + i * steps[k]` and has the root
  /// write its result at the output's address. An element that raises stops the loop and calls
  /// taipan_ufunc_loop_failed (runtime/UfuncLoops.h).
  std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                          const std::vector<TypedFunction *> &variants) const override;

protected:
  /// At most LLVM's O2 pipeline (both vectorisers still run): O3 adds non-trivial loop
  /// unswitching, which copied the chunked loop once per broadcast input (three vectorised
  /// copies for two inputs) for no measured speed, and took a fifth of a loop's compile time.
  int pipelineLevel() const override { return std::min(CpuTarget::pipelineLevel(), 2); }
};

} // namespace taipan
