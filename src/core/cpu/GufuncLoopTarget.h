// The generalized-ufunc loop target: a function over array views (and scalars) compiled for the
// host CPU, entered through NumPy's gufunc inner-loop signature (@guvectorize).
#pragma once

#include "cpu/CpuTarget.h"

#include <cstdint>
#include <vector>

namespace taipan {

/// The host CPU with a NumPy gufunc loop as the entry point. Each operand is an array view of
/// its core dimensions (an output with none is a one-element 1-D array, as in Numba) or, for a
/// scalar type, a value.
class GufuncLoopTarget final : public CpuTarget {
public:
  /// `coreDimensions`: per operand, the indices of its core dimensions among the layout's
  /// distinct names (CompileJob::coreDimensions); `coreSizes`: constant sizes for those names,
  /// or empty to read them from each call (CompileJob::coreSizes).
  GufuncLoopTarget(int optimizationLevel, bool vectorMath,
                   std::vector<std::vector<int>> coreDimensions, std::vector<int64_t> coreSizes,
                   CpuModel cpu = CpuModel::hostModel());

  /// The CPU's identity plus the layout and the constant core sizes, which decide the
  /// entry's code.
  std::vector<std::string> identity() const override;
  /// Arrays whose dimensions match their operand's core dimensions, scalars without any, and a
  /// function returning None (outputs are written in place).
  void checkEntry(const TypedFunction &root) const override;
  /// When the signature types some operand with core dimensions 'C' or 'F': the root with
  /// every array operand C-contiguous ('C' layout), whose indexing needs no run-time innermost
  /// stride, so LLVM can vectorise and strength-reduce the loops over core dimensions; then the
  /// root with every array operand 'A', for the strided operands NumPy passes such a signature
  /// without copying. An all-'A' signature keeps its one kernel.
  std::vector<std::vector<const Type *>> entryVariants(const TypedFunction &root) const override;
  /// `void <root>_gufunc(ptr args, ptr dimensions, ptr steps, ptr data)`: for each of the
  /// `dimensions[0]` outer elements, builds each operand's view from `args[k] + i * steps[k]`,
  /// the core sizes in `dimensions[1...]` and the core strides after the outer steps, and calls
  /// the root; an element that raises stops the loop (taipan_ufunc_loop_failed). With variants
  /// it calls the contiguous copy when the core strides describe C-contiguous cores for every
  /// array operand and some core extent is large enough for vectorised loops to run
  /// (MinimumContiguousExtent), else the `A` copy: strides are the same for all elements, so
  /// this is decided once per call. Each copy's loop is a function of its own.
  std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                          const std::vector<TypedFunction *> &variants) const override;

private:
  /// The NumPy loop calling `function` (the root or its contiguous copy) for every element,
  /// named `<function>suffix`; returns its name.
  std::string defineLoop(ModuleLowering &lowering, TypedFunction &function,
                         const std::string &suffix) const;
  /// The entry when the signature declares core layouts and the root's `A` copy does not type:
  /// it runs the root only when every core operand typed 'C' or 'F' is contiguous so (the
  /// root would read any other as if it were), and otherwise raises ValueError.
  std::string defineLayoutCheckedEntry(ModuleLowering &lowering, TypedFunction &root) const;

  std::vector<std::vector<int>> coreDimensions;
  std::vector<int64_t> coreSizes;
};

} // namespace taipan
