// Python objects for taipan types and signatures (`taipan.types.float64`, `float64(int32)`,
// `float64[:, ::1]`), wrapping the interned C++ types so there is one type system.
#pragma once

#include <nanobind/nanobind.h>

#include "types/Type.h"

#include <vector>

namespace taipan::bindings {

/// A Python handle on an interned type.
struct TypeRef {
  const Type *type;
};

/// A function signature: return type and argument types.
struct SignatureRef {
  const Type *returnType; ///< nullptr when only argument types were given
  std::vector<const Type *> arguments;
};

/// Registers Type, Signature and the type factories on the module.
void defineTypeObjects(nanobind::module_ &module);

/// The taipan type of a value, raising ValueError when it has none.
const Type *typeOfOrRaise(nanobind::handle value);

} // namespace taipan::bindings
