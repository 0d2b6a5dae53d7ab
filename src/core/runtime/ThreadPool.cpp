// A fixed pool of worker threads that wait on a condition variable for the next parallelFor;
// the caller runs the first chunk itself and waits for the rest.
#include "runtime/ThreadPool.h"

#include "runtime/Runtime.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace taipan::runtime {
namespace {

thread_local int threadId = 0;
thread_local bool inRegion = false;

int readMaximumThreads() {
  // The same variables, in the same order, as taipan.config (which reports this count).
  const char *text = std::getenv("TAIPAN_NUM_THREADS");
  if (!text || !*text)
    text = std::getenv("NUMBA_NUM_THREADS");
  int count = text ? std::atoi(text) : 0;
  if (count <= 0)
    count = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(count, 1);
}

/// The workers and the one job they share. Jobs run one at a time (a mutex serialises callers
/// from different Python threads).
class Pool {
public:
  /// The process's pool. Never destroyed: workers may outlive static destructors. A child
  /// made by fork() has none of the parent's workers (and perhaps a mutex locked by one), so
  /// it starts a fresh pool; the old one is left behind, as it cannot be taken apart safely.
  static Pool &get() {
    static bool registered = [] {
      pthread_atfork(nullptr, nullptr, [] { current.store(nullptr); });
      return true;
    }();
    (void)registered;
    Pool *pool = current.load();
    if (!pool) {
      Pool *fresh = new Pool();
      if (current.compare_exchange_strong(pool, fresh))
        pool = fresh;
      else
        delete fresh;
    }
    return *pool;
  }

  const int maximum = readMaximumThreads();
  std::atomic<int> active{maximum};

  /// Runs `body` over the workers; false (running nothing) when another thread's job holds the
  /// pool.
  bool tryRun(int64_t count, const ChunkBody &body) {
    std::unique_lock<std::mutex> serial(callers, std::try_to_lock);
    if (!serial.owns_lock())
      return false;
    int threads = static_cast<int>(std::min<int64_t>(active.load(), count));
    // Every worker has seen the previous job (even those it did not use) before the job's
    // fields change under them.
    waitUntilZero(unacknowledged);
    startWorkers(threads - 1);
    job = &body;
    jobCount = count;
    jobThreads = threads;
    remaining.store(threads - 1);
    unacknowledged.store(static_cast<int>(workers.size()));
    generation.fetch_add(1); // publishes the fields above
    if (sleepers.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex);
      wake.notify_all();
    }
    runChunk(0, body, count, threads);
    waitUntilZero(remaining);
    return true;
  }

private:
  /// How long a thread spins on a change before it sleeps: back-to-back parallel loops (a
  /// prange in a Python loop, small array expressions) then start without a wake-up, which
  /// costs tens of microseconds per worker, as OpenMP and TBB runtimes also spin.
  const int SpinIterations = [] {
    const char *text = std::getenv("TAIPAN_POOL_SPIN");
    return text ? std::atoi(text) : 1 << 15;
  }();

  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  /// Waits (spinning, then sleeping on `done`) until `counter` is 0.
  void waitUntilZero(std::atomic<int> &counter) {
    for (int spin = 0; spin < SpinIterations; ++spin) {
      if (counter.load() == 0)
        return;
      pause();
    }
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return counter.load() == 0; });
  }

  /// Counts down `counter`, waking the caller waiting for it when it reaches 0.
  void countDown(std::atomic<int> &counter) {
    if (counter.fetch_sub(1) == 1) {
      std::lock_guard<std::mutex> lock(mutex);
      done.notify_all();
    }
  }

  static void runChunk(int index, const ChunkBody &body, int64_t count, int threads) {
    int64_t begin = count * index / threads, end = count * (index + 1) / threads;
    bool outer = inRegion;
    int outerId = threadId;
    inRegion = true;
    threadId = index;
    if (begin < end)
      body(begin, end, index);
    inRegion = outer;
    threadId = outerId;
  }

  void startWorkers(int wanted) {
    while (static_cast<int>(workers.size()) < wanted) {
      int index = static_cast<int>(workers.size()) + 1;
      uint64_t seen = generation.load();
      workers.emplace_back([this, index, seen] { work(index, seen); });
      workers.back().detach();
    }
  }

  void work(int index, uint64_t seen) {
    for (;;) {
      // The next job: spin for it a while, then sleep until the caller wakes us.
      int spin = 0;
      while (generation.load() == seen && spin < SpinIterations) {
        pause();
        ++spin;
      }
      if (generation.load() == seen) {
        std::unique_lock<std::mutex> lock(mutex);
        sleepers.fetch_add(1);
        wake.wait(lock, [&] { return generation.load() != seen; });
        sleepers.fetch_sub(1);
      }
      seen = generation.load();
      if (index < jobThreads) {
        runChunk(index, *job, jobCount, jobThreads);
        countDown(remaining);
      }
      countDown(unacknowledged);
    }
  }

  std::mutex callers;
  std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  // The job, written by the caller before `generation` changes and read by workers after.
  const ChunkBody *job = nullptr;
  int64_t jobCount = 0;
  int jobThreads = 0;
  // Each on a cache line of its own: workers poll `generation` while others count down.
  alignas(64) std::atomic<uint64_t> generation{0};
  alignas(64) std::atomic<int> remaining{0};      ///< chunks of the job still running on workers
  alignas(64) std::atomic<int> unacknowledged{0}; ///< workers that have not finished with the job
  alignas(64) std::atomic<int> sleepers{0};       ///< workers asleep on `wake`

  static std::atomic<Pool *> current;
};

std::atomic<Pool *> Pool::current{nullptr};

} // namespace

void parallelForChunks(int64_t count, const ChunkBody &body) {
  if (count <= 0)
    return;
  Pool &pool = Pool::get();
  // Nested, nothing to share, or the pool busy with another thread's loop: this thread does it
  // all, as chunk 0.
  if (inRegion || pool.active.load() <= 1 || count == 1 || !pool.tryRun(count, body))
    body(0, count, 0);
}

void parallelFor(int64_t count, const std::function<void(int64_t, int64_t)> &body) {
  parallelForChunks(count, [&](int64_t begin, int64_t end, int) { body(begin, end); });
}

void ParallelFailure::recordPendingException() {
  PendingException pending = takePendingException();
  std::lock_guard<std::mutex> lock(mutex);
  if (!failed) {
    failed = true;
    exceptionId = pending.exceptionId;
    message = pending.message ? pending.message : "";
  }
}

bool ParallelFailure::raiseIfFailed() {
  if (failed)
    raiseWithMessage(exceptionId, message);
  return failed;
}

int maximumThreadCount() { return Pool::get().maximum; }

int threadCount() { return Pool::get().active.load(); }

bool setThreadCount(int count) {
  Pool &pool = Pool::get();
  if (count < 1 || count > pool.maximum)
    return false;
  pool.active.store(count);
  return true;
}

int currentThreadId() { return threadId; }

bool insideParallelRegion() { return inRegion; }

} // namespace taipan::runtime
