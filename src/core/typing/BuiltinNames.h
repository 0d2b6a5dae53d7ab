// Which qualified names taipan implements as builtins: the one question about builtins that the
// global resolver (in the bindings) asks, kept apart from the typing rules behind it.
#pragma once

#include <string>

namespace taipan {

/// Whether a qualified name ("math.sqrt", "numpy.zeros", "cuda.threadIdx.x") is a builtin
/// that taipan knows how to call.
bool isKnownBuiltin(const std::string &name);

} // namespace taipan
