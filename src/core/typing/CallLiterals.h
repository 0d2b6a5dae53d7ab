// The integer constants written as arguments of the call whose overload or intrinsic is being
// chosen, which typing functions see as Numba's literals (IntegerLiteral, prefer_literal).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace taipan {

/// For each positional argument of the call being resolved, the integer written there (a
/// constant in the call), else nullopt; empty outside such a call. Read by the resolver's
/// implementOverload and implementIntrinsic (bindings/GlobalResolution).
const std::vector<std::optional<int64_t>> &currentCallLiterals();

/// Makes `literals` the current call's while it lives (typing of calls nests: the previous
/// ones come back after it).
class CallLiteralsScope {
public:
  explicit CallLiteralsScope(std::vector<std::optional<int64_t>> literals);
  ~CallLiteralsScope();
  CallLiteralsScope(const CallLiteralsScope &) = delete;
  CallLiteralsScope &operator=(const CallLiteralsScope &) = delete;

private:
  std::vector<std::optional<int64_t>> previous;
};

} // namespace taipan
