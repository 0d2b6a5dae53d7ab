// jitclass instance types (Numba's ClassInstanceType): TypeKind::ClassInstance, a
// PythonDefinedType holding the class's registry id, name and fields.
#pragma once

#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// The kind of jitclass instance types: one pointer to a reference-counted block of the
/// instance's fields (runtime/JitClasses.h), a block reference like a list.
constexpr TypeKind ClassInstanceKind = TypeKind::ClassInstance;

inline bool isClassInstance(const Type *type) { return type && type->kind() == ClassInstanceKind; }
/// The class's registry id (taipan.jitclasses's table); its name is text(), its fields
/// fieldNames() and fieldTypes() (fieldIndex() finds one) once defineClassFields gave them.
inline int classIdOf(const Type *instance) { return cast<PythonDefinedType>(instance)->id(); }
/// The tuple type laying the fields out in the instance's block; null before they are given.
inline const Type *classFieldsLayout(const Type *instance) {
  return cast<PythonDefinedType>(instance)->layout();
}

namespace types {
/// The instance type of jitclass `classId` named `className`, shown as `displayName` (Numba's
/// `instance.jitclass.Point#<id><x:float64,y:float64>`), which never changes: types made from
/// it (an Optional, a tuple) are interned by name. Its fields come later, from
/// defineClassFields, so that a field may hold an instance of the class itself.
const Type *classInstance(int classId, const std::string &className,
                          const std::string &displayName);
/// Gives a class instance type its fields, once: false, changing nothing, when it has them.
bool defineClassFields(const Type *instance, const std::vector<std::string> &names,
                       const std::vector<const Type *> &fields);
} // namespace types

} // namespace taipan
