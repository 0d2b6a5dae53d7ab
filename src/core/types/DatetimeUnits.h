// NumPy's datetime64/timedelta64 units: their codes and names, and the rules that combine two
// units (which unit a mixed operation computes in, and the exact factor that converts to it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace taipan {

/// NumPy's NPY_DATETIMEUNIT codes (code 3, business days, no longer exists).
enum DatetimeUnitCode : int {
  UnitYears = 0,
  UnitMonths = 1,
  UnitWeeks = 2,
  UnitDays = 4,
  UnitNanoseconds = 10,
  UnitAttoseconds = 13,
  UnitGeneric = 14,
};

/// The value NumPy uses for NaT ("not a time") in both kinds.
constexpr int64_t NotATime = INT64_MIN;

/// "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "" (generic).
const char *datetimeUnitName(int unit);
/// The code of a unit name ("generic" and "" are the generic unit); -1 for another name.
int datetimeUnitCode(const std::string &name);

/// The finer of two units (the generic unit yields to the other), as NumPy promotes them.
int finerDatetimeUnit(int a, int b);

/// The integer that converts a count of `from` units into `to` units, when the conversion is an
/// exact multiplication (generic converts to anything with 1); none otherwise: `to` coarser than
/// `from`, or years/months against week- and day-based units, which NumPy's calendar relates
/// only through dates.
std::optional<int64_t> datetimeConversionFactor(int from, int to);

/// The unit a binary operation on values of units `a` and `b` computes in: the finer unit when
/// both convert to it exactly (NumPy's promotion), none when NumPy refuses the combination.
std::optional<int> commonDatetimeUnit(int a, int b);

} // namespace taipan
