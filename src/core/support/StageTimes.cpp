// StageTimes: accumulation and the printed report.
#include "support/StageTimes.h"

#include <cstdio>

namespace taipan {

void StageTimes::add(const std::string &stage, double seconds) {
  for (auto &entry : entries)
    if (entry.first == stage) {
      entry.second += seconds;
      return;
    }
  entries.emplace_back(stage, seconds);
}

double StageTimes::total() const {
  double sum = 0;
  for (const auto &entry : entries)
    sum += entry.second;
  return sum;
}

std::string StageTimes::report() const {
  std::string text;
  char line[160];
  for (const auto &entry : entries) {
    std::snprintf(line, sizeof line, "  %-36s %9.3f ms\n", entry.first.c_str(), entry.second * 1e3);
    text += line;
  }
  std::snprintf(line, sizeof line, "  %-36s %9.3f ms\n", "total", total() * 1e3);
  return text + line;
}

} // namespace taipan
