// The thread pool parallel code runs on (parallel ufunc loops, prange): a fixed set of workers
// that split a range of iterations, sized by TAIPAN_NUM_THREADS or set_num_threads().
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace taipan::runtime {

/// How many contiguous chunks each thread of a parallel loop owns. Each thread runs its own in
/// order, then takes chunks the others have not started, so a thread slowed by the machine
/// (another process on its core, a remote memory node) hands its last chunks to idle ones.
constexpr int ChunksPerThread = 4;

/// Runs `body(begin, end)` over [0, count) split into contiguous chunks, ChunksPerThread per
/// thread (the calling thread is one of them), and returns when every chunk is done. A call made
/// from inside a chunk runs serially on its thread: nested parallel regions do not oversubscribe.
void parallelFor(int64_t count, const std::function<void(int64_t begin, int64_t end)> &body);

/// A chunk of parallelForChunks: its range and its index (0, 1, 2... in the order of the ranges,
/// always below maximumChunkCount()), so a chunk can keep partial results in a slot of its own.
/// The ranges depend only on the count and the thread count, never on which thread ran what, so
/// partial results combined in chunk order are the same from run to run.
using ChunkBody = std::function<void(int64_t begin, int64_t end, int chunk)>;
/// parallelFor, telling each chunk its index. When the pool is busy with another Python
/// thread's loop, or the call is nested, the caller runs the whole range as chunk 0 rather than
/// wait: parallel code composes with threads instead of queueing behind them.
void parallelForChunks(int64_t count, const ChunkBody &body);

/// The first failure of a parallel loop's chunks (an exception pending on a worker), kept
/// until the loop is joined and then raised on the calling thread.
class ParallelFailure {
public:
  /// Takes this thread's pending exception as the loop's failure, unless one came first.
  void recordPendingException();
  /// Makes the recorded failure pending on this thread; false when no chunk failed.
  bool raiseIfFailed();

private:
  std::mutex mutex;
  bool failed = false;
  int32_t exceptionId = 0;
  std::string message;
};

/// The threads parallelFor uses (workers plus the caller): TAIPAN_NUM_THREADS when set, else
/// the machine's hardware threads.
int maximumThreadCount();
/// The most chunks one parallelForChunks call makes (maximumThreadCount() * ChunksPerThread).
int maximumChunkCount();
/// How many of them parallelFor uses now (1..maximumThreadCount(), set_num_threads).
int threadCount();
/// Sets threadCount(); returns false (changing nothing) outside 1..maximumThreadCount().
bool setThreadCount(int count);
/// 0 on the calling thread, 1.. on the workers, inside parallelFor's chunks.
int currentThreadId();
/// Whether the current thread is running a chunk of parallelFor.
bool insideParallelRegion();

} // namespace taipan::runtime
