// The descriptor that names the types of exception arguments for the runtime
// (runtime/ExceptionArguments.h): raised arguments kept for Python, and `e.args` read back.
#pragma once

#include "types/Type.h"

#include <string>

namespace taipan {

/// Appends the descriptor names of the values of `type` (numbers, None, strings, string
/// literals as strings, tuples of them in parentheses) to `descriptor`; false for other types,
/// which the descriptor cannot name.
bool describeExceptionArgument(const Type *type, std::string &descriptor);

} // namespace taipan
