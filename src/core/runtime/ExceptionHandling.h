// What compiled try/except statements call: matching the pending exception against a handler's
// class, and the thread's stack of exceptions being handled (for a bare `raise`).
#pragma once

#include "runtime/MemoryRuntime.h"
#include "runtime/Runtime.h"

#include <cstdint>
#include <string>

extern "C" {
/// 1 when the pending exception is an instance of the class `handlerId` (or a subclass), else 0.
int32_t taipan_exception_matches(int32_t handlerId);
/// Enters a handler: the pending exception moves onto the thread's stack of handled ones and
/// nothing is pending any more.
void taipan_catch(void);
/// Leaves a handler, by any path: forgets the exception it handled.
void taipan_end_catch(void);
/// A bare `raise` in a handler: the handled exception becomes pending again, unchanged.
void taipan_reraise(void);
/// `except ... as e`: the index of the exception this handler caught on the handled stack (read
/// once, when the handler starts; deeper handlers push above it).
int64_t taipan_caught_index(void);
/// str(e) of the handled exception at `index`: a new string, or null with MemoryError pending.
taipan::runtime::MemInfo *taipan_caught_message(int64_t index);
/// `raise e`: the handled exception at `index` becomes pending again, class and message.
void taipan_reraise_at(int64_t index);
}

namespace taipan::runtime {

/// Whether exception class `raised` is `handler` or a subclass of it (registry ids). The
/// bindings install it (the hierarchy is Python's); without one only equal ids match.
using ExceptionMatcher = bool (*)(int32_t raised, int32_t handler);
void setExceptionMatcher(ExceptionMatcher matcher);

/// The handled exception at `index` of this thread's handled stack (`except ... as e`):
/// its class and message, the message valid until the handler ends.
PendingException handledException(int64_t index);

/// str() of the exception of class `id` made from `message` (Python's, which a class may
/// format); false to keep the message. The bindings install it.
using ExceptionText = bool (*)(int32_t id, const std::string &message, std::string &text);
void setExceptionText(ExceptionText text);

} // namespace taipan::runtime
