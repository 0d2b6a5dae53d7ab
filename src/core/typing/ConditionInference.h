// Conditions in type inference: those decided from types alone (None tests, isinstance, hasattr,
// constants), whose dead branches are pruned, and the typing of every other condition.
#pragma once

#include "typing/Isinstance.h"
#include "typing/TypeInference.h"

#include <optional>
#include <string>
#include <vector>

namespace taipan {

class InferencePass;

/// Type inference of conditions, beside the InferencePass core.
class ConditionInference {
public:
  explicit ConditionInference(InferencePass &pass);

  /// The value of a condition when types alone decide it, recorded in staticConditions:
  /// comparisons of None with a value (`x is None`, `x is not None`, `x == None`, `ord == 2`
  /// when ord is None), constants, and `not`/`and`/`or` of those. Otherwise nothing.
  std::optional<bool> decideCondition(Expr *test);
  /// The truth of `expr` when types alone decide it (a constant, None, a decided
  /// comparison...); otherwise nothing.
  std::optional<bool> staticTruth(Expr *expr);
  /// Whether `callee` is the builtin isinstance.
  static bool isIsinstance(const Type *callee);
  /// isinstance(value, classes): decided from the value's type (typing/Isinstance.h) and
  /// recorded as the library call's form and, when known while compiling, as a static
  /// condition, so that the branch it rules out is pruned. Its classes are named, not typed as
  /// values; nullopt while the value's type is unknown.
  std::optional<IsinstanceAnswer> typeIsinstance(Expr *expr);
  /// Types the test of an if, while or assert: a value whose truth can be tested, or a
  /// jitclass instance, tested through its __bool__.
  void typeCondition(Expr *test);

private:
  /// isinstance(...) as a condition: its answer when known while compiling.
  std::optional<bool> decideIsinstance(Expr *expr);
  /// The qualified names of the classes isinstance's second argument names: a global class,
  /// a module's (np.float32), or a tuple of those, nested as isinstance allows.
  std::vector<std::string> isinstanceClasses(Expr *classes);
  /// The value of `expr` when compiling knows it, as Numba's branch pruning finds constants: a
  /// literal (int, bool, float or string), a global or closure variable frozen as one, a local
  /// assigned once from such a value, `a.ndim` of an array and `len(t)` of a tuple (which
  /// their types fix), and the negation of a number among those.
  std::optional<Constant> staticValue(Expr *expr, int depth = 0);
  /// `left op right` for two known values, as Python compares them (==, !=, <, <=, >, >=);
  /// nullopt when either is unknown or Python would raise.
  static std::optional<bool> compareConstants(CompareOp op, const std::optional<Constant> &left,
                                              const std::optional<Constant> &right);
  /// The truth of a literal constant, as Python's bool() gives it.
  static std::optional<bool> constantTruth(const Constant &constant);

  InferencePass &pass;
  TypedFunction &function;
  FunctionSource &source;
  CalleeTyper &callees;
};

} // namespace taipan
