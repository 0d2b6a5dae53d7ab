// The classes of types: one per family of kinds, each holding its own payload (an array's dtype
// and layout, a record's fields, a function's signature), reached with isa/cast/dyn_cast.
#pragma once

#include "types/Type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace taipan {

class TypeContext;

/// Boolean, Integer, Float and Complex: a width in bits and a signedness.
class NumberType : public Type {
public:
  static bool classof(const Type *type) {
    TypeKind kind = type->kind();
    return kind == TypeKind::Boolean || kind == TypeKind::Integer || kind == TypeKind::Float ||
           kind == TypeKind::Complex;
  }
  int bitWidth() const { return width; }
  bool hasSign() const { return signedness; }

private:
  friend class TypeContext;
  NumberType(TypeKind kind, std::string name, int width, bool signedness)
      : Type(kind, std::move(name)), width(width), signedness(signedness) {}
  int width;
  bool signedness;
};

/// Datetime and Timedelta: NumPy's unit code; a value is an int64 count of units.
class DatetimeType : public Type {
public:
  static bool classof(const Type *type) {
    return type->kind() == TypeKind::Datetime || type->kind() == TypeKind::Timedelta;
  }
  int unit() const { return unitCode; }
  const std::string &unitName() const { return shownUnit; }

private:
  friend class TypeContext;
  DatetimeType(TypeKind kind, std::string name, int unitCode, std::string shownUnit)
      : Type(kind, std::move(name)), unitCode(unitCode), shownUnit(std::move(shownUnit)) {}
  int unitCode;
  std::string shownUnit;
};

/// A slice object as a value: Numba's slice3_type, or slice2_type when its step is 1.
class SliceType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::Slice; }
  bool hasStep() const { return withStep; }

private:
  friend class TypeContext;
  SliceType(std::string name, bool withStep)
      : Type(TypeKind::Slice, std::move(name)), withStep(withStep) {}
  bool withStep;
};

/// A tuple: its elements; also Numba's LiteralList (an immutable list literal of mixed items).
class TupleType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::Tuple; }
  const std::vector<const Type *> &items() const { return elementTypes; }
  bool isLiteral() const { return form == Form::LiteralList; }
  bool isNamed() const { return form == Form::Named; }

protected:
  friend class TypeContext;
  enum class Form { Plain, LiteralList, Named };
  TupleType(std::string name, std::vector<const Type *> elementTypes, Form form)
      : Type(TypeKind::Tuple, std::move(name)), elementTypes(std::move(elementTypes)), form(form) {}
  std::vector<const Type *> elementTypes;
  Form form;
};

/// An instance of a named tuple class: a tuple whose items have names, boxed into its class.
class NamedTupleType : public TupleType {
public:
  static bool classof(const Type *type) {
    return type->kind() == TypeKind::Tuple && static_cast<const TupleType *>(type)->isNamed();
  }
  const std::string &className() const { return qualifiedName; }
  int classId() const { return registryId; }
  const std::vector<std::string> &fields() const { return fieldNames; }

private:
  friend class TypeContext;
  NamedTupleType(std::string name, std::vector<const Type *> elementTypes, std::string className,
                 int classId, std::vector<std::string> fieldNames)
      : TupleType(std::move(name), std::move(elementTypes), Form::Named),
        qualifiedName(std::move(className)), registryId(classId),
        fieldNames(std::move(fieldNames)) {}
  std::string qualifiedName;
  int registryId;
  std::vector<std::string> fieldNames;
};

/// An array: dtype, ndim, layout and whether it is read-only (types::ArrayLayout in memory).
class ArrayType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::Array; }
  const Type *elementType() const { return dtypeOf; }
  int dimensions() const { return ndimOf; }
  char layoutCode() const { return layoutOf; }
  bool readonly() const { return readonlyOf; }

private:
  friend class TypeContext;
  ArrayType(std::string name, const Type *dtype, int ndim, char layout, bool readonly)
      : Type(TypeKind::Array, std::move(name)), dtypeOf(dtype), ndimOf(ndim), layoutOf(layout),
        readonlyOf(readonly) {}
  const Type *dtypeOf;
  int ndimOf;
  char layoutOf;
  bool readonlyOf;
};

