// The run-time side of prange: outlined loop bodies run over the thread pool, failures kept
// and raised on the calling thread.
#include "runtime/ParallelLoops.h"

#include "runtime/ThreadPool.h"

#include <atomic>

using namespace taipan::runtime;

extern "C" int32_t taipan_parallel_for(int64_t count, taipan_parallel_body body, void *environment,
                                       int64_t *chunks, int64_t grain) {
  if (count < grain) {
    *chunks = count > 0 ? 1 : 0;
    return count > 0 ? body(environment, 0, count, 0) : 0;
  }
  ParallelFailure failure;
  std::atomic<int32_t> status{0};
  std::atomic<int> used{0};
  parallelForChunks(count, [&](int64_t begin, int64_t end, int chunk) {
    int seen = used.load();
    while (seen < chunk + 1 && !used.compare_exchange_weak(seen, chunk + 1)) {
    }
    if (int32_t result = body(environment, begin, end, chunk)) {
      failure.recordPendingException();
      int32_t none = 0;
      status.compare_exchange_strong(none, result);
    }
  });
  *chunks = used.load();
  failure.raiseIfFailed();
  return status.load();
}

extern "C" int64_t taipan_parallel_slot_count(void) { return maximumChunkCount(); }

extern "C" int64_t taipan_get_thread_id(void) { return currentThreadId(); }

extern "C" int64_t taipan_get_num_threads(void) { return threadCount(); }
