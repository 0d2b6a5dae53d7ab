// StageTimes: where one compilation spent its time, stage by stage (front end, type inference,
// lowering, each group of LLVM passes, code generation), for users and for compile-time work.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace taipan {

/// Seconds spent in each named stage of one compilation, in the order the stages first ran;
/// a stage entered twice accumulates.
class StageTimes {
public:
  using Clock = std::chrono::steady_clock;

  /// Adds `seconds` to `stage`.
  void add(const std::string &stage, double seconds);

  const std::vector<std::pair<std::string, double>> &stages() const { return entries; }

  /// The sum over all stages.
  double total() const;

  /// One line per stage, in milliseconds, for TAIPAN_TIMING.
  std::string report() const;

  /// Times its own lifetime into a stage of `times` (nothing when `times` is null).
  class Scope {
  public:
    Scope(StageTimes *times, std::string stage)
        : times(times), stage(std::move(stage)), start(Clock::now()) {}
    ~Scope() {
      if (times)
        times->add(stage, std::chrono::duration<double>(Clock::now() - start).count());
    }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    StageTimes *times;
    std::string stage;
    Clock::time_point start;
  };

private:
  std::vector<std::pair<std::string, double>> entries;
};

} // namespace taipan