/// A NumPy structured dtype: named fields at byte offsets, an itemsize and NumPy's
/// isalignedstruct flag. A value is the address of one record's bytes.
class RecordType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::Record; }
  const std::vector<std::string> &names() const { return fieldNames; }
  const std::vector<const Type *> &fields() const { return fieldTypes; }
  size_t offset(size_t index) const { return static_cast<size_t>(offsets[index]); }
  size_t size() const { return itemSize; }
  bool aligned() const { return isAligned; }

private:
  friend class TypeContext;
  RecordType(std::string name, std::vector<std::string> fieldNames,
             std::vector<const Type *> fieldTypes, std::vector<int64_t> offsets, size_t itemSize,
             bool isAligned)
      : Type(TypeKind::Record, std::move(name)), fieldNames(std::move(fieldNames)),
        fieldTypes(std::move(fieldTypes)), offsets(std::move(offsets)), itemSize(itemSize),
        isAligned(isAligned) {}
  std::vector<std::string> fieldNames;
  std::vector<const Type *> fieldTypes;
  std::vector<int64_t> offsets;
  size_t itemSize;
  bool isAligned;
};

/// A fixed-shape subarray field of a record (C order), or a fixed-width string field when its
/// element is a StringLiteral (types/CharSequences.h).
class NestedArrayType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::NestedArray; }
  const Type *elementType() const { return dtypeOf; }
  const std::vector<int64_t> &shape() const { return extents; }

private:
  friend class TypeContext;
  NestedArrayType(std::string name, const Type *dtype, std::vector<int64_t> shape)
      : Type(TypeKind::NestedArray, std::move(name)), dtypeOf(dtype), extents(std::move(shape)) {}
  const Type *dtypeOf;
  std::vector<int64_t> extents;
};

/// A type made of one other type: a DType object's dtype, an Optional's value, a list's item,
/// a generator's yield, a pointer's pointee. Which one the kind says.
class WrapperType : public Type {
public:
  static bool classof(const Type *type) {
    TypeKind kind = type->kind();
    return kind == TypeKind::DType || kind == TypeKind::Optional || kind == TypeKind::List ||
           kind == TypeKind::Generator || kind == TypeKind::Pointer;
  }
  /// The type wrapped; null for void*, or a list whose item type is not known yet.
  const Type *wrapped() const { return inner; }

protected:
  friend class TypeContext;
  WrapperType(TypeKind kind, std::string name, const Type *inner)
      : Type(kind, std::move(name)), inner(inner) {}
  const Type *inner;
};

/// A list: reflected (a Python list argument) or typed (Numba's ListType).
class ListType : public WrapperType {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::List; }
  bool typed() const { return isTyped; }

private:
  friend class TypeContext;
  ListType(std::string name, const Type *item, bool typed)
      : WrapperType(TypeKind::List, std::move(name), item), isTyped(typed) {}
  bool isTyped;
};

/// Dict and Set: the key type (null before the stores that type them) and a dict's value type.
class HashedContainerType : public Type {
public:
  static bool classof(const Type *type) {
    return type->kind() == TypeKind::Dict || type->kind() == TypeKind::Set;
  }
  /// {key, value} for a dict, {key} for a set; empty while untyped.
  const std::vector<const Type *> &members() const { return keyAndValue; }
  /// Set: whether it is a frozenset.
  bool frozen() const { return isFrozen; }

private:
  friend class TypeContext;
  HashedContainerType(TypeKind kind, std::string name, std::vector<const Type *> keyAndValue,
                      bool frozen)
      : Type(kind, std::move(name)), keyAndValue(std::move(keyAndValue)), isFrozen(frozen) {}
  std::vector<const Type *> keyAndValue;
  bool isFrozen;
};

/// d.keys(), d.values() or d.items(): the dict viewed and which view.
class DictViewType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::DictView; }
  const Type *dict() const { return viewed; }
  int which() const { return view; }

