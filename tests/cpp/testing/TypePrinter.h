// TypePrinter.h - Teaches GoogleTest to print `const Type *` by its Numba name, so a failed
// EXPECT_EQ on types says "complex128" rather than an address.
#pragma once

#include "types/Type.h"

#include <ostream>

namespace taipan {

inline void PrintTo(const Type *type, std::ostream *os) {
  *os << (type ? type->name() : std::string("nullptr"));
}

} // namespace taipan
