// The defaults of GlobalResolver's overload hooks, for resolvers (C++ tests, for instance) that
// have no Python side: no function of theirs is overloaded.
#include "typing/GlobalResolver.h"

#include "typing/CallLiterals.h"

namespace taipan {

// One per thread: typing runs on the compiling thread, and compile_all types jobs in parallel.
static thread_local std::vector<std::optional<int64_t>> callLiterals;

const std::vector<std::optional<int64_t>> &currentCallLiterals() { return callLiterals; }

CallLiteralsScope::CallLiteralsScope(std::vector<std::optional<int64_t>> literals)
    : previous(std::move(callLiterals)) {
  callLiterals = std::move(literals);
}

CallLiteralsScope::~CallLiteralsScope() { callLiterals = std::move(previous); }

std::shared_ptr<FunctionSource> GlobalResolver::implementOverload(int,
                                                                  const std::vector<const Type *> &,
                                                                  const std::vector<std::string> &,
                                                                  const std::vector<const Type *> &,
                                                                  bool, SourceLocation location) {
  throwTypingError("overloaded functions need a resolver that implements them", location);
}

OverloadMember GlobalResolver::findMember(const Type *, const std::string &) { return {}; }

IntrinsicBody GlobalResolver::implementIntrinsic(int, const std::vector<const Type *> &,
                                                 const std::vector<std::string> &,
                                                 SourceLocation location) {
  throwTypingError("intrinsics need a resolver that implements them", location);
}

const Type *GlobalResolver::closedFunctionType(FunctionSource &) { return nullptr; }

bool GlobalResolver::hasDispatcher(FunctionSource &) { return false; }

std::string GlobalResolver::calleeTypeName(FunctionSource &) { return ""; }

std::vector<const Type *> GlobalResolver::explicitSignature(FunctionSource &,
                                                            const std::vector<const Type *> &,
                                                            SourceLocation) {
  return {};
}

const Type *GlobalResolver::firstClassEntry(FunctionSource &function, const Type *,
                                            SourceLocation location) {
  throwTypingError("the jitted function " + function.name +
                       " cannot be a first-class function value without a Python resolver",
                   location);
}

} // namespace taipan