private:
  friend class TypeContext;
  DictViewType(std::string name, const Type *viewed, int view)
      : Type(TypeKind::DictView, std::move(name)), viewed(viewed), view(view) {}
  const Type *viewed;
  int view;
};

/// StringLiteral, Module and Builtin: a text (the string, the module's or the function's name).
class SymbolType : public Type {
public:
  static bool classof(const Type *type) {
    TypeKind kind = type->kind();
    return kind == TypeKind::StringLiteral || kind == TypeKind::Module || kind == TypeKind::Builtin;
  }
  const std::string &symbol() const { return textValue; }

private:
  friend class TypeContext;
  SymbolType(TypeKind kind, std::string name, std::string text)
      : Type(kind, std::move(name)), textValue(std::move(text)) {}
  std::string textValue;
};

/// Another jitted Python function, by its source.
class JitFunctionType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::JitFunction; }
  FunctionSource *source() const { return functionSource; }

private:
  friend class TypeContext;
  JitFunctionType(std::string name, FunctionSource *function)
      : Type(TypeKind::JitFunction, std::move(name)), functionSource(function) {}
  FunctionSource *functionSource;
};

/// ExceptionClass, Overload and Intrinsic: an entry of the bindings' Python-side registries.
class RegistryEntryType : public Type {
public:
  static bool classof(const Type *type) {
    TypeKind kind = type->kind();
    return kind == TypeKind::ExceptionClass || kind == TypeKind::Overload ||
           kind == TypeKind::Intrinsic;
  }
  int id() const { return entryId; }
  const std::string &entryName() const { return shownName; }

private:
  friend class TypeContext;
  RegistryEntryType(TypeKind kind, std::string name, int id, std::string shownName)
      : Type(kind, std::move(name)), entryId(id), shownName(std::move(shownName)) {}
  int entryId;
  std::string shownName;
};

/// ExternalFunction and FirstClassFunction: a signature; an external function also has a
/// symbol, a calling convention and where CPU code finds it.
class FunctionSignatureType : public Type {
public:
  static bool classof(const Type *type) {
    return type->kind() == TypeKind::ExternalFunction ||
           type->kind() == TypeKind::FirstClassFunction;
  }
  const std::vector<const Type *> &parameters() const { return parameterList; }
  const Type *result() const { return resultOf; }
  const std::string &symbol() const { return symbolName; }
  bool cConvention() const { return usesC; }
  uint64_t address() const { return addressValue; }
  const std::string &loadSymbol() const { return loadSymbolName; }

private:
  friend class TypeContext;
  FunctionSignatureType(TypeKind kind, std::string name, std::vector<const Type *> parameters,
                        const Type *result, std::string symbol = "", bool cConvention = false,
                        uint64_t address = 0, std::string loadSymbol = "")
      : Type(kind, std::move(name)), parameterList(std::move(parameters)), resultOf(result),
        symbolName(std::move(symbol)), usesC(cConvention), addressValue(address),
        loadSymbolName(std::move(loadSymbol)) {}
  std::vector<const Type *> parameterList;
  const Type *resultOf;
  std::string symbolName;
  bool usesC;
  uint64_t addressValue;
  std::string loadSymbolName;
};

/// Numba's UndefinedFunctionType: the jitted functions a variable may hold.
class UndefinedFunctionType : public Type {
public:
  static bool classof(const Type *type) { return type->kind() == TypeKind::UndefinedFunction; }
  const std::vector<const Type *> &members() const { return candidates; }

private:
  friend class TypeContext;
  UndefinedFunctionType(std::string name, std::vector<const Type *> candidates)
      : Type(TypeKind::UndefinedFunction, std::move(name)), candidates(std::move(candidates)) {}
  std::vector<const Type *> candidates;
};

