// The library registry: every function taipan implements in C++ is one LibraryFunction (its
// parameters, the targets it runs on, its type rule and its lowering), found by qualified name.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class Value;
} // namespace llvm

namespace taipan {

class FunctionLowering;
struct LibraryFunction;

/// The targets a library function has an implementation for.
enum LibraryTargets : unsigned { OnCpu = 1, OnGpu = 2, OnEveryTarget = OnCpu | OnGpu };

/// A parameter: its name (for keyword arguments; empty when positional-only) and whether a
/// call may leave it out. Left-out parameters reach the rules as absent trailing arguments;
/// one left out before a parameter given by keyword (`np.arange(5, dtype=t)`) is a null
/// argument (its Expr, type and lowered value are nullptr).
struct LibraryParameter {
  std::string name;
  bool optional = false;
};

/// One call of a library function as typing bound it: the argument expressions in parameter
/// order (trailing optional ones left out, skipped ones null), their types, and the result
/// type once typed. A read of an attribute is a call with the value as its one argument.
struct LibraryCall {
  const LibraryFunction *function = nullptr;
  std::vector<Expr *> arguments;
  std::vector<const Type *> argumentTypes;
  const Type *resultType = nullptr;
  SourceLocation location;
};

/// The result type of a call; throws a TypingError (throwNoOverload) for argument types the
/// function does not take.
using LibraryTypeRule = std::function<const Type *(const LibraryCall &call)>;
/// Emits the call, given its lowered arguments (in the order of `call.arguments`).
using LibraryLowerRule = std::function<llvm::Value *(
    FunctionLowering &lowering, const LibraryCall &call, const std::vector<llvm::Value *> &values)>;

/// A function taipan implements in C++. `variadic` functions take any number of positional
/// arguments after their parameters (min, max, print).
///
/// Methods of a type are functions named "<type>.<method>" ("array.sum") whose first parameter
/// is the value the method is called on. An attribute ("array.shape") is an entry with
/// `isAttribute` set: reading `value.<attribute>` is a call of it with the value as its one
/// argument, typed and lowered like any other call.
struct LibraryFunction {
  std::string name; ///< qualified: "math.sqrt", "cmath.exp", "abs", "array.sum", "array.shape"
  std::vector<LibraryParameter> parameters;
  bool variadic = false;
  bool isAttribute = false; ///< read as `value.<attribute>`, not called
  unsigned targets = OnEveryTarget;
  LibraryTypeRule type;
  LibraryLowerRule lower;
};

/// Every LibraryFunction, by name. Families register themselves in Library.cpp's constructor
/// (one line per family); a family's file holds one entry per function.
class Library {
public:
  static const Library &get();
  /// The function called `name`, or nullptr.
  const LibraryFunction *find(const std::string &name) const;
  void add(LibraryFunction function);

  /// Binds a call's positional arguments and keywords to `function`'s parameters, as Python
  /// does, throwing a TypingError at `location` for a bad call. Trailing left-out parameters
  /// are dropped; one left out before a given one is nullptr.
  static std::vector<Expr *> bindArguments(const LibraryFunction &function,
                                           const std::vector<Expr *> &positional,
                                           const std::vector<std::string> &keywords,
                                           const std::vector<Expr *> &keywordValues,
                                           SourceLocation location);

private:
  Library();
  std::map<std::string, LibraryFunction> functions;
};

/// Registration of each family (library/<Family>.cpp).
void registerMathFunctions(Library &library);
void registerCmathFunctions(Library &library);
void registerRandomFunctions(Library &library);
void registerNumpyCreationFunctions(Library &library);
void registerNumpyShapeFunctions(Library &library);
void registerNumpyReductions(Library &library);
void registerNumpySortFunctions(Library &library);
void registerNumpyLinalgFunctions(Library &library);
void registerNumpyRandomFunctions(Library &library);
void registerArrayAttributes(Library &library);

/// The name of a target set for error messages ("CPU", "GPU").
std::string describeTargets(unsigned targets);

} // namespace taipan
