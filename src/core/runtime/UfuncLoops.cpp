// Failure reports of compiled ufunc loops and the parallel driver over the thread pool.
#include "runtime/UfuncLoops.h"

#include "runtime/Runtime.h"
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <mutex>
#include <string>
#include <vector>

namespace taipan::runtime {
namespace {

std::atomic<UfuncFailureSink> failureSink{nullptr};

/// The failure record of the parallel loop this thread runs a chunk of.
thread_local ParallelFailure *currentFailure = nullptr;

} // namespace

void setUfuncFailureSink(UfuncFailureSink sink) { failureSink.store(sink); }

/// Whether the elements of a loop are independent: NumPy's reduce and accumulate call loops
/// whose output is an input too (the running value, at step 0 or one element behind), and
/// those must run in order. An input that is exactly the output (in-place `a = f(a)`) is fine.
static bool elementsAreIndependent(char **args, const int64_t *dimensions, const int64_t *steps,
                                   int inputs, int operands) {
  int64_t last = dimensions[0] - 1;
  auto span = [&](int k) {
    char *first = args[k], *end = args[k] + last * steps[k];
    return std::make_pair(std::min(first, end), std::max(first, end));
  };
  for (int out = inputs; out < operands; ++out) {
    if (steps[out] == 0)
      return false;
    auto [outLow, outHigh] = span(out);
    for (int in = 0; in < operands; ++in) {
      if (in == out || (args[in] == args[out] && steps[in] == steps[out]))
        continue;
      auto [low, high] = span(in);
      if (low <= outHigh && outLow <= high)
        return false;
    }
  }
  return true;
}

/// Whether a gufunc's elements may write one place: an operand the loop may write (an output,
/// or an input of `writtenInputs`) that NumPy broadcast along the outer dimension (step 0),
/// whose core at one element reaches its core at the next (a window view), or whose bytes over
/// the call meet another operand's. An operand that is exactly another (the same base, step and
/// core) meets it only at the same element. Core extents are measured to each core's last
/// item's first byte.
static bool writesMayMeet(char **args, const int64_t *dimensions, const int64_t *steps,
                          const ParallelUfuncLoop &loop) {
  if (dimensions[0] < 2)
    return false;
  int operands = loop.operandCount;
  // Each operand's core, as byte offsets of its lowest and highest items from its base.
  std::vector<std::pair<int64_t, int64_t>> cores(operands, {0, 0});
  if (loop.operandCores) {
    int coreStride = operands; // NumPy lists the core strides operand by operand
    for (int k = 0; k < operands; ++k)
      for (int dimension : (*loop.operandCores)[k]) {
        int64_t reach = (dimensions[1 + dimension] - 1) * steps[coreStride++];
        (reach < 0 ? cores[k].first : cores[k].second) += reach;
      }
  }
  int64_t last = dimensions[0] - 1;
  auto span = [&](int k) {
    char *first = args[k], *end = args[k] + last * steps[k];
    return std::make_pair(std::min(first, end) + cores[k].first,
                          std::max(first, end) + cores[k].second);
  };
  for (int written = 0; written < operands; ++written) {
    bool writes = written >= loop.inputs || (loop.writtenInputs >> std::min(written, 63)) & 1;
    if (!writes)
      continue;
    int64_t step = steps[written] < 0 ? -steps[written] : steps[written];
    if (step == 0 || (loop.operandCores && step <= cores[written].second - cores[written].first))
      return true;
    auto [low, high] = span(written);
    for (int other = 0; other < operands; ++other) {
      if (other == written || (args[other] == args[written] && steps[other] == steps[written] &&
                               cores[other] == cores[written]))
        continue;
      auto [otherLow, otherHigh] = span(other);
      if (otherLow <= high && low <= otherHigh)
        return true;
    }
  }
  return false;
}

/// The exceptions of ufuncs' floating-point status.
constexpr int UfuncExceptions = FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID;

int raisedUfuncExceptions() { return std::fetestexcept(UfuncExceptions); }

void clearUfuncExceptions() {
  if (raisedUfuncExceptions())
    std::feclearexcept(UfuncExceptions);
}

void parallelUfuncLoop(char **args, const int64_t *dimensions, const int64_t *steps, void *data) {
  const auto &loop = *static_cast<const ParallelUfuncLoop *>(data);
  // A loop writing inputs in place (a gufunc without outputs, writable_args) is checked for
  // elements that write one place, scalar cores ('(),()') included; a ufunc's loop for the
  // running values of NumPy's reduce and accumulate.
  bool serial =
      loop.writtenInputs != 0
          ? writesMayMeet(args, dimensions, steps, loop)
          : loop.coreDimensions == 0 &&
                !elementsAreIndependent(args, dimensions, steps, loop.inputs, loop.operandCount);
  if (serial) {
    loop.serial(args, dimensions, steps, nullptr);
    return;
  }
  ParallelFailure failure;
  // NumPy reports the floating-point exceptions the calling thread's status holds after the
  // loop: each chunk's are collected (from a clean status) and raised there, as if one thread
  // had run every element.
  std::atomic<int> raised{0};
  parallelFor(dimensions[0], [&](int64_t begin, int64_t end) {
    clearUfuncExceptions();
    std::vector<char *> pointers(loop.operandCount);
    for (int i = 0; i < loop.operandCount; ++i)
      pointers[i] = args[i] + begin * steps[i];
    std::vector<int64_t> sizes(dimensions, dimensions + 1 + loop.coreDimensions);
    sizes[0] = end - begin;
    ParallelFailure *outer = currentFailure;
    currentFailure = &failure;
    loop.serial(pointers.data(), sizes.data(), steps, nullptr);
    currentFailure = outer;
    raised.fetch_or(raisedUfuncExceptions());
  });
  if (int flags = raised.load())
    std::feraiseexcept(flags);
  if (failure.raiseIfFailed())
    taipan_ufunc_loop_failed();
}

} // namespace taipan::runtime

using namespace taipan::runtime;

extern "C" void taipan_ufunc_loop_failed(void) {
  if (ParallelFailure *failure = currentFailure) {
    failure->recordPendingException();
    return;
  }
  if (UfuncFailureSink sink = failureSink.load())
    sink();
}
