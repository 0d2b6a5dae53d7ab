// The first stage of every compile job: typing the root function and the jitted functions it
// calls (a CompileSession), checking the root against the job, and the job hash.
#pragma once

#include "compiler/Compiler.h"
#include "target/Target.h"
#include "typing/TypeInference.h"

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace taipan {

/// Owns the TypedFunctions of one compilation and types calls between them.
class CompileSession : public CalleeTyper {
public:
  TypedFunction *typeCallee(FunctionSource *callee, const std::vector<const Type *> &argumentTypes,
                            SourceLocation location,
                            const ConstantParameters &constants = {}) override;

  /// Types the root and everything it calls, until no function's types change.
  TypedFunction &typeRoot(FunctionSource *root, const std::vector<const Type *> &argumentTypes);

  /// Types a copy of `root` for other argument types (Target::entryVariants) and what it calls
  /// (the root itself for its own types). When the copy does not type, returns null and leaves
  /// the session as it was, so the root still compiles and the entry falls back on it.
  TypedFunction *typeVariant(FunctionSource *root, const std::vector<const Type *> &argumentTypes);

  /// Names every function after its digest (the root's first: recursion is cut where the
  /// traversal from the root meets a function again), and returns the root's digest.
  std::string nameFunctions(TypedFunction &root);

  std::deque<TypedFunction> functions;

private:
  bool runAttributed(TypedFunction &function, bool reportUnknown);
  /// Forgets the functions typed since there were `typed` (a specialisation that failed).
  void forgetFrom(size_t typed);

  /// The typed functions by callee, argument types and constant parameters (their values as
  /// text: "index=v,v;").
  std::map<std::tuple<FunctionSource *, std::vector<const Type *>, std::string>, TypedFunction *>
      instances;
  int depth = 0;
};

/// Source lines annotated with the types of the variables assigned on them (inspect_types).
std::string annotateTypes(const TypedFunction &function);

/// The local variables (by source name) whose type may hold an array or a view of one: arrays,
/// records (a view of an array's element), and containers, optionals and objects that may
/// hold such values; anything but numbers, strings, None and tuples of those. The in-place
/// gufunc check (taipan/gufunc_writes.py) proves parameters read-only against these.
std::vector<std::string> arrayHoldingVariables(const TypedFunction &function);

/// Types the job's functions and names them after their digests; returns the job hash. With
/// `variants`, also types the root's copies for the target's entryVariants into it (lowering
/// needs them; the hash does not: they follow from the root and the target's identity).
std::string typeJob(const CompileJob &job, const Target &target, CompileSession &session,
                    TypedFunction *&rootOut, std::vector<TypedFunction *> *variants = nullptr);

} // namespace taipan
