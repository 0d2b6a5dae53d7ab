// Gufunc loops that switch to copies compiled for the core sizes they meet.
#include "runtime/GufuncSpecialization.h"

#include <algorithm>
#include <chrono>

namespace taipan::runtime {

/// How many core-size tuples a loop keeps timing before it has compiled any: calls with many
/// different small cores are not worth a copy each.
constexpr size_t MaximumCandidates = 16;

SpecializingGufuncLoop::SpecializingGufuncLoop(ParallelUfuncLoop generic, bool parallel,
                                               int64_t compileAfterNanoseconds, Compile compile)
    : generic(generic), parallel(parallel), compileAfterNanoseconds(compileAfterNanoseconds),
      compile(std::move(compile)) {}

UfuncLoop SpecializingGufuncLoop::loopFor(const Sizes &sizes) const {
  int count = published.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i)
    if (copies[i].sizes == sizes)
      return copies[i].loop ? copies[i].loop : generic.serial;
  return nullptr;
}

bool SpecializingGufuncLoop::hasSmallCore(const int64_t *dimensions) const {
  int core = generic.coreDimensions;
  if (!compile || core < 1 || core > MaximumCoreDimensions)
    return false;
  for (int d = 0; d < core; ++d)
    if (dimensions[1 + d] < 1 || dimensions[1 + d] > MaximumSize)
      return false;
  return true;
}

void SpecializingGufuncLoop::runWith(UfuncLoop loop, char **args, const int64_t *dimensions,
                                     const int64_t *steps) {
  if (!parallel) {
    loop(args, dimensions, steps, nullptr);
    return;
  }
  ParallelUfuncLoop chosen = generic;
  chosen.serial = loop;
  parallelUfuncLoop(args, dimensions, steps, &chosen);
}

UfuncLoop SpecializingGufuncLoop::choose(const Sizes &sizes, bool &timed) {
  if (UfuncLoop known = loopFor(sizes))
    return known;
  std::unique_lock<std::mutex> guard(lock, std::try_to_lock);
  if (!guard.owns_lock())
    return generic.serial;
  // Another thread may have published these sizes, or the last copy, since loopFor looked
  // (copies are published under the lock).
  if (UfuncLoop known = loopFor(sizes))
    return known;
  int slot = published.load(std::memory_order_relaxed);
  if (slot >= MaximumCopies)
    return generic.serial;
  auto candidate = std::find_if(candidates.begin(), candidates.end(),
                                [&](const Candidate &known) { return known.sizes == sizes; });
  if (candidate == candidates.end() || candidate->nanoseconds < compileAfterNanoseconds) {
    timed = candidate != candidates.end() || candidates.size() < MaximumCandidates;
    if (candidate == candidates.end() && timed)
      candidates.push_back(Candidate{sizes, 0});
    return generic.serial;
  }
  int core = generic.coreDimensions;
  UfuncLoop compiled = compile(std::vector<int64_t>(sizes.begin(), sizes.begin() + core));
  copies[slot] = Copy{sizes, compiled};
  published.store(slot + 1, std::memory_order_release);
  candidates.erase(candidate);
  return compiled ? compiled : generic.serial;
}

void SpecializingGufuncLoop::record(const Sizes &sizes, int64_t nanoseconds) {
  // A measurement lost to a busy lock only delays the copy.
  std::unique_lock<std::mutex> guard(lock, std::try_to_lock);
  if (!guard.owns_lock())
    return;
  for (Candidate &known : candidates)
    if (known.sizes == sizes)
      known.nanoseconds += nanoseconds;
}

void SpecializingGufuncLoop::run(char **args, const int64_t *dimensions, const int64_t *steps) {
  Sizes sizes{};
  bool timed = false;
  UfuncLoop loop = generic.serial;
  if (hasSmallCore(dimensions)) {
    std::copy(dimensions + 1, dimensions + 1 + generic.coreDimensions, sizes.begin());
    loop = choose(sizes, timed);
  }
  // The clock is read only for runs that count towards a copy.
  auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  runWith(loop, args, dimensions, steps);
  if (timed)
    record(sizes, std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count());
}

std::vector<std::vector<int64_t>> SpecializingGufuncLoop::compiledSizes() const {
  std::vector<std::vector<int64_t>> sizes;
  int count = published.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i)
    if (copies[i].loop)
      sizes.emplace_back(copies[i].sizes.begin(), copies[i].sizes.begin() + generic.coreDimensions);
  return sizes;
}

void specializingGufuncLoop(char **args, const int64_t *dimensions, const int64_t *steps,
                            void *data) {
  static_cast<SpecializingGufuncLoop *>(data)->run(args, dimensions, steps);
}

} // namespace taipan::runtime
