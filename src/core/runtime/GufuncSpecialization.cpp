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

bool SpecializingGufuncLoop::mayCompile(const int64_t *dimensions) const {
  if (!compile || published.load(std::memory_order_relaxed) >= MaximumCopies)
    return false;
  for (int d = 0; d < generic.coreDimensions; ++d)
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

void SpecializingGufuncLoop::run(char **args, const int64_t *dimensions, const int64_t *steps) {
  int core = generic.coreDimensions;
  if (core < 1 || core > MaximumCoreDimensions) {
    runWith(generic.serial, args, dimensions, steps);
    return;
  }
  Sizes sizes{};
  std::copy(dimensions + 1, dimensions + 1 + core, sizes.begin());
  if (UfuncLoop known = loopFor(sizes)) {
    runWith(known, args, dimensions, steps);
    return;
  }
  std::unique_lock<std::mutex> guard(lock, std::try_to_lock);
  if (!guard.owns_lock() || !mayCompile(dimensions)) {
    if (guard.owns_lock())
      guard.unlock();
    runWith(generic.serial, args, dimensions, steps);
    return;
  }
  // Another thread may have published these sizes since loopFor looked (copies are published
  // under the lock).
  if (UfuncLoop known = loopFor(sizes)) {
    guard.unlock();
    runWith(known, args, dimensions, steps);
    return;
  }
  auto candidate = std::find_if(candidates.begin(), candidates.end(),
                                [&](const Candidate &known) { return known.sizes == sizes; });
  if (candidate != candidates.end() && candidate->nanoseconds >= compileAfterNanoseconds) {
    UfuncLoop compiled = compile(std::vector<int64_t>(sizes.begin(), sizes.begin() + core));
    int slot = published.load(std::memory_order_relaxed);
    copies[slot] = Copy{sizes, compiled};
    published.store(slot + 1, std::memory_order_release);
    candidates.erase(candidate);
    guard.unlock();
    runWith(compiled ? compiled : generic.serial, args, dimensions, steps);
    return;
  }
  bool tracked = candidate != candidates.end() || candidates.size() < MaximumCandidates;
  if (candidate == candidates.end() && tracked)
    candidates.push_back(Candidate{sizes, 0});
  guard.unlock();
  auto start = std::chrono::steady_clock::now();
  runWith(generic.serial, args, dimensions, steps);
  if (!tracked)
    return;
  int64_t spent =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count();
  // A measurement lost to a busy lock only delays the copy.
  if (!guard.try_lock())
    return;
  for (Candidate &known : candidates)
    if (known.sizes == sizes)
      known.nanoseconds += spent;
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