/// ClassInstance and UserType: a type defined in Python (a jitclass, or a types.Type subclass
/// with a registered data model) whose members are given once, after the type is made, so that
/// a member may refer to the type itself. Until then layout() is null.
class PythonDefinedType : public Type {
public:
  static bool classof(const Type *type) {
    return type->kind() == TypeKind::ClassInstance || type->kind() == TypeKind::UserType;
  }
  /// The jitclass's registry id (taipan.jitclasses), or the user type's (taipan.extending).
  int id() const { return registryId; }
  /// The jitclass's qualified class name; "" for a user type.
  const std::string &className() const { return qualifiedName; }
  const std::vector<std::string> &memberNames() const { return names; }
  /// The jitclass's field types (a user type's are its layout's elements).
  const std::vector<const Type *> &memberTypes() const { return types; }
  /// The type the members are laid out as: a tuple of a jitclass's fields in its block, or a
  /// user type's data model (a tuple for StructModel, a number or pointer otherwise).
  const Type *layout() const { return layoutType; }

private:
  friend class TypeContext;
  PythonDefinedType(TypeKind kind, std::string name, int id, std::string className)
      : Type(kind, std::move(name)), registryId(id), qualifiedName(std::move(className)) {}
  int registryId;
  std::string qualifiedName;
  std::vector<std::string> names;
  std::vector<const Type *> types;
  const Type *layoutType = nullptr;
};

// The shorthand accessors of Type, each reading its owning class.

inline int Type::datetimeUnit() const {
  if (auto *datetime = dyn_cast<DatetimeType>(this))
    return datetime->unit();
  reportForeignTypeAccess("datetimeUnit", this, __builtin_return_address(0));
  return 0;
}

inline int Type::bits() const {
  if (auto *number = dyn_cast<NumberType>(this))
    return number->bitWidth();
  if (isa<DatetimeType>(this))
    return 64;
  reportForeignTypeAccess("bits", this, __builtin_return_address(0));
  return 0;
}

inline bool Type::isSigned() const {
  if (auto *number = dyn_cast<NumberType>(this))
    return number->hasSign();
  if (isa<DatetimeType>(this))
    return true;
  reportForeignTypeAccess("isSigned", this, __builtin_return_address(0));
  return false;
}

inline bool Type::sliceHasStep() const {
  auto *slice = dyn_cast<SliceType>(this);
  return slice && slice->hasStep();
}

inline bool Type::isLiteralList() const {
  auto *tuple = dyn_cast<TupleType>(this);
  return tuple && tuple->isLiteral();
}

inline bool Type::isNamedTuple() const { return isa<NamedTupleType>(this); }

inline int Type::namedTupleClass() const {
  if (auto *named = dyn_cast<NamedTupleType>(this))
    return named->classId();
  reportForeignTypeAccess("namedTupleClass", this, __builtin_return_address(0));
  return 0;
}

inline const Type *Type::dtype() const {
  if (auto *array = dyn_cast<ArrayType>(this))
    return array->elementType();
  if (auto *nested = dyn_cast<NestedArrayType>(this))
    return nested->elementType();
  if (typeKind == TypeKind::DType)
    return static_cast<const WrapperType *>(this)->wrapped();
  reportForeignTypeAccess("dtype", this, __builtin_return_address(0));
  return nullptr;
}

inline int Type::ndim() const {
  if (auto *array = dyn_cast<ArrayType>(this))
    return array->dimensions();
  if (auto *nested = dyn_cast<NestedArrayType>(this))
    return static_cast<int>(nested->shape().size());
  reportForeignTypeAccess("ndim", this, __builtin_return_address(0));
  return 0;
}

inline char Type::layout() const {
  if (auto *array = dyn_cast<ArrayType>(this))
    return array->layoutCode();
  if (isa<NestedArrayType>(this))
    return 'C';
  reportForeignTypeAccess("layout", this, __builtin_return_address(0));
  return 'A';
}

inline bool Type::isReadonly() const {
  if (auto *array = dyn_cast<ArrayType>(this))
    return array->readonly();
  reportForeignTypeAccess("isReadonly", this, __builtin_return_address(0));
  return false;
}

inline const Type *Type::optionalValue() const {
  if (typeKind == TypeKind::Optional)
    return static_cast<const WrapperType *>(this)->wrapped();
  reportForeignTypeAccess("optionalValue", this, __builtin_return_address(0));
  return nullptr;
}

