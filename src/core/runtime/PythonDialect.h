// What compiled code computes differently by the version of the Python that runs it: set once
// by the bindings (the extension is built for one Python), read by the library entries.
#pragma once

#include <string>

namespace taipan::python {

/// The running Python's minor version (3.x); 0 until the bindings set it (C++ tests), which
/// gives the behaviour of Pythons before 3.12.
void setMinorVersion(int minor);
int minorVersion();

/// sum() of floats compensates its rounding (Neumaier's algorithm) from Python 3.12 on.
bool sumCompensatesFloats();

/// The ValueError message of min() or max() (`function`) of an empty iterable without a
/// default: "min() iterable argument is empty" from Python 3.12 on, "min() arg is an empty
/// sequence" before.
std::string emptyExtremumMessage(const std::string &function);

/// The UnboundLocalError message of reading local `name` before any assignment: "cannot access
/// local variable 'x' where it is not associated with a value" from Python 3.11 on, "local
/// variable 'x' referenced before assignment" before.
std::string unboundLocalMessage(const std::string &name);

/// The NameError message of reading free variable `name` (a comprehension's or an inner
/// function's read of an enclosing function's local) before any assignment.
std::string unboundFreeVariableMessage(const std::string &name);

} // namespace taipan::python
