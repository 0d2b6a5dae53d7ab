// isinstance() in compiled code: decided from the value's type when the function compiles, as
// Numba does, so that the branch not taken is pruned (never typed nor lowered).
#pragma once

#include "support/CompileError.h"
#include "types/Type.h"

#include <string>

namespace taipan {

/// Whether a value of type `value` is an instance of the class named `className` ("int",
/// "tuple", "numpy.float32", "numpy.ndarray", as the resolver names classes). A compiled number
/// stands for the Python number and the NumPy scalar of its type alike (float64 is a float and a
/// numpy.float64), as in Numba. Raises a TypingError at `location` for a class the answer is not
/// known for (a user's class, which could subclass int or tuple) or a value that is not data.
bool isInstanceOf(const Type *value, const std::string &className, SourceLocation location);

} // namespace taipan
