// The interface through which type inference learns what a free name in the user's function
// means (a constant, a module, a builtin, another jitted function...). Implemented by the bindings.
#pragma once

#include "runtime/Runtime.h"
#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <memory>
#include <string>

namespace taipan {

/// What a global, closure variable or module attribute refers to, frozen at compile time.
struct GlobalValue {
  enum class Kind {
    Constant,         ///< a number, bool, None or str
    ConstantTuple,    ///< a tuple of constants
    ConstantArray,    ///< a NumPy array, frozen: arrayType, shape and its bytes (C order)
    Module,           ///< name is the module's name ("math", "numpy", ...)
    Builtin,          ///< name is the qualified name taipan knows it by ("math.sqrt", "abs")
    JitFunction,      ///< another taipan-jitted function
    ExceptionClass,   ///< name is the class name, exceptionId the bindings' registry id
    ExternalFunction, ///< a foreign device function; functionType is its ExternalFunction type
    Unsupported,      ///< exists, but taipan cannot use it; name describes its Python type
    Missing,          ///< not defined anywhere
  };
  Kind kind = Kind::Missing;
  Constant constant;
  std::vector<Constant> items;
  std::string name;
  std::shared_ptr<FunctionSource> function;
  int exceptionId = 0;
  const Type *arrayType = nullptr;
  const Type *functionType = nullptr;
  std::vector<int64_t> shape;
  std::string bytes;
};

/// Resolves names for one function (its globals, closure cells and builtins).
class GlobalResolver {
public:
  virtual ~GlobalResolver() = default;
  /// A name the function reads but never assigns.
  virtual GlobalValue resolveName(const std::string &name) = 0;
  /// An attribute of a module value, such as `math.pi` or `np.float32`.
  virtual GlobalValue resolveAttribute(const GlobalValue &module, const std::string &attribute) = 0;
};

} // namespace taipan
