// Resolves the free names of a Python function (globals, closure cells, builtins) and module
// attributes to GlobalValues, freezing their values at compile time.
#pragma once

#include <nanobind/nanobind.h>

#include "typing/GlobalResolver.h"

namespace taipan::bindings {

/// Resolves names against one Python function's globals, closure and builtins.
class PythonGlobalResolver : public GlobalResolver {
public:
  explicit PythonGlobalResolver(nanobind::handle function);
  ~PythonGlobalResolver() override;
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
  /// The function's own dispatcher for its own name while its decorator still compiles its
  /// explicit signatures (the name is bound only when the decorator returns), else unknown.
  GlobalValue dispatcherBeingDefined(const std::string &name);

  nanobind::object function;
};

/// What a Python object means to compiled code.
GlobalValue classifyPythonObject(nanobind::handle object);

/// The name under which a function's resolver gives the value of its parameter's default
/// (Parameter::defaultName): no identifier can spell it.
std::string defaultValueName(const std::string &parameter);

/// Reads a Python constant (int, float, complex, bool, None, str) into a Constant.
bool readConstant(nanobind::handle object, Constant &constant);

/// The Python base class of taipan dispatchers, set once the module is initialised.
extern PyTypeObject *dispatcherBaseType;

} // namespace taipan::bindings
