// The type of a np.random.Generator passed to compiled code: the address of its bit
// generator's `bitgen_t` (runtime/NumpyBitgen.h), a pointer to the Generator's builtin.
#pragma once

#include "types/Type.h"

namespace taipan {

/// Numba's NumPyRandomGeneratorType. Its value is the `bitgen_t *` of the Generator's bit
/// generator, which the caller's Generator object keeps alive for the call; its methods are
/// the library's `numpy.random.Generator.<method>` entries (library/NumpyDistributions.cpp).
inline const Type *randomGeneratorType() {
  return types::pointer(types::builtin("numpy.random.Generator"));
}

inline bool isRandomGenerator(const Type *type) {
  return type && type->isPointer() && type->pointee() &&
         type->pointee()->kind() == TypeKind::Builtin &&
         type->pointee()->text() == "numpy.random.Generator";
}

} // namespace taipan
