// Functions defined inside a compiled function (`def inner(y): ...`, `f = lambda y: ...`):
// the resolver that names them and the scope analysis that finds what they capture.
#pragma once

#include <nanobind/nanobind.h>

#include "typing/GlobalResolver.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace taipan::bindings {

/// Resolves the synthetic names under which a function's inner definitions are bound (one per
/// `def` or `lambda`, never spelt by the user) to those functions, and every other name as the
/// enclosing Python function's resolver does. The outer function and all its inner functions
/// share one, so an inner function sees the same globals and closure cells as its parent.
class LocalFunctionResolver : public GlobalResolver {
public:
  explicit LocalFunctionResolver(std::shared_ptr<GlobalResolver> parent)
      : parent(std::move(parent)) {}
  /// Binds `function` to a fresh synthetic name, which it returns.
  std::string add(std::shared_ptr<FunctionSource> function);

  GlobalValue resolveName(const std::string &name) override;
  GlobalValue resolveAttribute(const GlobalValue &module, const std::string &attribute) override;
  std::shared_ptr<FunctionSource> implementOverload(int registryId,
                                                    const std::vector<const Type *> &positional,
                                                    const std::vector<std::string> &keywords,
                                                    const std::vector<const Type *> &keywordTypes,
                                                    bool mayDecline,
                                                    SourceLocation location) override;
  OverloadMember findMember(const Type *self, const std::string &name) override;
  IntrinsicBody implementIntrinsic(int registryId, const std::vector<const Type *> &arguments,
                                   const std::vector<std::string> &keywords,
                                   SourceLocation location) override;
  const Type *closedFunctionType(FunctionSource &function) override;
  const Type *firstClassEntry(FunctionSource &function, const Type *functionType,
                              SourceLocation location) override;
  bool hasDispatcher(FunctionSource &function) override;
  std::vector<const Type *> explicitSignature(FunctionSource &function,
                                              const std::vector<const Type *> &arguments,
                                              SourceLocation location) override;
  std::string calleeTypeName(FunctionSource &function) override;

private:
  std::shared_ptr<GlobalResolver> parent;
  std::map<std::string, std::shared_ptr<FunctionSource>> functions;
};

/// The names local to a function or lambda node: its parameters and every name it binds
/// (assignment and loop targets, inner definitions), not looking into inner scopes.
std::set<std::string> localNamesOf(nanobind::handle functionNode);

/// How often each name is bound in the function node's own scope (parameters count once).
std::map<std::string, int> bindingCountsOf(nanobind::handle functionNode);

/// The variables of the enclosing scope (`outerLocals`) that an inner function or lambda
/// node reads, itself or through its own inner functions, in order of first appearance.
/// Python reads them from cells when the inner function runs; taipan passes their current
/// values as leading arguments at each call, which is the same while the inner function does
/// not assign them (Numba's read-only closure variables).
std::vector<std::string> capturedNamesOf(nanobind::handle innerNode,
                                         const std::set<std::string> &outerLocals);

} // namespace taipan::bindings
