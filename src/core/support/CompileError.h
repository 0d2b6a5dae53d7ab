// CompileError: the one exception type the compiler throws for bad user input.
// It carries the source location so the bindings can point at the user's line.
#pragma once

#include <stdexcept>
#include <string>

namespace taipan {

/// A position in the user's function, relative to the parsed source text (line 1 is the first
/// line handed to the parser; column is 0-based, as in Python's ast).
struct SourceLocation {
  int line = 0;
  int column = 0;
};

/// The category decides which Python exception the bindings raise. Lowering: code generation
/// refused what typing accepted (an intrinsic's codegen returning nothing for a non-void
/// signature), Numba's LoweringError. Conversion: the function returns a value that has no
/// Python form (a module), a TypeError as Numba's at the call. Value: an argument of the right
/// type whose constant value the function refuses (cuda.local.array's alignment), a ValueError.
enum class CompileErrorKind { Typing, Unsupported, Internal, Lowering, Conversion, Value };

/// Thrown by every compiler stage for input it cannot handle. The message is meant for users.
class CompileError : public std::runtime_error {
public:
  CompileError(CompileErrorKind kind, const std::string &message, SourceLocation location,
               const void *function = nullptr)
      : std::runtime_error(message), kind(kind), location(location), function(function) {}

  CompileErrorKind kind;
  SourceLocation location;
  /// The FunctionSource the location refers to; filled in by the stage that knows it.
  const void *function;
};

/// Shorthands that keep throw sites on one line.
[[noreturn]] void throwTypingError(const std::string &message, SourceLocation location);
[[noreturn]] void throwUnsupported(const std::string &message, SourceLocation location);

} // namespace taipan
