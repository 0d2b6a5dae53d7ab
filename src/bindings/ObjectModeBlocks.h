// `with objmode(...)` blocks in the bindings: registering a block's Python function and
// declared outputs, and the runtime hook that runs a block under the GIL.
#pragma once

#include <Python.h>
#include <nanobind/nanobind.h>

#include "runtime/Runtime.h"

namespace taipan::bindings {

/// Defines `_core.register_objmode_block` and installs the runtime's objmode hook.
void defineObjectModeBlocks(nanobind::module_ &module);

/// When the exception pending on this thread is the one an objmode block raised (same class
/// and message), sets that very exception object (its arguments and traceback) as Python's
/// error and returns true.
bool restoreObjectModeException(const runtime::PendingException &pending);
/// str() of the exception an objmode block raised, when `id` and `message` are that
/// exception's; false otherwise. Needs the GIL.
bool objectModeExceptionText(int32_t id, const std::string &message, std::string &text);
/// This thread's calls of compiled code from Python in progress, and whether exceptions may be
/// kept for them: plain thread-local data, so that a call reads its thread's storage once.
struct CompiledCallState {
  int depth;
  bool mayHoldKept; ///< set when an exception is kept, cleared when the kept ones are forgotten
};
/// Forgets this thread's kept exceptions (leaveCompiledCall's rare part).
void forgetKeptExceptions(CompiledCallState &state);
/// Around each call of compiled code from Python: when the outermost call on this thread
/// returns normally, the exception objects kept for it are forgotten (compiled code caught
/// them), so that their tracebacks keep nothing alive.
CompiledCallState &enterCompiledCall();
inline void leaveCompiledCall(CompiledCallState &state, int32_t status) {
  if (--state.depth > 0 || status != 0 || !state.mayHoldKept)
    return;
  forgetKeptExceptions(state);
}

} // namespace taipan::bindings
