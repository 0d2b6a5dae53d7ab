// The entry point that keeps a raised exception's arguments, forwarding to the bindings' hook.
#include "runtime/ExceptionArguments.h"

#include "runtime/ExceptionHandling.h"
#include "runtime/Runtime.h"
#include "runtime/ThreadPool.h"

#include <atomic>

namespace taipan::runtime {
namespace {

std::atomic<ExceptionArgumentsHook> installedHook{nullptr};
std::atomic<CaughtArgumentsHook> caughtArgumentsHook{nullptr};

} // namespace

void setExceptionArgumentsHook(ExceptionArgumentsHook hook) { installedHook.store(hook); }
void setCaughtArgumentsHook(CaughtArgumentsHook hook) { caughtArgumentsHook.store(hook); }

} // namespace taipan::runtime

void taipan_keep_exception_arguments(const char *descriptor, void **values) {
  using namespace taipan;
  runtime::ExceptionArgumentsHook hook = runtime::installedHook.load();
  if (hook && !runtime::insideParallelRegion())
    hook(descriptor, values);
}

int32_t taipan_caught_args(int64_t index, const char *descriptor, void *result) {
  using namespace taipan;
  runtime::CaughtArgumentsHook hook = runtime::caughtArgumentsHook.load();
  if (!hook || runtime::insideParallelRegion()) {
    taipan_raise(RuntimeErrorId, hook ? "e.args cannot be read on the threads of a parallel "
                                        "region (it needs the GIL)"
                                      : "e.args needs taipan's Python bindings");
    return 1;
  }
  runtime::PendingException caught = runtime::handledException(index);
  return hook(caught.exceptionId, caught.message, descriptor, result);
}
