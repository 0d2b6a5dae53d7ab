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
    FrozenTuple,      ///< a tuple of `elements` (tuples, arrays, functions), or a named tuple
    Module,           ///< name is the module's name ("math", "numpy", ...)
    Builtin,          ///< name is the qualified name taipan knows it by ("math.sqrt", "abs")
    JitFunction,      ///< another taipan-jitted function
    ExceptionClass,   ///< name is the class name, exceptionId the bindings' registry id
    ExternalFunction, ///< a foreign device function; functionType is its ExternalFunction type
    Overload,         ///< a function implemented in Python; registryId names it to the resolver
    Intrinsic,        ///< a function written in LLVM IR; registryId names it to the resolver
    DType,            ///< a NumPy dtype object (a record dtype); functionType is its DType type
    Unsupported,      ///< exists, but taipan cannot use it; name describes its Python type
    Missing,          ///< not defined anywhere
  };
  Kind kind = Kind::Missing;
  Constant constant;
  std::vector<Constant> items;
  std::string name;
  std::string reason; ///< Unsupported: why, when more can be said than the Python type
  /// A class object, of whatever kind: its qualified name ("tuple", "numpy.ndarray",
  /// "mymodule.Point"), which isinstance() reads; empty for other objects.
  std::string className;
  std::shared_ptr<FunctionSource> function;
  int exceptionId = 0;
  int registryId = 0;
  const Type *arrayType = nullptr;
  /// A Constant read from a NumPy scalar (np.float32(2.5)): its type, which the value keeps
  /// in compiled code as it does in NumPy's arithmetic; null for a Python number.
  const Type *scalarType = nullptr;
  const Type *functionType = nullptr;
  std::vector<int64_t> shape;
  std::string bytes;
  /// ConstantArray of a device array (an object exporting __cuda_array_interface__, as
  /// numba-cuda captures them): not frozen but referenced, the array viewing the device memory
  /// at deviceAddress with byte `strides`; it has no bytes.
  bool onDevice = false;
  uint64_t deviceAddress = 0;
  std::vector<int64_t> strides;
  /// FrozenTuple: its items; its functionType is the named tuple class's type, or null.
  std::vector<GlobalValue> elements;
};

/// A method or attribute of a run-time value implemented in Python (overload_method,
/// overload_attribute).
struct OverloadMember {
  int registryId = -1; ///< -1 when there is none
  bool isAttribute = false;
};

/// The body of an intrinsic chosen for one call: its signature and LLVM IR, either as the text
/// of its instructions or as a whole module (built with llvmlite's IRBuilder) defining it.
struct IntrinsicBody {
  const Type *returnType = nullptr;
  std::vector<const Type *> parameterTypes; ///< the arguments convert to these
  std::string instructions;                 ///< the function body; %arg0... are the parameters
  std::string declarations; ///< `declare` lines the body needs, outside the function
  /// When not empty: a module defining `@intrinsic` with the parameters' and result's value
  /// types (instructions and declarations are then empty).
  std::string module;
  /// Why the body holds values valid in this process only (addresses of functions compiled
  /// for `context.get_function`); empty when it holds none.
  std::string processSpecific;
  /// For each parameter, the index of the call's argument it takes (keyword arguments bound
  /// to the typing function's parameter names); empty when they are in order.
  std::vector<size_t> argumentOrder;
};

/// Resolves names for one function (its globals, closure cells and builtins), and asks the
/// Python side for the implementations of overloaded functions and intrinsics.
class GlobalResolver {
public:
  virtual ~GlobalResolver() = default;
  /// A name the function reads but never assigns.
  virtual GlobalValue resolveName(const std::string &name) = 0;
  /// An attribute of a module value, such as `math.pi` or `np.float32`.
  virtual GlobalValue resolveAttribute(const GlobalValue &module, const std::string &attribute) = 0;

  /// The function compiled in place of a call of overload `registryId` with these argument
  /// types (self first for a method). When none applies: nullptr if `mayDecline` (taipan has
  /// its own implementation to fall back to), else a TypingError at `location`.
  virtual std::shared_ptr<FunctionSource>
  implementOverload(int registryId, const std::vector<const Type *> &positional,
                    const std::vector<std::string> &keywords,
                    const std::vector<const Type *> &keywordTypes, bool mayDecline,
                    SourceLocation location);
  /// The overloaded method or attribute `name` of values of type `self`, if any.
  virtual OverloadMember findMember(const Type *self, const std::string &name);
  /// The body of intrinsic `registryId` for these argument types (the last `keywords.size()`
  /// of them passed by those names); throws a TypingError.
  virtual IntrinsicBody implementIntrinsic(int registryId,
                                           const std::vector<const Type *> &arguments,
                                           const std::vector<std::string> &keywords,
                                           SourceLocation location);
  /// The first-class function type of jitted function `function` when its compilation is
  /// closed (explicit signatures, exactly one), which Numba takes as its type; else null.
  virtual const Type *closedFunctionType(FunctionSource &function);
  /// Jitted function `function` as a first-class function value of type `functionType`: the
  /// ExternalFunction type of its C entry compiled for that signature (called by the C
  /// convention at its address); a TypingError at `location` when it does not compile for it.
  virtual const Type *firstClassEntry(FunctionSource &function, const Type *functionType,
                                      SourceLocation location);
  /// Whether jitted function `function` has a dispatcher Python can be given (a function
  /// defined inside compiled code has none), so that compiled code may return it.
  virtual bool hasDispatcher(FunctionSource &function);
  /// The explicit signature a call of jitted function `function` with `arguments` converts to,
  /// when its dispatcher was given signatures and so compiles no others (Numba's closed
  /// compilation): the signature's argument types, then its return type. Empty when the
  /// function compiles for any argument types. A TypingError at `location` when no signature
  /// takes the arguments, or two take them equally well (Numba's overload rule).
  virtual std::vector<const Type *> explicitSignature(FunctionSource &function,
                                                      const std::vector<const Type *> &arguments,
                                                      SourceLocation location);
  /// Numba's name of jitted function `function`'s type, where a typing error inside it names
  /// the callee being resolved (`type(CPUDispatcher(<function f at 0x...>))`); empty when it
  /// has no dispatcher.
  virtual std::string calleeTypeName(FunctionSource &function);
};

} // namespace taipan
