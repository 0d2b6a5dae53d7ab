// taipan.typed.List and taipan.typed.Dict: Python objects over the memory blocks of compiled
// lists and dicts (runtime/Lists.h, runtime/Dicts.h), passed to compiled code without a copy.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>

#include "runtime/MemoryRuntime.h"
#include "types/Type.h"

namespace taipan::bindings {

/// A typed.List or typed.Dict: its type (ListType[T] or DictType[K,V]; the item, key and value
/// types are null until the first store types it) and its block (null until then).
struct TypedContainerObject {
  PyObject_HEAD const Type *type;
  runtime::MemInfo *block;
};

/// ListType[T] or DictType[K,V] for a typed.List or typed.Dict whose types are known; nullptr
/// for other values and for containers still untyped (nothing stored yet).
const Type *typeOfTypedContainer(PyObject *value);
/// Why a typed container cannot be typed (an empty, untyped one), or "" for other values.
std::string describeUntypedContainer(PyObject *value);
/// Stores the block of the typed.List or typed.Dict `value` at `storage`, with a new reference
/// (released after a call by releaseUnboxed, or owned by the container it is stored into).
bool unboxTypedContainer(PyObject *value, const Type *type, void *storage);
/// A typed.List or typed.Dict over the block at `storage`, whose reference it takes over.
PyObject *boxTypedContainer(const Type *type, const void *storage);

/// Boxes the value of `type` at `slot`, which stays owned by its container: the references it
/// holds are retained for the boxed object first.
PyObject *boxBorrowedValue(const Type *type, const void *slot);
/// Unboxes `value` into `slot` as a value a container owns (arrays borrowed from Python get a
/// block that keeps them alive). `container` names the container in errors. `value` must
/// convert to `type` without loss: anything else is a TypeError.
bool unboxOwnedValue(PyObject *value, const Type *type, void *slot, const Type *container);
/// Releases the references a value of `type` at `slot` holds.
void releaseValue(const Type *type, void *slot);
/// The item type a container takes from its first value (strings become unicode_type); a
/// TypeError (nullptr) for values a container cannot hold.
const Type *containerItemType(PyObject *value, const char *what);
/// The type a type argument names: a taipan type object, or int, float, bool, complex, str.
const Type *typeFromArgument(PyObject *value, const char *what);

/// Registers typed.List and typed.Dict (as _core.TypedList, _core.TypedDict) and installs the
/// runtime's hook for arrays borrowed from Python.
void defineTypedContainers(nanobind::module_ &module);
void defineTypedList(nanobind::module_ &module);
void defineTypedDict(nanobind::module_ &module);
/// A new typed.List or typed.Dict over `block` (whose reference it takes over).
PyObject *newTypedList(const Type *type, runtime::MemInfo *block);
PyObject *newTypedDict(const Type *type, runtime::MemInfo *block);
/// The Python types, for typeof and unboxing.
extern PyTypeObject *typedListType;
extern PyTypeObject *typedDictType;

} // namespace taipan::bindings
