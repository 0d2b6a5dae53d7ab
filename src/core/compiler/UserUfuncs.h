// A user's ufunc (@vectorize) as compiled code sees it: a library function whose element is a
// call of the scalar function, so jitted code calls it on scalars and fuses it into array
// expressions.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace taipan {

/// What the library needs to know of a user's ufunc.
struct UserUfunc {
  std::string name; ///< the library name it registers under (unique in the process)
  unsigned inputs = 1;
  std::shared_ptr<FunctionSource> scalarFunction;
  /// NumPy's loop for these input element types: true with the loop's input types and its
  /// output type (nullptr: the scalar function's return type, a DUFunc's new loop), or false
  /// when the ufunc has no loop for them. Called while typing, with the compiler's lock held.
  std::function<bool(const std::vector<const Type *> &elements, std::vector<const Type *> &inputs,
                     const Type *&output)>
      selectLoop;
};

/// Registers `ufunc` as the library function `ufunc.name` (under the compiler's lock).
void registerUserUfunc(UserUfunc ufunc);

} // namespace taipan
