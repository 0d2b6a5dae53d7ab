// A fixed pool of worker threads that wait on a condition variable for the next parallelFor;
// each thread runs its own chunks, then takes those others have not started.
#include "runtime/ThreadPool.h"

#include "runtime/Runtime.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
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
    int perThread = static_cast<int>(std::min<int64_t>(count / threads, ChunksPerThread));
    // Every worker has seen the previous job (even those it did not use) before the job's
    // fields change under them.
    waitUntilZero(unacknowledged);
    startWorkers(threads - 1);
    job = &body;
    jobCount = count;
    jobThreads = threads;
    jobChunksPerThread = perThread;
    for (int t = 0; t < threads; ++t)
      cursors[t].next.store(0, std::memory_order_relaxed);
    remaining.store(threads - 1);
    unacknowledged.store(static_cast<int>(workers.size()));
    generation.fetch_add(1); // publishes the fields above
    if (sleepers.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex);
      wake.notify_all();
    }
    runShare(0);
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

  /// Runs chunk `chunk` of the job: its share of [0, jobCount), fixed by the chunk count alone.
  void runChunk(int chunk) {
    int chunks = jobThreads * jobChunksPerThread;
    int64_t begin = static_cast<int64_t>(static_cast<__int128>(jobCount) * chunk / chunks);
    int64_t end = static_cast<int64_t>(static_cast<__int128>(jobCount) * (chunk + 1) / chunks);
    if (begin < end)
      (*job)(begin, end, chunk);
  }

  /// Thread `self`'s part of the job: its own chunks in order, then whatever chunks the other
  /// threads have not yet started, taken from the front of their shares.
  void runShare(int self) {
    bool outer = inRegion;
    int outerId = threadId;
    inRegion = true;
    threadId = self;
    for (int k = 0; k < jobThreads; ++k) {
      int owner = (self + k) % jobThreads;
      std::atomic<int> &next = cursors[owner].next;
      while (next.load(std::memory_order_relaxed) < jobChunksPerThread) {
        int local = next.fetch_add(1);
        if (local >= jobChunksPerThread)
          break;
        runChunk(owner * jobChunksPerThread + local);
      }
    }
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
        runShare(index);
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
  int jobChunksPerThread = 0;
  /// Per thread of the job, the next of its own chunks not yet started (by it or a thief).
  struct alignas(64) Cursor {
    std::atomic<int> next{0};
  };
  std::unique_ptr<Cursor[]> cursors{new Cursor[maximum]};
  // Each on a cache line of its own: workers poll `generation` while others count down.
  alignas(64) std::atomic<uint64_t> generation{0};
  alignas(64) std::atomic<int> remaining{0};      ///< workers still running their part of the job
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

int maximumChunkCount() { return Pool::get().maximum * ChunksPerThread; }

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
