// Calls of `with objmode(...)` blocks from compiled code: the entry point compiled code calls,
// and the hook through which the bindings run a block in the interpreter.
#pragma once

#include <cstdint>

namespace taipan::runtime {

/// Runs the block of call site `site` (typing/ObjectModeBlocks.h): boxes the inputs (one
/// pointer to each value's memory form), calls the block's function under the GIL and unboxes
/// its outputs into `results` (the memory form of the tuple of declared outputs, whose
/// references the caller then owns). Returns 0, or non-zero with the exception pending.
using ObjectModeHook = int32_t (*)(int64_t site, void **inputs, void *results);
/// Installed by the bindings when they load.
void setObjectModeHook(ObjectModeHook hook);

} // namespace taipan::runtime

extern "C" {
/// What a rewritten block calls: the hook, unless the thread is in a parallel region (whose
/// threads must not wait for the GIL the caller may hold): then a RuntimeError.
int32_t taipan_objmode_call(int64_t site, void **inputs, void *results);
}
