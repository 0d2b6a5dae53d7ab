// isinstance() in compiled code: decided from the value's type when the function compiles, as
// Numba does, so that the branch not taken is pruned (never typed nor lowered).
#pragma once

#include "support/CompileError.h"
#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// isinstance()'s answer for a value of one type, which its call records as its form.
enum class IsinstanceAnswer : unsigned {
  False = 0,
  True = 1,
  WhenNotNone = 2, ///< an optional whose value is an instance and None is not
  WhenNone = 3,    ///< an optional whose value is not an instance and None is (NoneType)
};

/// Whether a value of type `value` is an instance of one of the classes named `classNames`
/// ("int", "tuple", "numpy.float32", "numpy.ndarray", "jitclass#3", as the resolver names
/// classes). A compiled number stands for the Python number and the NumPy scalar of its type
/// alike (float64 is a float and a numpy.float64), as in Numba. An optional's answer may be
/// known only at run time (WhenNotNone, WhenNone). Raises a TypingError at `location` for a
/// class the answer is not known for (a user's class, which could subclass int or tuple) or a
/// value that is not data.
IsinstanceAnswer isinstanceAnswer(const Type *value, const std::vector<std::string> &classNames,
                                  SourceLocation location);

} // namespace taipan
