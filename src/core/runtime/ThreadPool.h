// The thread pool parallel code runs on (parallel ufunc loops, prange): a fixed set of workers
// that split a range of iterations, sized by TAIPAN_NUM_THREADS or set_num_threads().
#pragma once

#include <cstdint>
#include <functional>

namespace taipan::runtime {

/// Runs `body(begin, end)` over [0, count) split into contiguous chunks, one per thread (the
/// calling thread takes the first), and returns when every chunk is done. A call made from
/// inside a chunk runs serially on its thread: nested parallel regions do not oversubscribe.
void parallelFor(int64_t count, const std::function<void(int64_t begin, int64_t end)> &body);

/// The threads parallelFor uses (workers plus the caller): TAIPAN_NUM_THREADS when set, else
/// the machine's hardware threads.
int maximumThreadCount();
/// How many of them parallelFor uses now (1..maximumThreadCount(), set_num_threads).
int threadCount();
/// Sets threadCount(); returns false (changing nothing) outside 1..maximumThreadCount().
bool setThreadCount(int count);
/// 0 on the calling thread, 1.. on the workers, inside parallelFor's chunks.
int currentThreadId();
/// Whether the current thread is running a chunk of parallelFor.
bool insideParallelRegion();

} // namespace taipan::runtime
