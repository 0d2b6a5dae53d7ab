// What typing knows of builtins besides the library's entries: which names are builtins, the
// error for argument types a builtin does not take, attributes and methods of numbers.
#include "typing/BuiltinTyping.h"

#include "registry/Library.h"
#include "types/RandomGeneratorType.h"
#include "typing/ArrayTyping.h"

namespace taipan {

std::string describeArgumentTypes(const std::vector<const Type *> &arguments) {
  std::string text = "(";
  for (size_t i = 0; i < arguments.size(); ++i)
    text += (i ? ", " : "") + (arguments[i] ? arguments[i]->name() : std::string("omitted"));
  return text + ")";
}

void throwNoOverload(const std::string &name, const std::vector<const Type *> &arguments,
                     SourceLocation location) {
  throwTypingError("no implementation of " + name + " for argument types " +
                       describeArgumentTypes(arguments),
                   location);
}

const Type *scalarConstructorType(const std::string &name) {
  if (name == "int")
    return types::int64();
  if (name == "float")
    return types::float64();
  if (name == "bool")
    return types::boolean();
  if (name == "complex")
    return types::complex128();
  if (name.rfind("numpy.", 0) == 0)
    return types::scalarByName(name.substr(6));
  return nullptr;
}

bool isKnownBuiltin(const std::string &name) {
  const Library &library = Library::get();
  if (library.find(name) || library.findValue(name) || library.isNamespace(name))
    return true;
  if (name.rfind("numpy.", 0) == 0)
    return false; // the library's NumPy names are found above
  // Not built yet: known, so that calling it is an UnsupportedError at the call's line rather
  // than a TypingError about using a type as a value.
  if (name == "frozenset")
    return true;
  // The rest of the library's modules: a function taipan lacks is reported where it is called.
  return name.rfind("math.", 0) == 0 || name.rfind("cmath.", 0) == 0 ||
         name.rfind("random.", 0) == 0;
}

const Type *typeValueAttribute(const Type *base, const std::string &attribute) {
  if (!base->isNumber())
    return nullptr;
  if (attribute == "real" || attribute == "imag") {
    if (base->isComplex())
      return types::floating(base->bits() / 2);
    return base->isBoolean() ? types::int64() : base;
  }
  return nullptr;
}

std::string methodBuiltinName(const Type *base, const std::string &method) {
  if (base->isNumber() && (method == "conjugate" || method == "item"))
    return "method." + method;
  if (base->isInteger() && method == "bit_count")
    return "method." + method;
  if ((base->isInteger() || base->isFloat()) && method == "view") // a bitcast (library/Builtins)
    return "method." + method;
  if (base->isString() && Library::get().find("str." + method))
    return "str." + method;
  if (base->isList()) // the list methods of library/Lists.cpp
    return "list." + method;
  if (base->isDict()) // the dict methods of library/Dicts.cpp
    return "dict." + method;
  if (base->isSet()) // the set methods of library/Sets.cpp
    return "set." + method;
  if (base->isTuple() && Library::get().find("tuple." + method)) // library/Tuples.cpp
    return "tuple." + method;
  if (base->isGenerator()) // send, throw and close (library/GeneratorMethods.cpp)
    return "generator." + method;
  if (isRandomGenerator(base)) // a np.random.Generator's (library/NumpyDistributions.cpp)
    return "numpy.random.Generator." + method;
  return "";
}

} // namespace taipan
