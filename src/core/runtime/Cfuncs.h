// What C-callable entries (@cfunc) call at run time: the report of an exception that nothing
// can catch, since their caller is C code.
#pragma once

extern "C" {
/// Called by a cfunc whose function raised: hands the pending exception to the host's sink,
/// which prints it as unraisable (as ctypes does for its callbacks); the cfunc returns zero.
void taipan_cfunc_failed(void);
}

namespace taipan::runtime {

/// The host's handler for a failed cfunc: the bindings take the GIL and report
/// takePendingException() with PyErr_WriteUnraisable.
using CfuncFailureSink = void (*)();
void setCfuncFailureSink(CfuncFailureSink sink);

} // namespace taipan::runtime
