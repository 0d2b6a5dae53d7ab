// The runtime side of try/except: the pending exception is matched against handler classes,
// and a caught one is kept on a per-thread stack while its handler runs.
#include "runtime/ExceptionHandling.h"

#include "runtime/Runtime.h"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

using namespace taipan::runtime;

namespace {
/// A caught exception: its class and its message, copied (the pending message's storage is
/// reused by the next raise, which a handler may well make).
struct HandledException {
  int32_t exceptionId;
  std::string message;
};
thread_local std::vector<HandledException> handled;
std::atomic<ExceptionMatcher> matcher{nullptr};
} // namespace

extern "C" {

int32_t taipan_exception_matches(int32_t handlerId) {
  int32_t raised = pendingException().exceptionId;
  if (raised == handlerId)
    return 1;
  ExceptionMatcher isSubclass = matcher.load();
  return isSubclass && isSubclass(raised, handlerId) ? 1 : 0;
}

void taipan_catch(void) {
  PendingException caught = takePendingException();
  handled.push_back({caught.exceptionId, caught.message ? caught.message : ""});
}

void taipan_end_catch(void) {
  if (!handled.empty())
    handled.pop_back();
}

void taipan_reraise(void) {
  if (handled.empty()) {
    raiseWithMessage(taipan::RuntimeErrorId, "No active exception to reraise");
    return;
  }
  raiseWithMessage(handled.back().exceptionId, handled.back().message);
}
}

namespace taipan::runtime {

void setExceptionMatcher(ExceptionMatcher isSubclass) { matcher.store(isSubclass); }

} // namespace taipan::runtime
