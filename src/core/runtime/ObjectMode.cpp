// The entry point of `with objmode(...)` blocks, forwarding to the bindings' hook.
#include "runtime/ObjectMode.h"

#include "runtime/Runtime.h"
#include "runtime/ThreadPool.h"

#include <atomic>

namespace taipan::runtime {
namespace {

std::atomic<ObjectModeHook> installedHook{nullptr};

} // namespace

void setObjectModeHook(ObjectModeHook hook) { installedHook.store(hook); }

} // namespace taipan::runtime

int32_t taipan_objmode_call(int64_t site, void **inputs, void *results) {
  using namespace taipan;
  if (runtime::insideParallelRegion()) {
    taipan_raise(RuntimeErrorId, "a with objmode(...) block cannot run on the threads of a "
                                 "parallel region (a prange loop or a parallel ufunc)");
    return 1;
  }
  runtime::ObjectModeHook hook = runtime::installedHook.load();
  if (!hook) {
    taipan_raise(RuntimeErrorId, "with objmode(...) blocks need taipan's Python bindings");
    return 1;
  }
  return hook(site, inputs, results);
}
