// CompileError helpers: out-of-line so throw sites stay small.
#include "support/CompileError.h"

namespace taipan {

void throwTypingError(const std::string &message, SourceLocation location) {
  throw CompileError(CompileErrorKind::Typing, message, location);
}

void throwUnsupported(const std::string &message, SourceLocation location) {
  throw CompileError(CompileErrorKind::Unsupported, message, location);
}

} // namespace taipan
