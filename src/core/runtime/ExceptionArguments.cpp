// The entry point that keeps a raised exception's arguments, forwarding to the bindings' hook.
#include "runtime/ExceptionArguments.h"

#include "runtime/ThreadPool.h"

#include <atomic>

namespace taipan::runtime {
namespace {

std::atomic<ExceptionArgumentsHook> installedHook{nullptr};

} // namespace

void setExceptionArgumentsHook(ExceptionArgumentsHook hook) { installedHook.store(hook); }

} // namespace taipan::runtime

void taipan_keep_exception_arguments(const char *descriptor, void **values) {
  using namespace taipan;
  runtime::ExceptionArgumentsHook hook = runtime::installedHook.load();
  if (hook && !runtime::insideParallelRegion())
    hook(descriptor, values);
}
