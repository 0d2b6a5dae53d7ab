// Inner functions: their resolver, and the scope analysis over Python's `ast` nodes that
// decides which of the enclosing function's variables each one captures.
#include "LocalFunctions.h"

#include <nanobind/stl/string.h>

#include <cstring>
#include <functional>

namespace nb = nanobind;

namespace taipan::bindings {
namespace {

std::string kindOf(nb::handle node) {
  const char *name = Py_TYPE(node.ptr())->tp_name;
  const char *dot = std::strrchr(name, '.');
  return dot ? dot + 1 : name;
}

bool isScope(const std::string &kind) {
  return kind == "FunctionDef" || kind == "AsyncFunctionDef" || kind == "Lambda" ||
         kind == "ClassDef";
}

/// Calls `visit` on every node below `node` (not `node` itself); an inner scope is visited
/// but not entered when `enterScopes` is false.
void walk(nb::handle node, bool enterScopes, const std::function<void(nb::handle)> &visit) {
  // Kept for the life of the process: a static nb::object would be released after the
  // interpreter is finalized.
  static nb::handle iterChildNodes =
      nb::object(nb::module_::import_("ast").attr("iter_child_nodes")).release();
  for (nb::handle child : iterChildNodes(node)) {
    visit(child);
    if (enterScopes || !isScope(kindOf(child)))
      walk(child, enterScopes, visit);
  }
}

void forEachParameter(nb::handle functionNode, const std::function<void(std::string)> &visit) {
  nb::handle arguments = functionNode.attr("args");
  for (const char *group : {"posonlyargs", "args", "kwonlyargs"})
    for (nb::handle argument : nb::cast<nb::list>(arguments.attr(group)))
      visit(nb::cast<std::string>(argument.attr("arg")));
  for (const char *single : {"vararg", "kwarg"})
    if (!arguments.attr(single).is_none())
      visit(nb::cast<std::string>(arguments.attr(single).attr("arg")));
}

/// Calls `visit` with each name the node's own scope binds, once per binding.
void forEachBinding(nb::handle functionNode, const std::function<void(std::string)> &visit) {
  forEachParameter(functionNode, visit);
  if (kindOf(functionNode) == "Lambda")
    return;
  for (nb::handle statement : nb::cast<nb::list>(functionNode.attr("body"))) {
    std::string kind = kindOf(statement);
    if (isScope(kind)) {
      visit(nb::cast<std::string>(statement.attr("name")));
      continue;
    }
    auto visitNode = [&](nb::handle node) {
      std::string nodeKind = kindOf(node);
      if (nodeKind == "Name" && kindOf(node.attr("ctx")) != "Load")
        visit(nb::cast<std::string>(node.attr("id")));
      else if (isScope(nodeKind) && nodeKind != "Lambda")
        visit(nb::cast<std::string>(node.attr("name")));
    };
    visitNode(statement);
    walk(statement, false, visitNode);
  }
}

} // namespace

std::string LocalFunctionResolver::add(std::shared_ptr<FunctionSource> function) {
  std::string name = "<local function " + std::to_string(functions.size()) + ">";
  functions.emplace(name, std::move(function));
  return name;
}

GlobalValue LocalFunctionResolver::resolveName(const std::string &name) {
  auto found = functions.find(name);
  if (found == functions.end())
    return parent->resolveName(name);
  GlobalValue value;
  value.kind = GlobalValue::Kind::JitFunction;
  value.name = found->second->name;
  value.function = found->second;
  return value;
}

GlobalValue LocalFunctionResolver::resolveAttribute(const GlobalValue &module,
                                                    const std::string &attribute) {
  return parent->resolveAttribute(module, attribute);
}

std::shared_ptr<FunctionSource> LocalFunctionResolver::implementOverload(
    int registryId, const std::vector<const Type *> &positional,
    const std::vector<std::string> &keywords, const std::vector<const Type *> &keywordTypes,
    bool mayDecline, SourceLocation location) {
  return parent->implementOverload(registryId, positional, keywords, keywordTypes, mayDecline,
                                   location);
}

OverloadMember LocalFunctionResolver::findMember(const Type *self, const std::string &name) {
  return parent->findMember(self, name);
}

IntrinsicBody LocalFunctionResolver::implementIntrinsic(int registryId,
                                                        const std::vector<const Type *> &arguments,
                                                        const std::vector<std::string> &keywords,
                                                        SourceLocation location) {
  return parent->implementIntrinsic(registryId, arguments, keywords, location);
}

const Type *LocalFunctionResolver::closedFunctionType(FunctionSource &function) {
  return parent->closedFunctionType(function);
}

bool LocalFunctionResolver::hasDispatcher(FunctionSource &function) {
  return parent->hasDispatcher(function);
}

std::vector<const Type *> LocalFunctionResolver::explicitSignature(
    FunctionSource &function, const std::vector<const Type *> &arguments, SourceLocation location) {
  return parent->explicitSignature(function, arguments, location);
}

std::string LocalFunctionResolver::calleeTypeName(FunctionSource &function) {
  return parent->calleeTypeName(function);
}

const Type *LocalFunctionResolver::firstClassEntry(FunctionSource &function,
                                                   const Type *functionType,
                                                   SourceLocation location) {
  return parent->firstClassEntry(function, functionType, location);
}

std::set<std::string> localNamesOf(nb::handle functionNode) {
  std::set<std::string> names;
  forEachBinding(functionNode, [&](std::string name) { names.insert(std::move(name)); });
  return names;
}

std::map<std::string, int> bindingCountsOf(nb::handle functionNode) {
  std::map<std::string, int> counts;
  forEachBinding(functionNode, [&](std::string name) { ++counts[name]; });
  return counts;
}

std::vector<std::string> capturedNamesOf(nb::handle innerNode,
                                         const std::set<std::string> &outerLocals) {
  std::set<std::string> own = localNamesOf(innerNode);
  std::vector<std::string> captured;
  std::set<std::string> seen;
  auto consider = [&](nb::handle node) {
    if (kindOf(node) != "Name" || kindOf(node.attr("ctx")) != "Load")
      return;
    std::string name = nb::cast<std::string>(node.attr("id"));
    // A name read in a deeper scope that binds it itself is that scope's; such rare shadowing
    // only makes the capture a harmless unused argument.
    if (outerLocals.count(name) && !own.count(name) && seen.insert(name).second)
      captured.push_back(name);
  };
  nb::handle body = innerNode.attr("body");
  if (kindOf(innerNode) == "Lambda") {
    consider(body);
    walk(body, true, consider);
  } else {
    for (nb::handle statement : nb::cast<nb::list>(body)) {
      consider(statement);
      walk(statement, true, consider);
    }
  }
  // Default values are evaluated in the enclosing scope, when the function is defined.
  return captured;
}

} // namespace taipan::bindings
