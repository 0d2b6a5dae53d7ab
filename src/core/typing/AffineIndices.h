// Array indices as affine functions of a prange loop's variable (`2*i + 1`, `i + n`), and
// whether two of them, taken in two iterations of the loop, can name the same element.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace taipan {

using WideInteger = __int128; ///< room for sums and products of two int64 coefficients

/// An index in one dimension of an array.
struct IndexForm {
  enum class Kind {
    Affine,  ///< loop·i + Σ c·n (invariants) + Σ c·j (sweeps) + offset
    Whole,   ///< every index of the dimension: a full slice, or a dimension left out
    Unknown, ///< anything else
  };
  Kind kind = Kind::Unknown;
  int64_t loop = 0; ///< the coefficient of the prange variable
  int64_t offset = 0;
  /// Names the loop body never assigns (one value in every iteration), with coefficients.
  std::map<std::string, int64_t> invariants;
  /// Variables of inner range loops with invariant bounds: each iteration sweeps the same values.
  std::map<std::string, int64_t> sweeps;

  bool operator==(const IndexForm &) const = default;

  bool isConstant() const {
    return kind == Kind::Affine && loop == 0 && invariants.empty() && sweeps.empty();
  }
  static IndexForm constant(int64_t value) {
    IndexForm form;
    form.kind = Kind::Affine;
    form.offset = value;
    return form;
  }
  static IndexForm whole() {
    IndexForm form;
    form.kind = Kind::Whole;
    return form;
  }
};

/// a + scale·b; unknown when either is, or a coefficient overflows.
IndexForm combine(const IndexForm &a, const IndexForm &b, int64_t scale);

/// The values of a prange loop's variable, as far as its range's arguments are constants.
struct LoopRange {
  std::optional<int64_t> start, lowest, highest, step;

  bool contains(WideInteger value) const;
  /// Whether the index may be negative in some iteration (it then counts from the end).
  bool mayBeNegative(const IndexForm &form) const;
};

/// How two indices in one dimension can be equal, a taken in iteration i1, b in i2.
struct IndexRelation {
  enum class Kind {
    Never,         ///< in no two iterations
    SameIteration, ///< only when i1 == i2
    Distance,      ///< only when i1 - i2 == distance
    Always,        ///< in some pair of different iterations, or in every pair
    Undecided,     ///< the analysis cannot tell
  } kind;
  WideInteger distance = 0;
  const char *why = nullptr; ///< Undecided: the reason, for a note
};

IndexRelation relateIndices(const IndexForm &a, const IndexForm &b, const LoopRange &range);

} // namespace taipan
