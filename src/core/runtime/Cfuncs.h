// What C-callable entries (@cfunc) call at run time: the report of an exception that nothing
// can catch, since their caller is C code, unless it is compiled code calling a jitted
// function's entry through a first-class function value, which takes the exception on.
#pragma once

#include <cstdint>

extern "C" {
/// Called by a cfunc whose function raised: hands the pending exception to the host's sink,
/// which prints it as unraisable (as ctypes does for its callbacks); the cfunc returns zero.
void taipan_cfunc_failed(void);
/// Before a call through a first-class function value: notes the address called on this
/// thread and returns the one noted before (calls nest).
void *taipan_first_class_enter(void *address);
/// After it: restores `previous`; 1 when the function called was a jitted function's entry
/// that raised (its exception stays pending, for the caller to propagate), else 0.
int32_t taipan_first_class_leave(void *previous);
}

namespace taipan::runtime {

/// The host's handler for a failed cfunc: the bindings take the GIL and report
/// takePendingException() with PyErr_WriteUnraisable.
using CfuncFailureSink = void (*)();
void setCfuncFailureSink(CfuncFailureSink sink);

/// Marks `address` as the C entry of a jitted function made a first-class function value: an
/// exception it raises while compiled code calls it through the value propagates to that code,
/// as the jitted function's would (Numba calls such values by its own convention).
void registerPropagatingEntry(void *address);

} // namespace taipan::runtime
