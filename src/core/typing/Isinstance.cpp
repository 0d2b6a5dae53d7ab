// isinstance() in compiled code: decided from the value's type when the function compiles, as
// Numba does, so that the branch not taken is pruned (never typed nor lowered).
#include "typing/Isinstance.h"

#include "types/ClassInstanceTypes.h"
#include "types/UserTypes.h"

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
    if (value->isReflected()) // a typed.List is no list
      classes.insert("list");
    return true;
  case TypeKind::Set:
    classes.insert(value->isFrozen() ? "frozenset" : "set");
    return true;
  case TypeKind::ClassInstance:
    // A jitclass's boxes derive from no class the user wrote (a jitclass cannot be
    // subclassed), so no other class holds them.
    classes.insert("jitclass#" + std::to_string(classIdOf(value)));
    return true;
  case TypeKind::Datetime: // NumPy's class tree: datetime64 is a generic
    classes.insert({"numpy.generic", "numpy.datetime64"});
    return true;
  case TypeKind::Timedelta: // and timedelta64 a signed integer
    classes.insert({"numpy.generic", "numpy.number", "numpy.integer", "numpy.signedinteger",
                    "numpy.timedelta64"});
    return true;
  case TypeKind::UserType:
    // The class that declares the user type of its values (cuda.bf16's nv_bfloat16, named
    // usertype#<id> by bindings/GlobalResolution); other classes stay undecided.
    classes.insert("usertype#" + std::to_string(userTypeId(value)));
    return true;
  default:
    return false;
  }
  std::set<std::string> numpy = numpyClassesOf(value);
  classes.insert(numpy.begin(), numpy.end());
  return true;
}

/// Whether a value of type `value` (not an optional) is an instance of one of `classNames`.
bool isInstanceOfAny(const Type *value, const std::vector<std::string> &classNames,
                     SourceLocation location) {
  std::set<std::string> classes;
  if (!classesOf(value, classes))
    throwUnsupported("isinstance() of a value of type " + value->name() +
                         " is not supported in compiled code",
                     location);
  bool found = false;
  for (const std::string &className : classNames) {
    if (classes.count(className)) {
      found = true;
      continue;
    }
    // A user type's value is known to be an instance of its own class only (an IntEnum
    // member is an int too, which its type does not say).
    if (isUserType(value) && className.rfind("usertype#", 0) != 0)
      throwUnsupported("isinstance() of a value of type " + value->name() + " with the class " +
                           className + " is not supported in compiled code",
                       location);
    // Python's other builtin classes (str, list, dict...), NumPy's other classes and other
    // jitclasses have no instances among compiled values, nor has a user's class among
    // jitclass instances and None; it might among others (a subclass of int or tuple).
    bool builtin = className.find('.') == std::string::npos;
    if (!builtin && className.rfind("numpy.", 0) != 0 && !isClassInstance(value) &&
        !value->isNone())
      throwUnsupported("isinstance() with the class " + className +
                           " is not supported in compiled code (only builtin, NumPy and "
                           "jitclass classes, and a named tuple's own class; the value is " +
                           value->name() + ")",
                       location);
  }
  return found;
}

} // namespace

IsinstanceAnswer isinstanceAnswer(const Type *value, const std::vector<std::string> &classNames,
                                  SourceLocation location) {
  if (!value->isOptional())
    return isInstanceOfAny(value, classNames, location) ? IsinstanceAnswer::True
                                                        : IsinstanceAnswer::False;
  // An optional is None or its value at run time: the answer for each, then the test of which.
  bool whenValue = isInstanceOfAny(value->optionalValue(), classNames, location);
  bool whenNone = isInstanceOfAny(types::none(), classNames, location);
  if (whenValue == whenNone)
    return whenValue ? IsinstanceAnswer::True : IsinstanceAnswer::False;
  return whenValue ? IsinstanceAnswer::WhenNotNone : IsinstanceAnswer::WhenNone;
}

} // namespace taipan
