// The registry of platforms the compile pipeline can compile for, by the name a
// TargetDescription gives (TargetDescription::platform).
#pragma once

#include "target/Platform.h"

#include <string>

namespace taipan {

/// The platform registered under `name` ("cpu", "cuda"). Throws CompileError (internal) for a
/// name nothing registered.
const Platform &platformNamed(const std::string &name);

} // namespace taipan
