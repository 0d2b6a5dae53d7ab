// NumPy's datetime64/timedelta64 unit rules.
#include "types/DatetimeUnits.h"

namespace taipan {

namespace {
const char *const unitNames[] = {"Y",  "M",  "W",  "B",  "D",  "h",  "m", "s",
                                 "ms", "us", "ns", "ps", "fs", "as", ""};

/// From a unit to the next finer one it converts to exactly, and the factor (NumPy's table).
struct Step {
  int next;
  int64_t factor;
};
std::optional<Step> finerStep(int unit) {
  switch (unit) {
  case UnitYears:
    return Step{UnitMonths, 12};
  case UnitWeeks:
    return Step{UnitDays, 7};
  case UnitDays:
    return Step{5, 24};
  case 5:
    return Step{6, 60};
  case 6:
    return Step{7, 60};
  default:
    if (unit >= 7 && unit < UnitAttoseconds)
      return Step{unit + 1, 1000};
    return std::nullopt;
  }
}
} // namespace

const char *datetimeUnitName(int unit) {
  return unit >= 0 && unit <= UnitGeneric ? unitNames[unit] : "?";
}

int datetimeUnitCode(const std::string &name) {
  if (name == "generic")
    return UnitGeneric;
  for (int unit = 0; unit <= UnitGeneric; ++unit)
    if (unit != 3 && name == unitNames[unit])
      return unit;
  return -1;
}

int finerDatetimeUnit(int a, int b) {
  if (a == UnitGeneric)
    return b;
  if (b == UnitGeneric)
    return a;
  return a > b ? a : b;
}

std::optional<int64_t> datetimeConversionFactor(int from, int to) {
  if (from == UnitGeneric || from == to)
    return 1;
  if (to == UnitGeneric || from > to)
    return std::nullopt;
  int64_t factor = 1;
  int unit = from;
  while (unit < to) {
    std::optional<Step> step = finerStep(unit);
    if (!step)
      return std::nullopt;
    unit = step->next;
    factor *= step->factor;
  }
  if (unit != to)
    return std::nullopt;
  return factor;
}

std::optional<int> commonDatetimeUnit(int a, int b) {
  int unit = finerDatetimeUnit(a, b);
  if (!datetimeConversionFactor(a, unit) || !datetimeConversionFactor(b, unit))
    return std::nullopt;
  return unit;
}

} // namespace taipan
