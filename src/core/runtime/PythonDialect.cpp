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

std::string unboundLocalMessage(const std::string &name) {
  return minorVersion() >= 11
             ? "cannot access local variable '" + name + "' where it is not associated with a value"
             : "local variable '" + name + "' referenced before assignment";
}

std::string unboundFreeVariableMessage(const std::string &name) {
  return minorVersion() >= 11
             ? "cannot access free variable '" + name +
                   "' where it is not associated with a value in enclosing scope"
             : "free variable '" + name + "' referenced before assignment in enclosing scope";
}

} // namespace taipan::python
