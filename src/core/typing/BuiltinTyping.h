// Typing of the functions taipan implements itself: Python builtins, math, cmath, random and
// NumPy scalar constructors, by qualified name; and of attributes and methods of values.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"
#include "typing/BuiltinNames.h"

#include <string>
#include <vector>

namespace taipan {

/// The result type of calling builtin `name` ("math.sqrt", "abs", "numpy.float32", ...).
/// Throws a TypingError naming the argument types when there is no such overload.
const Type *typeBuiltinCall(const std::string &name, const std::vector<const Type *> &arguments,
                            const std::vector<Expr *> &argumentExprs, SourceLocation location);

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
