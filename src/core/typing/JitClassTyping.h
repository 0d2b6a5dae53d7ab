// Typing of jitclass instances: their fields (`p.x`, `p.x = v`) and the key under which a
// property's setter call is recorded. Methods and properties are taipan.extending members.
#pragma once

#include "support/Operators.h"
#include "syntax/SyntaxTree.h"
#include "types/ClassInstanceTypes.h"

#include <string>

namespace taipan {

/// The class instance type of a value of `type`: the instance type itself, or the value type of
/// an Optional of one (whose fields are read after checking it is not None); else nullptr.
inline const Type *classInstanceOf(const Type *type) {
  if (type && type->isOptional())
    type = type->optionalValue();
  return isClassInstance(type) ? type : nullptr;
}

/// The field of `instance` that `name` names in the class's methods: `name` itself, or for a
/// private name (`__x`) the name CPython mangles it to in the class's code (`_Point__x`), which
/// the reader keeps unmangled. Empty when there is no such field (or no fields defined yet).
std::string classFieldName(const Type *instance, const std::string &name);
/// The type of that field; nullptr when there is none.
const Type *classFieldType(const Type *instance, const std::string &name);

/// Whether a value of type `value` may be stored into a field of type `field`: the same type,
/// a type that converts to it without changing the value (an int into a float field, a C array
/// into an 'A' array field, a string literal into a string field), or a number of the same
/// kind (any integer into an integer field). Never a float into an integer field: Numba
/// truncates there, while Python would keep the float.
bool classFieldAccepts(const Type *field, const Type *value);

/// The key of `calls` and `overloadImplementations` under which typing records the call of
/// the property setter `target = value` makes: negative, so it never meets an expression id
/// (the getter of `p.prop += 1` is recorded under the target's own id).
inline int attributeSetterKey(const Expr *target) { return -1 - target->id; }

/// The name findMember is asked for the setter of property `name` (taipan.jitclass answers).
inline std::string propertySetterName(const std::string &name) { return "$setter." + name; }

/// The method a binary operator or a comparison calls on a jitclass instance on its left
/// (`__add__`, `__eq__`...); empty for `is`, `in` and their negations.
std::string binaryOperatorMethod(BinaryOp op);
std::string comparisonMethod(CompareOp op);
/// The method `-p`, `+p` and `~p` call (`__neg__`, `__pos__`, `__invert__`); empty for `not`.
std::string unaryOperatorMethod(UnaryOp op);
/// The method a builtin of one argument calls on a jitclass instance (`len` -> `__len__`,
/// `hash`, `str`, `bool`, `abs`, `int`, `float`, `complex`); empty for other builtins.
std::string builtinClassMethod(const std::string &builtin);

} // namespace taipan
