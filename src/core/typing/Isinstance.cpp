// isinstance() in compiled code: decided from the value's type when the function compiles, as
// Numba does, so that the branch not taken is pruned (never typed nor lowered).
#include "typing/Isinstance.h"

#include <set>

namespace taipan {
namespace {

/// NumPy's abstract scalar classes above a concrete scalar type, most specific first.
std::set<std::string> numpyClassesOf(const Type *value) {
  std::set<std::string> classes = {"numpy.generic"};
  if (value->isBoolean()) {
    classes.insert({"numpy.bool_", "numpy.bool"}); // NumPy 2 names it numpy.bool
    return classes;
  }
  classes.insert("numpy.number");
  if (value->isInteger()) {
    classes.insert("numpy.integer");
    classes.insert(value->isSigned() ? "numpy.signedinteger" : "numpy.unsignedinteger");
    classes.insert(std::string("numpy.") + (value->isSigned() ? "int" : "uint") +
                   std::to_string(value->bits()));
  } else if (value->isFloat()) {
    classes.insert("numpy.inexact");
    classes.insert("numpy.floating");
    classes.insert("numpy.float" + std::to_string(value->bits()));
  } else if (value->isComplex()) {
    classes.insert("numpy.inexact");
    classes.insert("numpy.complexfloating");
    classes.insert("numpy.complex" + std::to_string(value->bits()));
  }
  return classes;
}

/// The classes a compiled value of this type is an instance of, or false when its type is not
/// data whose class taipan knows.
bool classesOf(const Type *value, std::set<std::string> &classes) {
  classes = {"object"};
  switch (value->kind()) {
  case TypeKind::Boolean:
    classes.insert({"bool", "int"});
    break;
  case TypeKind::Integer:
    classes.insert("int");
    break;
  case TypeKind::Float:
    classes.insert("float");
    break;
  case TypeKind::Complex:
    classes.insert("complex");
    break;
  case TypeKind::None:
    classes.insert("NoneType");
    return true;
  case TypeKind::Tuple:
    classes.insert(value->isLiteralList() ? "list" : "tuple");
    if (value->isNamedTuple())
      classes.insert(value->text()); // its class, as the resolver names classes
    return true;
  case TypeKind::Array:
    classes.insert("numpy.ndarray");
    return true;
  case TypeKind::Range:
    classes.insert("range");
    return true;
  case TypeKind::StringLiteral:
  case TypeKind::Unicode:
    classes.insert("str");
    return true;
  case TypeKind::List:
    classes.insert("list");
    return true;
  default:
    return false;
  }
  std::set<std::string> numpy = numpyClassesOf(value);
  classes.insert(numpy.begin(), numpy.end());
  return true;
}

} // namespace

bool isInstanceOf(const Type *value, const std::string &className, SourceLocation location) {
  std::set<std::string> classes;
  if (!classesOf(value, classes))
    throwUnsupported("isinstance() of a value of type " + value->name() +
                         " is not supported in compiled code",
                     location);
  if (classes.count(className))
    return true;
  // Python's other builtin classes (str, list, dict...) and NumPy's other classes have no
  // instances among compiled values; a user's class might (a subclass of int or tuple).
  bool builtin = className.find('.') == std::string::npos;
  if (builtin || className.rfind("numpy.", 0) == 0)
    return false;
  throwUnsupported("isinstance() with the class " + className +
                       " is not supported in compiled code (only builtin and NumPy classes)",
                   location);
}

} // namespace taipan