inline const std::vector<int64_t> &Type::nestedShape() const {
  if (auto *nested = dyn_cast<NestedArrayType>(this))
    return nested->shape();
  reportForeignTypeAccess("nestedShape", this, __builtin_return_address(0));
  static const std::vector<int64_t> noShape;
  return noShape;
}

inline size_t Type::fieldOffset(size_t index) const {
  return cast<RecordType>(this)->offset(index);
}

inline bool Type::isAligned() const {
  if (auto *record = dyn_cast<RecordType>(this))
    return record->aligned();
  reportForeignTypeAccess("isAligned", this, __builtin_return_address(0));
  return false;
}

inline const Type *Type::itemType() const {
  if (typeKind == TypeKind::List)
    return static_cast<const WrapperType *>(this)->wrapped();
  reportForeignTypeAccess("itemType", this, __builtin_return_address(0));
  return nullptr;
}

inline bool Type::isReflected() const {
  auto *list = dyn_cast<ListType>(this);
  return list && !list->typed();
}

inline const Type *Type::viewedDict() const {
  if (auto *view = dyn_cast<DictViewType>(this))
    return view->dict();
  reportForeignTypeAccess("viewedDict", this, __builtin_return_address(0));
  return nullptr;
}

inline int Type::viewKind() const {
  if (auto *view = dyn_cast<DictViewType>(this))
    return view->which();
  reportForeignTypeAccess("viewKind", this, __builtin_return_address(0));
  return 0;
}

inline bool Type::isFrozen() const {
  auto *set = dyn_cast<HashedContainerType>(this);
  return set && set->kind() == TypeKind::Set && set->frozen();
}

inline const Type *Type::yieldType() const {
  if (typeKind == TypeKind::Generator)
    return static_cast<const WrapperType *>(this)->wrapped();
  reportForeignTypeAccess("yieldType", this, __builtin_return_address(0));
  return nullptr;
}

inline const Type *Type::pointee() const {
  if (typeKind == TypeKind::Pointer)
    return static_cast<const WrapperType *>(this)->wrapped();
  reportForeignTypeAccess("pointee", this, __builtin_return_address(0));
  return nullptr;
}

inline const std::vector<const Type *> &Type::parameterTypes() const {
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->parameters();
  reportForeignTypeAccess("parameterTypes", this, __builtin_return_address(0));
  static const std::vector<const Type *> noParameters;
  return noParameters;
}

inline const Type *Type::resultType() const {
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->result();
  reportForeignTypeAccess("resultType", this, __builtin_return_address(0));
  return nullptr;
}

inline bool Type::usesCConvention() const {
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->cConvention();
  reportForeignTypeAccess("usesCConvention", this, __builtin_return_address(0));
  return false;
}

inline uint64_t Type::address() const {
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->address();
  reportForeignTypeAccess("address", this, __builtin_return_address(0));
  return 0;
}

inline const std::string &Type::loadSymbol() const {
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->loadSymbol();
  reportForeignTypeAccess("loadSymbol", this, __builtin_return_address(0));
  static const std::string noSymbol;
  return noSymbol;
}

inline FunctionSource *Type::function() const {
  if (auto *jitted = dyn_cast<JitFunctionType>(this))
    return jitted->source();
  reportForeignTypeAccess("function", this, __builtin_return_address(0));
  return nullptr;
}

inline int Type::exceptionId() const {
  if (typeKind == TypeKind::ExceptionClass)
    return static_cast<const RegistryEntryType *>(this)->id();
  reportForeignTypeAccess("exceptionId", this, __builtin_return_address(0));
  return 0;
}

inline int Type::registryId() const {
  if (typeKind == TypeKind::Overload || typeKind == TypeKind::Intrinsic)
    return static_cast<const RegistryEntryType *>(this)->id();
  if (typeKind == TypeKind::UserType)
    return static_cast<const PythonDefinedType *>(this)->id();
  reportForeignTypeAccess("registryId", this, __builtin_return_address(0));
  return 0;
}

} // namespace taipan
