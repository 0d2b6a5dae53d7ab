// The failure report of C-callable entries, and the calls through first-class function values
// that take a jitted function's exception on instead.
#include "runtime/Cfuncs.h"

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace taipan::runtime {

namespace {
std::atomic<CfuncFailureSink> failureSink{nullptr};

std::mutex propagatingMutex;
std::unordered_set<void *> &propagatingEntries() {
  static auto *entries = new std::unordered_set<void *>();
  return *entries;
}

/// The function this thread calls through a first-class function value, and whether it was a
/// jitted function's entry that failed.
thread_local void *calledThroughValue = nullptr;
thread_local bool calledEntryFailed = false;
} // namespace

void setCfuncFailureSink(CfuncFailureSink sink) { failureSink.store(sink); }

void registerPropagatingEntry(void *address) {
  std::lock_guard<std::mutex> lock(propagatingMutex);
  propagatingEntries().insert(address);
}

} // namespace taipan::runtime

extern "C" void taipan_cfunc_failed(void) {
  using namespace taipan::runtime;
  if (void *called = calledThroughValue) {
    std::lock_guard<std::mutex> lock(propagatingMutex);
    if (propagatingEntries().count(called)) {
      calledEntryFailed = true; // the exception stays pending for the caller
      return;
    }
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
