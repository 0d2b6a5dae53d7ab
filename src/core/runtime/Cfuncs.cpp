// The failure report of C-callable entries.
#include "runtime/Cfuncs.h"

#include <atomic>

namespace taipan::runtime {

namespace {
std::atomic<CfuncFailureSink> failureSink{nullptr};
} // namespace

void setCfuncFailureSink(CfuncFailureSink sink) { failureSink.store(sink); }

} // namespace taipan::runtime

extern "C" void taipan_cfunc_failed(void) {
  if (taipan::runtime::CfuncFailureSink sink = taipan::runtime::failureSink.load())
    sink();
}
