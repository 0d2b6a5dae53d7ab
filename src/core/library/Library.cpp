// The registry of library functions and Python's argument binding for them.
#include "library/Library.h"

#include <stdexcept>

namespace taipan {

Library::Library() {
  registerMathFunctions(*this);
  registerCmathFunctions(*this);
  registerRandomFunctions(*this);
  registerNumpyCreationFunctions(*this);
  registerNumpyShapeFunctions(*this);
  registerNumpyReductions(*this);
  registerNumpySortFunctions(*this);
  registerNumpyLinalgFunctions(*this);
  registerNumpyRandomFunctions(*this);
  registerArrayAttributes(*this);
}

const Library &Library::get() {
  static const Library library;
  return library;
}

const LibraryFunction *Library::find(const std::string &name) const {
  auto found = functions.find(name);
  return found == functions.end() ? nullptr : &found->second;
}

void Library::add(LibraryFunction function) {
  std::string name = function.name;
  if (!functions.emplace(name, std::move(function)).second)
    throw std::logic_error("library function " + name + " registered twice");
}

std::vector<Expr *> Library::bindArguments(const LibraryFunction &function,
                                           const std::vector<Expr *> &positional,
                                           const std::vector<std::string> &keywords,
                                           const std::vector<Expr *> &keywordValues,
                                           SourceLocation location) {
  const std::vector<LibraryParameter> &parameters = function.parameters;
  if (positional.size() > parameters.size() && !function.variadic)
    throwTypingError(function.name + "() takes at most " + std::to_string(parameters.size()) +
                         " arguments (" + std::to_string(positional.size()) + " given)",
                     location);
  std::vector<Expr *> bound(std::max(parameters.size(), positional.size()), nullptr);
  for (size_t i = 0; i < positional.size(); ++i)
    bound[i] = positional[i];
  for (size_t k = 0; k < keywords.size(); ++k) {
    size_t index = 0;
    while (index < parameters.size() && parameters[index].name != keywords[k])
      ++index;
    if (index == parameters.size())
      throwTypingError(
          function.name + "() got an unexpected keyword argument '" + keywords[k] + "'", location);
    if (bound[index])
      throwTypingError(function.name + "() got multiple values for argument '" + keywords[k] + "'",
                       location);
    bound[index] = keywordValues[k];
  }
  for (size_t i = 0; i < parameters.size(); ++i)
    if (!bound[i] && !parameters[i].optional)
      throwTypingError(function.name + "() missing required argument" +
                           (parameters[i].name.empty() ? "" : " '" + parameters[i].name + "'"),
                       location);
  // Optional parameters left out reach the rules as absent trailing arguments; one left out
  // before a given one stays null.
  while (!bound.empty() && !bound.back())
    bound.pop_back();
  return bound;
}

std::string describeTargets(unsigned targets) {
  if (targets == OnEveryTarget)
    return "every target";
  return targets == OnCpu ? "the CPU" : targets == OnGpu ? "the GPU" : "no target";
}

} // namespace taipan
