// The failure report of C-callable entries, and the calls through first-class function values
// that take a jitted function's exception on instead.
#include "runtime/Cfuncs.h"

#include <atomic>

namespace taipan::runtime {

namespace {
std::atomic<CfuncFailureSink> failureSink{nullptr};

/// The jitted function's entry this thread calls through a first-class function value, and
/// whether it failed.
thread_local void *calledThroughValue = nullptr;
thread_local bool calledEntryFailed = false;
} // namespace

void setCfuncFailureSink(CfuncFailureSink sink) { failureSink.store(sink); }

} // namespace taipan::runtime

extern "C" void taipan_cfunc_failed(void *entry) {
  using namespace taipan::runtime;
  if (entry && entry == calledThroughValue) {
    calledEntryFailed = true; // the exception stays pending for the caller
    return;
  }
  if (CfuncFailureSink sink = failureSink.load())
    sink();
}

extern "C" void *taipan_first_class_enter(void *address) {
  void *previous = taipan::runtime::calledThroughValue;
  taipan::runtime::calledThroughValue = address;
  return previous;
}

extern "C" int32_t taipan_first_class_leave(void *previous) {
  taipan::runtime::calledThroughValue = previous;
  bool failed = taipan::runtime::calledEntryFailed;
  taipan::runtime::calledEntryFailed = false;
  return failed ? 1 : 0;
}
