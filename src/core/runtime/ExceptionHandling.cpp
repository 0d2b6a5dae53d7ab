// The runtime side of try/except: the pending exception is matched against handler classes,
// and a caught one is kept on a per-thread stack while its handler runs.
#include "runtime/ExceptionHandling.h"

#include "runtime/Runtime.h"
#include "runtime/Strings.h"

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
std::atomic<ExceptionText> textOf{nullptr};

/// Classes whose str() of one argument is that argument (most of those compiled code raises).
bool strIsMessage(int32_t id) {
  switch (id) {
  case taipan::ZeroDivisionErrorId:
  case taipan::ValueErrorId:
  case taipan::IndexErrorId:
  case taipan::AssertionErrorId:
  case taipan::OverflowErrorId:
  case taipan::TypeErrorId:
  case taipan::RuntimeErrorId:
  case taipan::MemoryErrorId:
  case taipan::AxisErrorId:
  case taipan::UnboundLocalErrorId:
  case taipan::NameErrorId:
    return true;
  default:
    return false;
  }
}
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

int64_t taipan_caught_index(void) { return static_cast<int64_t>(handled.size()) - 1; }

MemInfo *taipan_caught_message(int64_t index) {
  const HandledException &caught = handled[static_cast<size_t>(index)];
  std::string text;
  ExceptionText python = textOf.load();
  if (strIsMessage(caught.exceptionId) || !python ||
      !python(caught.exceptionId, caught.message, text))
    text = caught.message;
  return taipan_str_from_utf8(text.data(), static_cast<int64_t>(text.size()));
}

void taipan_reraise_at(int64_t index) {
  // Copied first: raising reuses the pending message's storage, not the handled stack's.
  HandledException caught = handled[static_cast<size_t>(index)];
  raiseWithMessage(caught.exceptionId, std::move(caught.message));
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

void setExceptionText(ExceptionText text) { textOf.store(text); }

PendingException handledException(int64_t index) {
  const HandledException &caught = handled[static_cast<size_t>(index)];
  return PendingException{caught.exceptionId, caught.message.c_str()};
}

} // namespace taipan::runtime
