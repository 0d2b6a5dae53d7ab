// The C-callable target (@cfunc): a function compiled for the host CPU and entered through a
// native C signature, so C code (SciPy's LowLevelCallable, ctypes, cffi) calls it directly.
#pragma once

#include "cpu/CpuTarget.h"

namespace taipan {

/// The host CPU with a C function as the entry point; everything else is CpuTarget's.
class CfuncTarget final : public CpuTarget {
public:
  using CpuTarget::CpuTarget;

  /// Only numbers, booleans and pointers cross a C signature; the result is one of those or
  /// nothing (None).
  void checkEntry(const TypedFunction &root) const override;
  /// `<result> <root>_cfunc(<arguments>)` with the C calling convention: calls the root and
  /// returns its result. An exception nothing can catch is reported through
  /// taipan_cfunc_failed (printed as unraisable, as ctypes does for its callbacks) and the
  /// result is zero.
  std::string defineEntry(ModuleLowering &lowering, TypedFunction &root,
                          const std::vector<TypedFunction *> &variants) const override;
};

} // namespace taipan
