// The registry of library functions and Python's argument binding for them.
#include "registry/Library.h"

#include "support/CompileError.h"

#include <algorithm>
#include <stdexcept>

namespace taipan {

Library::Library() { registerLibraryFamilies(*this); }

const Library &Library::get() {
  static const Library library;
  return library;
}

const LibraryFunction *Library::find(const std::string &name) const {
  auto found = functions.find(name);
  return found == functions.end() ? nullptr : &found->second;
}

void Library::addAtRunTime(LibraryFunction function) {
  const_cast<Library &>(get()).add(std::move(function));
}

void Library::add(LibraryFunction function) {
  std::string name = function.name;
  if (values.count(name) || !functions.emplace(name, std::move(function)).second)
    throw std::logic_error("library function " + name + " registered twice");
  addNamespacesOf(name);
}

const LibraryValue *Library::findValue(const std::string &name) const {
  auto found = values.find(name);
  return found == values.end() ? nullptr : &found->second;
}

void Library::add(std::string name, std::vector<LibraryParameter> parameters, LibraryTypeRule type,
                  LibraryLowerRule lower, bool variadic) {
  LibraryFunction function;
  function.name = std::move(name);
  function.parameters = std::move(parameters);
  function.variadic = variadic;
  function.type = std::move(type);
  function.lower = std::move(lower);
  add(std::move(function));
}

void Library::addValue(LibraryValue value) {
  std::string name = value.name;
  if (functions.count(name) || !values.emplace(name, std::move(value)).second)
    throw std::logic_error("library value " + name + " registered twice");
  addNamespacesOf(name);
}

bool Library::isNamespace(const std::string &name) const { return namespaces.count(name) > 0; }

void Library::addNamespacesOf(const std::string &name) {
  // "cuda.cg.grid_group.sync" makes "cuda.cg" and "cuda.cg.grid_group" namespaces; the module
  // itself ("cuda") is not one.
  size_t dot = name.find('.');
  while (dot != std::string::npos && (dot = name.find('.', dot + 1)) != std::string::npos)
    namespaces.insert(name.substr(0, dot));
}

std::vector<Expr *> Library::bindArguments(const LibraryFunction &function,
                                           const std::vector<Expr *> &positional,
                                           const std::vector<std::string> &keywords,
                                           const std::vector<Expr *> &keywordValues,
                                           SourceLocation location) {
  const std::vector<LibraryParameter> &parameters = function.parameters;
  bool takesKeywords = std::any_of(parameters.begin(), parameters.end(),
                                   [](const LibraryParameter &p) { return !p.name.empty(); });
  if (!keywords.empty() && !takesKeywords)
    throwUnsupported(function.name +
                         "() takes no keyword arguments (unexpected keyword argument '" +
                         keywords[0] + "'); pass them by position",
                     location);
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

std::vector<const Type *> ufuncOutputArguments(const LibraryCall &call) {
  const UfuncKernel &kernel = *call.function->ufunc;
  std::vector<const Type *> outputs(kernel.outputs, nullptr);
  size_t slot = 0;
  for (size_t i = kernel.inputs; i < call.argumentTypes.size(); ++i) {
    const Type *argument = call.argumentTypes[i];
    if (argument && argument->isTuple()) {
      for (const Type *element : argument->elements()) {
        if (slot < outputs.size())
          outputs[slot] = element->isNone() ? nullptr : element;
        ++slot;
      }
      continue;
    }
    if (slot < outputs.size())
      outputs[slot] = argument && !argument->isNone() ? argument : nullptr;
    ++slot;
  }
  return outputs;
}

const Type *ufuncResultType(const LibraryCall &call) {
  const UfuncKernel &kernel = *call.function->ufunc;
  int ndim = -1;
  for (size_t i = 0; i < kernel.inputs && i < call.argumentTypes.size(); ++i)
    if (call.argumentTypes[i] && call.argumentTypes[i]->isArray())
      ndim = std::max(ndim, call.argumentTypes[i]->ndim());
  if (ndim == 0 && !kernel.keepsZeroDimensionalArrays)
    ndim = -1; // NumPy's ufuncs give a scalar for 0-d operands
  if (kernel.keepsZeroDimensionalArrays)
    ndim = std::max(ndim, 0); // np.where of three numbers is a 0-d array too
  std::vector<const Type *> given = ufuncOutputArguments(call);
  for (const Type *output : given) // the implicit output of divmod(a, b, q) has q's shape
    if (output && output->isArray())
      ndim = std::max(ndim, output->ndim());
  // NumPy's outputs follow the inputs' memory order (order 'K'): Fortran-ordered when every
  // input of two or more dimensions is (1-d and 0-d operands do not decide; views, whose order
  // is known only at run time, make a C result, as in Numba).
  bool fortran = false;
  for (size_t i = 0; i < kernel.inputs && i < call.argumentTypes.size(); ++i) {
    const Type *argument = call.argumentTypes[i];
    if (!argument || !argument->isArray() || argument->ndim() < 2)
      continue;
    if (argument->layout() != 'F') {
      fortran = false;
      break;
    }
    fortran = true;
  }
  std::vector<const Type *> results;
  for (size_t k = 0; k < given.size(); ++k) {
    const Type *element = k == 0 ? call.loop.output : call.loop.secondOutput;
    if (given[k])
      results.push_back(given[k]);
    else
      results.push_back(ndim >= 0 ? types::array(element, ndim, fortran ? 'F' : 'C', false)
                                  : element);
  }
  return results.size() == 1 ? results[0] : types::tuple(results);
}

std::string describeTargets(unsigned targets) {
  if (targets == OnEveryTarget)
    return "every target";
  return targets == OnCpu ? "the CPU" : targets == OnGpu ? "the GPU" : "no target";
}

std::string describeTargetMismatch(const std::string &what, unsigned here, unsigned targets) {
  return what + " is not supported on " + describeTargets(here) + " (it runs on " +
         describeTargets(targets) +
         (targets == OnGpu ? ", in CUDA kernels and device functions)" : ")");
}

} // namespace taipan
