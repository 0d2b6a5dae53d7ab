// Comparing affine array indices across two iterations of a prange loop: equal coefficients
// give a fixed distance between the iterations, unequal ones the gcd test, and an index that
// may be negative (counting from the end) leaves "never equal" undecided.
#include "typing/AffineIndices.h"

#include <numeric>

namespace taipan {
namespace {

bool addScaled(int64_t &into, int64_t value, int64_t scale) {
  int64_t product;
  return !__builtin_mul_overflow(value, scale, &product) &&
         !__builtin_add_overflow(into, product, &into);
}

bool addTerms(std::map<std::string, int64_t> &into, const std::map<std::string, int64_t> &terms,
              int64_t scale) {
  for (const auto &[name, coefficient] : terms) {
    if (!addScaled(into[name], coefficient, scale))
      return false;
    if (into[name] == 0)
      into.erase(name);
  }
  return true;
}

WideInteger magnitude(int64_t value) { return value < 0 ? -WideInteger(value) : value; }

} // namespace

IndexForm combine(const IndexForm &a, const IndexForm &b, int64_t scale) {
  if (a.kind != IndexForm::Kind::Affine || b.kind != IndexForm::Kind::Affine)
    return {};
  IndexForm result = a;
  if (!addScaled(result.loop, b.loop, scale) || !addScaled(result.offset, b.offset, scale) ||
      !addTerms(result.invariants, b.invariants, scale) ||
      !addTerms(result.sweeps, b.sweeps, scale))
    return {};
  return result;
}

bool LoopRange::contains(WideInteger value) const {
  return (!lowest || value >= *lowest) && (!highest || value <= *highest) &&
         (!step || !start || (value - *start) % *step == 0);
}

bool LoopRange::mayBeNegative(const IndexForm &form) const {
  if (form.kind != IndexForm::Kind::Affine || !form.invariants.empty() || !form.sweeps.empty())
    return true;
  if (form.loop == 0)
    return form.offset < 0;
  std::optional<int64_t> extreme = form.loop > 0 ? lowest : highest;
  return !extreme || WideInteger(form.loop) * *extreme + form.offset < 0;
}

IndexRelation relateIndices(const IndexForm &a, const IndexForm &b, const LoopRange &range) {
  using Kind = IndexRelation::Kind;
  auto undecided = [](const char *why) { return IndexRelation{Kind::Undecided, 0, why}; };
  if (a.kind == IndexForm::Kind::Unknown || b.kind == IndexForm::Kind::Unknown)
    return undecided("an index is not an affine function of the loop variable with "
                     "constant coefficients");
  if (a.kind == IndexForm::Kind::Whole || b.kind == IndexForm::Kind::Whole)
    return {Kind::Always};
  if (!a.sweeps.empty() || !b.sweeps.empty()) {
    if (a == b && a.loop == 0)
      return {Kind::Always}; // every iteration sweeps the same indices
    return undecided("the indices move with inner loops' variables");
  }
  if (a.invariants != b.invariants)
    return undecided("the indices differ by variables the analysis cannot compare");
  // Two different index values are different elements unless one is negative: a[-1] is
  // a[len(a) - 1].
  auto never = [&] {
    return range.mayBeNegative(a) || range.mayBeNegative(b)
               ? undecided("an index may be negative, counting from the end of the array")
               : IndexRelation{Kind::Never};
  };
  WideInteger difference = WideInteger(b.offset) - a.offset; // a.loop·i1 - b.loop·i2
  if (a.loop == b.loop) {
    if (a.loop == 0)
      return difference == 0 ? IndexRelation{Kind::Always} : never();
    if (difference == 0)
      return {Kind::SameIteration};
    if (difference % a.loop != 0)
      return never();
    // Two values of the loop variable differ by a multiple of its step, and by no more than
    // the range's width.
    WideInteger distance = difference / a.loop;
    bool beyondRange =
        range.lowest && range.highest &&
        (distance < 0 ? -distance : distance) > WideInteger(*range.highest) - *range.lowest;
    if ((range.step && distance % *range.step != 0) || beyondRange)
      return never();
    return {Kind::Distance, distance};
  }
  if (a.loop == 0 || b.loop == 0) {
    // One index is the same in every iteration; the other reaches it in one iteration at most.
    const IndexForm &moving = a.loop ? a : b;
    WideInteger gap = a.loop ? difference : -difference;
    if (gap % moving.loop != 0 || !range.contains(gap / moving.loop))
      return never();
    return {Kind::Always};
  }
  WideInteger divisor = std::gcd(magnitude(a.loop), magnitude(b.loop));
  return difference % divisor != 0 ? never() : IndexRelation{Kind::Always};
}

} // namespace taipan
