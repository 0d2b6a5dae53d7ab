// The running Python's version, for the behaviours that differ between versions.
#include "runtime/PythonDialect.h"

#include <atomic>

namespace taipan::python {
namespace {
std::atomic<int> runningMinor{0};
} // namespace

void setMinorVersion(int minor) { runningMinor = minor; }

int minorVersion() { return runningMinor; }

bool sumCompensatesFloats() { return minorVersion() >= 12; }

std::string emptyExtremumMessage(const std::string &function) {
  return minorVersion() >= 12 ? function + "() iterable argument is empty"
                              : function + "() arg is an empty sequence";
}

} // namespace taipan::python
