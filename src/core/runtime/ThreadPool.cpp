// A fixed pool of worker threads that wait on a condition variable for the next parallelFor;
// the caller runs the first chunk itself and waits for the rest.
#include "runtime/ThreadPool.h"

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
  const char *text = std::getenv("TAIPAN_NUM_THREADS");
  if (!text)
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
  static Pool &get() {
    static Pool *pool = new Pool(); // never destroyed: workers may outlive static destructors
    return *pool;
  }

  const int maximum = readMaximumThreads();
  std::atomic<int> active{maximum};

  void run(int64_t count, const std::function<void(int64_t, int64_t)> &body) {
    std::lock_guard<std::mutex> serial(callers);
    int threads = static_cast<int>(std::min<int64_t>(active.load(), count));
    startWorkers(threads - 1);
    {
      std::lock_guard<std::mutex> lock(mutex);
      job = &body;
      jobCount = count;
      jobThreads = threads;
      remaining = threads - 1;
      ++generation;
    }
    wake.notify_all();
    runChunk(0, body, count, threads);
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return remaining == 0; });
    job = nullptr;
  }

private:
  static void runChunk(int index, const std::function<void(int64_t, int64_t)> &body, int64_t count,
                       int threads) {
    int64_t begin = count * index / threads, end = count * (index + 1) / threads;
    bool outer = inRegion;
    int outerId = threadId;
    inRegion = true;
    threadId = index;
    if (begin < end)
      body(begin, end);
    inRegion = outer;
    threadId = outerId;
  }

  void startWorkers(int wanted) {
    while (static_cast<int>(workers.size()) < wanted) {
      int index = static_cast<int>(workers.size()) + 1;
      workers.emplace_back([this, index] { work(index); });
      workers.back().detach();
    }
  }

  void work(int index) {
    uint64_t seen = 0;
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return generation != seen; });
      seen = generation;
      if (index >= jobThreads)
        continue; // this job uses fewer threads
      const std::function<void(int64_t, int64_t)> *body = job;
      int64_t count = jobCount;
      int threads = jobThreads;
      lock.unlock();
      runChunk(index, *body, count, threads);
      lock.lock();
      if (--remaining == 0)
        done.notify_one();
    }
  }

  std::mutex callers;
  std::mutex mutex;
  std::condition_variable wake, done;
  std::vector<std::thread> workers;
  const std::function<void(int64_t, int64_t)> *job = nullptr;
  int64_t jobCount = 0;
  int jobThreads = 0;
  int remaining = 0;
  uint64_t generation = 0;
};

} // namespace

void parallelFor(int64_t count, const std::function<void(int64_t, int64_t)> &body) {
  if (count <= 0)
    return;
  Pool &pool = Pool::get();
  if (inRegion || pool.active.load() <= 1 || count == 1) {
    body(0, count); // nested, or nothing to share: this thread does it all
    return;
  }
  pool.run(count, body);
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
