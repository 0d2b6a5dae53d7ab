// The one list of platforms: adding a target is its folder (its Target subclasses and Platform)
// plus one line here.
#include "compiler/Platforms.h"

#include "cpu/CpuPlatform.h"
#include "cuda/CudaPlatform.h"
#include "support/CompileError.h"

#include <map>

namespace taipan {
namespace {

/// Every platform by name, made once (they hold no state of their own beyond what their
/// folders keep process-wide).
const std::map<std::string, const Platform *> &registeredPlatforms() {
  static const CpuPlatform cpu;
  static const CudaPlatform cuda;
  static const std::map<std::string, const Platform *> platforms = {
      {"cpu", &cpu},
      {"cuda", &cuda},
  };
  return platforms;
}

} // namespace

const Platform &platformNamed(const std::string &name) {
  auto found = registeredPlatforms().find(name);
  if (found == registeredPlatforms().end())
    throw CompileError(CompileErrorKind::Internal, "no compile platform is named '" + name + "'",
                       {});
  return *found->second;
}

} // namespace taipan
