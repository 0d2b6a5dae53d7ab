// User-defined types (Numba's extension API: a Python subclass of types.Type with a data model
// registered through register_model): TypeKind::UserType and its data model.
#pragma once

#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// The kind of user-defined types (switches over kinds reach it through their `default`; the
/// rules that need it test isUserType). The type is a PythonDefinedType, as jitclass instances
/// are (types/ClassInstanceTypes.h); its values go through UserTypeModel (types/DataModels.h).
constexpr TypeKind UserTypeKind = TypeKind::UserType;

/// Whether `type` is a type defined in Python.
inline bool isUserType(const Type *type) { return type && type->kind() == UserTypeKind; }
/// The bindings' registry id of the user type (taipan.extending's table of (class, key)).
inline int userTypeId(const Type *type) { return cast<PythonDefinedType>(type)->id(); }
/// The data model: the taipan type whose representation a value of the user type has (a tuple
/// of the members for Numba's StructModel, void* for OpaqueModel, a number or pointer for
/// PrimitiveModel), or null while no model is registered (the type is then compile-time only).
inline const Type *userTypeLayout(const Type *type) {
  return cast<PythonDefinedType>(type)->layout();
}
/// StructModel: the members' names, in the order of the layout's elements (empty otherwise).
inline const std::vector<std::string> &userTypeMemberNames(const Type *type) {
  return cast<PythonDefinedType>(type)->memberNames();
}

namespace types {
/// The user type with registry id `id`, shown as `name` (Numba's Type.name). Interned by id:
/// the bindings give one id per (Python class, key), which is Numba's equality.
const Type *userType(int id, const std::string &name);
/// Gives a user type its data model, once (a model may be registered after the type is made,
/// as in Numba): false, changing nothing, when it has one. `layout` must hold no references.
bool defineUserTypeModel(const Type *type, const std::vector<std::string> &memberNames,
                         const Type *layout);
} // namespace types

} // namespace taipan
