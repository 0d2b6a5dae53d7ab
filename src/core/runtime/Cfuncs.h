// What C-callable entries (@cfunc) call at run time: the report of an exception that nothing
// can catch, since their caller is C code, unless it is compiled code calling a jitted
// function's entry through a first-class function value, which takes the exception on.
#pragma once

#include <cstdint>

extern "C" {
/// Called by the cfunc `entry` when its function raised: hands the pending exception to the
/// host's sink, which prints it as unraisable (as ctypes does for its callbacks), and the
/// cfunc returns zero; unless `entry` is the jitted function's entry that compiled code is
/// calling through a first-class function value (taipan_first_class_enter), which then takes
/// the exception on.
void taipan_cfunc_failed(void *entry);
/// Before compiled code calls a jitted function's entry through a first-class function value:
/// notes the address on this thread and returns the one noted before (calls nest).
void *taipan_first_class_enter(void *address);
/// After it: restores `previous`; 1 when the entry raised (its exception stays pending, for
/// the caller to propagate), else 0.
int32_t taipan_first_class_leave(void *previous);
}

namespace taipan::runtime {

/// The host's handler for a failed cfunc: the bindings take the GIL and report
/// takePendingException() with PyErr_WriteUnraisable.
using CfuncFailureSink = void (*)();
void setCfuncFailureSink(CfuncFailureSink sink);

} // namespace taipan::runtime
