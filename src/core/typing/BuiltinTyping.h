// Typing helpers shared by the library's type rules (the no-overload error, the types of scalar
// constructors) and the typing of attributes and methods of numbers.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"
#include "typing/BuiltinNames.h"

#include <string>
#include <vector>

namespace taipan {

/// The type of attribute `attribute` of a run-time value (z.real), or nullptr.
const Type *typeValueAttribute(const Type *base, const std::string &attribute);

/// The builtin name a method call `value.method(...)` is typed and lowered as, or "".
std::string methodBuiltinName(const Type *base, const std::string &method);

/// "(int64, float64)": argument types for error messages.
std::string describeArgumentTypes(const std::vector<const Type *> &arguments);
/// The TypingError for a builtin called with argument types it has no implementation for.
[[noreturn]] void throwNoOverload(const std::string &name,
                                  const std::vector<const Type *> &arguments,
                                  SourceLocation location);

/// The scalar type a NumPy scalar constructor or Python conversion creates ("numpy.float32"
/// -> float32, "float" -> float64), or nullptr for other names.
const Type *scalarConstructorType(const std::string &name);

} // namespace taipan
