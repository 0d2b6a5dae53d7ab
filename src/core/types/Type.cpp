// Type interning and the memory layout of values.
#include "types/Type.h"

#include "types/ClassInstanceTypes.h"
#include "types/DatetimeUnits.h"
#include "types/UserTypes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace taipan {

/// Owns every Type; one per process.
class TypeContext {
public:
  static TypeContext &get() {
    static TypeContext context;
    return context;
  }

  const Type *intern(Type &&candidate, const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = byKey.find(key);
    if (found != byKey.end())
      return found->second;
    auto owned = std::unique_ptr<Type>(new Type(std::move(candidate)));
    const Type *result = owned.get();
    storage.push_back(std::move(owned));
    byKey.emplace(key, result);
    keys.emplace(result, key);
    return result;
  }

  /// The keys of types already made, for the key of a type made of them: display names may
  /// agree where types differ (two named tuple classes called Point, or their classes), and a
  /// tuple, list or optional of each must stay apart too.
  std::string keysOf(const std::vector<const Type *> &components) {
    std::lock_guard<std::mutex> lock(mutex);
    std::string joined;
    for (const Type *component : components) {
      auto found = component ? keys.find(component) : keys.end();
      joined += (found != keys.end() ? found->second : std::string("undefined")) + ";";
    }
    return joined;
  }

  static Type make(TypeKind kind, std::string name) {
    Type type;
    type.typeKind = kind;
    type.displayName = std::move(name);
    return type;
  }

  const Type *scalar(TypeKind kind, int bits, bool isSigned, const std::string &name) {
    Type type = make(kind, name);
    type.bitWidth = bits;
    type.signedness = isSigned;
    return intern(std::move(type), name);
  }

  const Type *tuple(const std::vector<const Type *> &elements) {
    std::string name;
    bool uniform =
        !elements.empty() && std::all_of(elements.begin(), elements.end(),
                                         [&](const Type *t) { return t == elements.front(); });
    if (uniform) {
      name = "UniTuple(" + elements.front()->name() + " x " + std::to_string(elements.size()) + ")";
    } else {
      name = "Tuple(";
      for (size_t i = 0; i < elements.size(); ++i)
        name += (i ? ", " : "") + elements[i]->name();
      name += ")";
    }
    Type type = make(TypeKind::Tuple, name);
    type.elementTypes = elements;
    return intern(std::move(type), name + "|" + keysOf(elements));
  }

  const Type *literalList(const std::vector<const Type *> &items) {
    std::string name = "LiteralList((";
    for (size_t i = 0; i < items.size(); ++i)
      name += (i ? ", " : "") + items[i]->name();
    name += "))";
    Type type = make(TypeKind::Tuple, name);
    type.elementTypes = items;
    type.literalList = true;
    return intern(std::move(type), name + "|" + keysOf(items));
  }

  const Type *namedTuple(const std::string &className, int classId,
                         const std::vector<std::string> &fields,
                         const std::vector<const Type *> &elements) {
    const Type *plain = tuple(elements);
    std::string shown = plain->name();
    bool uniform = plain->isUniformTuple();
    std::string name = (uniform ? "NamedUniTuple(" : "NamedTuple(") +
                       shown.substr(shown.find('(') + 1, shown.size() - shown.find('(') - 2) +
                       ", " + className.substr(className.rfind('.') + 1) + ")";
    Type type = make(TypeKind::Tuple, name);
    type.elementTypes = elements;
    type.names = fields;
    type.textValue = className;
    type.exceptionClassId = classId;
    type.namedTuple = true;
    return intern(std::move(type), name + "#" + std::to_string(classId) + "|" + keysOf(elements));
  }

  const Type *array(const Type *dtype, int ndim, char layout, bool readonly) {
    std::string name = std::string(readonly ? "readonly " : "") + "array(" + dtype->name() + ", " +
                       std::to_string(ndim) + "d, " + layout + ")";
    Type type = make(TypeKind::Array, name);
    type.elementType = dtype;
    type.dimensions = ndim;
    type.layoutCode = layout;
    type.readonly = readonly;
    return intern(std::move(type), name + "|" + keysOf({dtype}));
  }

  const Type *record(const std::vector<std::string> &names, const std::vector<const Type *> &fields,
                     const std::vector<int64_t> &offsets, size_t itemSize, bool aligned) {
    std::string name = "Record(";
    for (size_t i = 0; i < fields.size(); ++i)
      name += (i ? "," : "") + names[i] + "[type=" + fields[i]->name() +
              ";offset=" + std::to_string(offsets[i]) + "]";
    name += ";" + std::to_string(itemSize) + ";" + (aligned ? "True" : "False") + ")";
    Type type = make(TypeKind::Record, name);
    type.names = names;
    type.elementTypes = fields;
    type.extents = offsets;
    type.addressValue = itemSize;
    type.signedness = aligned;
    return intern(std::move(type), name);
  }

  const Type *nestedArray(const Type *dtype, const std::vector<int64_t> &shape) {
    std::string name;
    if (dtype->kind() == TypeKind::StringLiteral) { // a fixed-length string field, as Numba
      name = "[" + dtype->text() + " x " + std::to_string(shape.at(0)) + "]";
    } else {
      name = "nestedarray(" + dtype->name() + ", (";
      for (size_t i = 0; i < shape.size(); ++i)
        name += (i ? ", " : "") + std::to_string(shape[i]);
      name += shape.size() == 1 ? ",))" : "))";
    }
    Type type = make(TypeKind::NestedArray, name);
    type.elementType = dtype;
    type.extents = shape;
    type.dimensions = static_cast<int>(shape.size());
    type.layoutCode = 'C';
    return intern(std::move(type), name + "|" + keysOf({dtype}));
  }

  const Type *dtypeValue(const Type *dtype) {
    std::string name = "dtype(" + dtype->name() + ")";
    Type type = make(TypeKind::DType, name);
    type.elementType = dtype;
    return intern(std::move(type), name + "|" + keysOf({dtype}));
  }

  const Type *named(TypeKind kind, const std::string &prefix, const std::string &text,
                    FunctionSource *function = nullptr, int id = 0) {
    std::string key = prefix + "(" + text + ")";
    if (function)
      key += "@" + std::to_string(reinterpret_cast<uintptr_t>(function));
    Type type = make(kind, key);
    type.textValue = text;
    type.functionSource = function;
    type.exceptionClassId = id;
    return intern(std::move(type), key + "#" + std::to_string(id));
  }

  const Type *datetimeLike(TypeKind kind, int unit) {
    std::string name = std::string(kind == TypeKind::Datetime ? "datetime64[" : "timedelta64[") +
                       datetimeUnitName(unit) + "]";
    Type type = make(kind, name);
    type.bitWidth = 64;
    type.signedness = true;
    type.dimensions = unit;
    type.textValue = datetimeUnitName(unit);
    return intern(std::move(type), name);
  }

  const Type *list(const Type *item, bool typed) {
    std::string itemName = item ? item->name() : std::string("undefined");
    std::string name = typed ? "ListType[" + itemName + "]" : "list(" + itemName + ")";
    Type type = make(TypeKind::List, name);
    type.elementType = item;
    type.typedList = typed;
    return intern(std::move(type), name + "|" + keysOf({item}));
  }

  const Type *dict(const Type *key, const Type *value) {
    std::string name = key && value ? "DictType[" + key->name() + "," + value->name() + "]"
                                    : std::string("DictType[undefined,undefined]");
    Type type = make(TypeKind::Dict, name);
    if (key && value)
      type.elementTypes = {key, value};
    return intern(std::move(type), name + "|" + keysOf({key, value}));
  }

  const Type *dictView(const Type *dict, int which) {
    static const char *const prefixes[] = {"dict_keys[", "dict_values[", "dict_items["};
    std::string name = prefixes[which] + dict->name() + "]";
    Type type = make(TypeKind::DictView, name);
    type.elementType = dict;
    type.elementTypes = dict->elements();
    type.dimensions = which;
    return intern(std::move(type), name + "|" + keysOf({dict}));
  }

  const Type *generator(const Type *yield) {
    std::string name = "Generator(" + yield->name() + ")";
    Type type = make(TypeKind::Generator, name);
    type.elementType = yield;
    return intern(std::move(type), name + "|" + keysOf({yield}));
  }

  const Type *set(const Type *key, bool frozen) {
    std::string name = (frozen ? "frozenset(" : "reflected set(") +
                       (key ? key->name() : std::string("undefined")) + ")";
    Type type = make(TypeKind::Set, name);
    if (key)
      type.elementTypes = {key};
    type.typedList = frozen;
    return intern(std::move(type), name + "|" + keysOf({key}));
  }

  const Type *classInstance(int classId, const std::string &className,
                            const std::string &displayName) {
    std::string key = "jitclass#" + std::to_string(classId);
    Type type = make(ClassInstanceKind, displayName);
    type.textValue = className;
    type.exceptionClassId = classId;
    return intern(std::move(type), key);
  }

  bool defineClassFields(const Type *instance, const std::vector<std::string> &names,
                         const std::vector<const Type *> &fields) {
    const Type *layout = tuple(fields);
    std::lock_guard<std::mutex> lock(mutex);
    if (instance->elementType)
      return false;
    Type *mutableType = const_cast<Type *>(instance); // owned here; fields are set only once
    mutableType->names = names;
    mutableType->elementTypes = fields;
    mutableType->elementType = layout;
    return true;
  }

  const Type *userType(int id, const std::string &name) {
    Type type = make(UserTypeKind, name);
    type.exceptionClassId = id;
    return intern(std::move(type), "usertype#" + std::to_string(id));
  }

  bool defineUserTypeModel(const Type *type, const std::vector<std::string> &memberNames,
                           const Type *layout) {
    std::lock_guard<std::mutex> lock(mutex);
    if (type->elementType)
      return false;
    Type *mutableType = const_cast<Type *>(type); // owned here; the model is set only once
    mutableType->names = memberNames;
    mutableType->elementType = layout;
    return true;
  }

  const Type *optional(const Type *value) {
    std::string name = "OptionalType(" + value->name() + ")";
    Type type = make(TypeKind::Optional, name);
    type.elementType = value;
    return intern(std::move(type), name + "|" + keysOf({value}));
  }

  const Type *pointer(const Type *pointee) {
    std::string name = (pointee ? pointee->name() : std::string("void")) + "*";
    Type type = make(TypeKind::Pointer, name);
    type.elementType = pointee;
    return intern(std::move(type), name + "|" + keysOf({pointee}));
  }

  const Type *externalFunction(const std::string &symbol,
                               const std::vector<const Type *> &parameters, const Type *result,
                               bool cConvention, uint64_t address, const std::string &loadSymbol) {
    std::string name = "ExternalFunction(" + symbol + ": " + result->name() + "(";
    for (size_t i = 0; i < parameters.size(); ++i)
      name += (i ? ", " : "") + parameters[i]->name();
    // The load symbol names the library: code (and so the job hash) differs with it.
    name += std::string(")") + (cConvention ? ", C" : "") +
            (loadSymbol.empty() ? "" : ", " + loadSymbol) + ")";
    Type type = make(TypeKind::ExternalFunction, name);
    type.textValue = symbol;
    type.elementTypes = parameters;
    type.elementType = result;
    type.signedness = cConvention;
    type.addressValue = address;
    type.loadSymbolValue = loadSymbol;
    // Two ctypes functions may share a name and signature but not an address.
    return intern(std::move(type), name + "@" + std::to_string(address));
  }

  const Type *firstClassFunction(const std::vector<const Type *> &parameters, const Type *result) {
    std::string name = "FunctionType[" + result->name() + "(";
    for (size_t i = 0; i < parameters.size(); ++i)
      name += (i ? ", " : "") + parameters[i]->name();
    name += ")]";
    Type type = make(TypeKind::FirstClassFunction, name);
    type.elementTypes = parameters;
    type.elementType = result;
    return intern(std::move(type), name + "|" + keysOf(parameters) + "|" + keysOf({result}));
  }

  const Type *undefinedFunction(const std::vector<const Type *> &members) {
    std::string name = "UndefinedFunctionType[";
    for (size_t i = 0; i < members.size(); ++i)
      name += (i ? ", " : "") + members[i]->name();
    name += "]";
    Type type = make(TypeKind::UndefinedFunction, name);
    type.elementTypes = members;
    return intern(std::move(type), name + "|" + keysOf(members));
  }

private:
  std::mutex mutex;
  std::unordered_map<const Type *, std::string> keys; ///< each type's key in byKey
  std::vector<std::unique_ptr<Type>> storage;
  std::unordered_map<std::string, const Type *> byKey;
};

bool Type::isRuntimeValue() const {
  if (typeKind == ClassInstanceKind)
    return true;
  if (typeKind == UserTypeKind) // a value once its data model is known
    return elementType != nullptr;
  switch (typeKind) {
  case TypeKind::Boolean:
  case TypeKind::Integer:
  case TypeKind::Float:
  case TypeKind::Complex:
  case TypeKind::None:
  case TypeKind::Array:
  case TypeKind::Range:
  case TypeKind::Slice:
  case TypeKind::Pointer:
  case TypeKind::Record:
  case TypeKind::Unicode:
  case TypeKind::List:
  case TypeKind::Dict:
  case TypeKind::Generator:
  case TypeKind::Set:
  case TypeKind::DictView:
  case TypeKind::Datetime:
  case TypeKind::Timedelta:
  case TypeKind::FirstClassFunction:
    return true;
  case TypeKind::Optional:
    return elementType->isRuntimeValue();
  case TypeKind::NestedArray: // a fixed-width string (types/CharSequences.h) is a value
    return elementType->kind() == TypeKind::StringLiteral;
  case TypeKind::Tuple:
    return std::all_of(elementTypes.begin(), elementTypes.end(),
                       [](const Type *t) { return t->isRuntimeValue(); });
  default:
    return false;
  }
}

bool Type::isBlockReference() const {
  switch (typeKind) {
  case TypeKind::ClassInstance:
  case TypeKind::Unicode:
  case TypeKind::List:
  case TypeKind::Dict:
  case TypeKind::Generator:
  case TypeKind::Set:
  case TypeKind::DictView:
    return true;
  default:
    return false;
  }
}

bool Type::holdsReferences() const {
  if (typeKind == TypeKind::Array || isBlockReference())
    return true;
  if (typeKind == UserTypeKind) // as its data model (a StructModel's members may be arrays)
    return elementType && elementType->holdsReferences();
  if (typeKind == TypeKind::Optional) // None's payload is null pointers
    return elementType->holdsReferences();
  return typeKind == TypeKind::Tuple &&
         std::any_of(elementTypes.begin(), elementTypes.end(),
                     [](const Type *t) { return t->holdsReferences(); });
}

const Type *Type::viewItemType() const {
  if (!keyType())
    return nullptr;
  if (dimensions == 2)
    return types::tuple({keyType(), valueType()});
  return dimensions == 0 ? keyType() : valueType();
}

bool Type::isUniformTuple() const {
  return isTuple() && !elementTypes.empty() &&
         std::all_of(elementTypes.begin(), elementTypes.end(),
                     [&](const Type *t) { return t == elementTypes.front(); });
}

int Type::fieldIndex(const std::string &name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<int>(i);
  return -1;
}

size_t Type::itemSize() const {
  if (typeKind == TypeKind::Record)
    return static_cast<size_t>(addressValue);
  if (typeKind == TypeKind::NestedArray) {
    size_t count = 1;
    for (int64_t extent : extents)
      count *= static_cast<size_t>(extent);
    if (elementType->kind() == TypeKind::StringLiteral) // UCS4 or byte characters
      return count * (elementType->text() == "unichr" ? 4 : 1);
    return count * elementType->itemSize();
  }
  return storageSize();
}

static size_t alignTo(size_t offset, size_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

size_t Type::storageSize() const {
  if (typeKind == ClassInstanceKind)
    return 8; // the block's address
  if (typeKind == UserTypeKind) {
    // laid out as its data model
    return elementType ? elementType->storageSize() : 0;
  }
  switch (typeKind) {
  case TypeKind::Boolean:
    return 1;
  case TypeKind::Integer:
  case TypeKind::Float:
  case TypeKind::Complex:
    return static_cast<size_t>(bitWidth / 8);
  case TypeKind::Range:
    return 24;
  case TypeKind::Slice:
    return 32;
  case TypeKind::FirstClassFunction: // the address, the Python object, whether jitted
    return 24;
  case TypeKind::Pointer:
  case TypeKind::Record: // a record value is the address of its bytes
  case TypeKind::Unicode:
  case TypeKind::List:
  case TypeKind::Dict:
  case TypeKind::Generator:
  case TypeKind::Set:
  case TypeKind::DictView:
  case TypeKind::Datetime:
  case TypeKind::Timedelta:
    return 8;
  case TypeKind::Array:
    return ArrayLayout::shapeOffset + 16 * static_cast<size_t>(dimensions);
  case TypeKind::NestedArray: // its characters, held by value (types/CharSequences.h)
    return elementType->kind() == TypeKind::StringLiteral ? itemSize() : 0;
  case TypeKind::Optional:
    return alignTo(optionalValueOffset() + elementType->storageSize(), storageAlignment());
  case TypeKind::Tuple: {
    if (elementTypes.empty())
      return 0;
    size_t end = elementOffset(elementTypes.size() - 1) + elementTypes.back()->storageSize();
    return alignTo(end, storageAlignment());
  }
  default:
    return 0; // none and the compile-time types occupy nothing
  }
}

size_t Type::storageAlignment() const {
  if (typeKind == UserTypeKind)
    return elementType ? elementType->storageAlignment() : 1;
  switch (typeKind) {
  case TypeKind::Complex:
    return static_cast<size_t>(bitWidth / 16);
  case TypeKind::Range:
  case TypeKind::Slice:
  case TypeKind::Array:
  case TypeKind::Record:
  case TypeKind::FirstClassFunction:
    return 8;
  case TypeKind::Optional:
    return elementType->storageAlignment();
  case TypeKind::NestedArray: { // a fixed-width string: its character's
    bool codePoints =
        elementType->kind() == TypeKind::StringLiteral && elementType->text() == "unichr";
    return codePoints ? 4 : 1;
  }
  case TypeKind::Tuple: {
    size_t alignment = 1;
    for (const Type *element : elementTypes)
      alignment = std::max(alignment, element->storageAlignment());
    return alignment;
  }
  default:
    return std::max<size_t>(1, storageSize());
  }
}

size_t Type::optionalValueOffset() const { return alignTo(1, elementType->storageAlignment()); }

size_t Type::elementOffset(size_t index) const {
  size_t offset = 0;
  for (size_t i = 0; i <= index; ++i) {
    offset = alignTo(offset, elementTypes[i]->storageAlignment());
    if (i < index)
      offset += elementTypes[i]->storageSize();
  }
  return offset;
}

namespace types {

const Type *boolean() {
  static const Type *type = TypeContext::get().scalar(TypeKind::Boolean, 8, false, "bool");
  return type;
}

const Type *integer(int bits, bool isSigned) {
  return TypeContext::get().scalar(TypeKind::Integer, bits, isSigned,
                                   (isSigned ? "int" : "uint") + std::to_string(bits));
}

const Type *int64() {
  static const Type *type = integer(64, true);
  return type;
}

const Type *uint64() {
  static const Type *type = integer(64, false);
  return type;
}

const Type *intp() { return int64(); }

const Type *floating(int bits) {
  return TypeContext::get().scalar(TypeKind::Float, bits, true, "float" + std::to_string(bits));
}

const Type *float32() {
  static const Type *type = floating(32);
  return type;
}

const Type *float64() {
  static const Type *type = floating(64);
  return type;
}

const Type *complex(int bits) {
  return TypeContext::get().scalar(TypeKind::Complex, bits, true, "complex" + std::to_string(bits));
}

const Type *complex128() {
  static const Type *type = complex(128);
  return type;
}

const Type *none() {
  static const Type *type = TypeContext::get().scalar(TypeKind::None, 0, false, "none");
  return type;
}

const Type *tuple(const std::vector<const Type *> &elements) {
  return TypeContext::get().tuple(elements);
}

const Type *literalList(const std::vector<const Type *> &items) {
  return TypeContext::get().literalList(items);
}

const Type *namedTuple(const std::string &className, int classId,
                       const std::vector<std::string> &fields,
                       const std::vector<const Type *> &elements) {
  return TypeContext::get().namedTuple(className, classId, fields, elements);
}

const Type *array(const Type *dtype, int ndim, char layout, bool readonly) {
  return TypeContext::get().array(dtype, ndim, layout, readonly);
}

const Type *range() {
  static const Type *type = TypeContext::get().scalar(TypeKind::Range, 0, false, "range_state64");
  return type;
}

const Type *sliceValue(bool hasStep) {
  // bits() tells the two apart: 3 parts or 2.
  static const Type *withStep = TypeContext::get().scalar(TypeKind::Slice, 3, false, "slice3_type");
  static const Type *unitStep = TypeContext::get().scalar(TypeKind::Slice, 2, false, "slice2_type");
  return hasStep ? withStep : unitStep;
}

const Type *stringLiteral(const std::string &text) {
  return TypeContext::get().named(TypeKind::StringLiteral, "Literal[str]", text);
}

const Type *unicode() {
  static const Type *type = TypeContext::get().scalar(TypeKind::Unicode, 0, false, "unicode_type");
  return type;
}

const Type *module(const std::string &name) {
  return TypeContext::get().named(TypeKind::Module, "Module", name);
}

const Type *builtin(const std::string &qualifiedName) {
  return TypeContext::get().named(TypeKind::Builtin, "Function", qualifiedName);
}

const Type *optional(const Type *value) { return TypeContext::get().optional(value); }

const Type *generator(const Type *yield) { return TypeContext::get().generator(yield); }

const Type *jitFunction(FunctionSource *function) {
  return TypeContext::get().named(TypeKind::JitFunction, "Dispatcher", "", function);
}

const Type *exceptionClass(int id, const std::string &name) {
  return TypeContext::get().named(TypeKind::ExceptionClass, "ExceptionClass", name, nullptr, id);
}

const Type *overload(int id, const std::string &name) {
  return TypeContext::get().named(TypeKind::Overload, "Overload", name, nullptr, id);
}

const Type *intrinsic(int id, const std::string &name) {
  return TypeContext::get().named(TypeKind::Intrinsic, "Intrinsic", name, nullptr, id);
}

const Type *list(const Type *item) { return TypeContext::get().list(item, false); }
const Type *typedList(const Type *item) { return TypeContext::get().list(item, true); }
const Type *listLike(const Type *like, const Type *item) {
  return like && like->isList() && !like->isReflected() ? typedList(item) : list(item);
}

const Type *datetime(int unit) { return TypeContext::get().datetimeLike(TypeKind::Datetime, unit); }

const Type *timedelta(int unit) {
  return TypeContext::get().datetimeLike(TypeKind::Timedelta, unit);
}
const Type *dict(const Type *key, const Type *value) { return TypeContext::get().dict(key, value); }
const Type *dictView(const Type *dict, int which) {
  return TypeContext::get().dictView(dict, which);
}
const Type *set(const Type *key) { return TypeContext::get().set(key, false); }
const Type *frozenset(const Type *key) { return TypeContext::get().set(key, true); }
const Type *setLike(const Type *like, const Type *key) {
  return like && like->isFrozen() ? frozenset(key) : set(key);
}

static void collectReferenceOffsets(const Type *type, int64_t base, std::vector<int64_t> &offsets) {
  if (type->isArray())
    offsets.push_back(base + static_cast<int64_t>(ArrayLayout::memInfoOffset));
  else if (type->isBlockReference())
    offsets.push_back(base);
  else if (type->isTuple())
    for (size_t i = 0; i < type->elements().size(); ++i)
      collectReferenceOffsets(type->elements()[i],
                              base + static_cast<int64_t>(type->elementOffset(i)), offsets);
  else if (type->isOptional()) // null when None
    collectReferenceOffsets(type->optionalValue(),
                            base + static_cast<int64_t>(type->optionalValueOffset()), offsets);
  else if (isUserType(type) && userTypeLayout(type)) // laid out as its data model
    collectReferenceOffsets(userTypeLayout(type), base, offsets);
}

bool holdsArray(const Type *type) {
  if (type->isArray())
    return true;
  if (type->isOptional())
    return holdsArray(type->optionalValue());
  if (isUserType(type))
    return userTypeLayout(type) && holdsArray(userTypeLayout(type));
  return type->isTuple() && std::any_of(type->elements().begin(), type->elements().end(),
                                        [](const Type *t) { return holdsArray(t); });
}

std::vector<int64_t> referenceOffsets(const Type *type) {
  std::vector<int64_t> offsets;
  if (type)
    collectReferenceOffsets(type, 0, offsets);
  return offsets;
}

const Type *pointer(const Type *pointee) { return TypeContext::get().pointer(pointee); }

const Type *externalFunction(const std::string &symbol, const std::vector<const Type *> &parameters,
                             const Type *result, bool cConvention, uint64_t address,
                             const std::string &loadSymbol) {
  return TypeContext::get().externalFunction(symbol, parameters, result, cConvention, address,
                                             loadSymbol);
}

const Type *firstClassFunction(const std::vector<const Type *> &parameters, const Type *result) {
  return TypeContext::get().firstClassFunction(parameters, result);
}

const Type *undefinedFunction(std::vector<const Type *> members) {
  std::sort(members.begin(), members.end(), [](const Type *a, const Type *b) {
    return a->name() < b->name() || (a->name() == b->name() && a < b);
  });
  members.erase(std::unique(members.begin(), members.end()), members.end());
  return TypeContext::get().undefinedFunction(members);
}

const Type *firstClassFunctionOf(const Type *type) {
  if (!type || type->kind() != TypeKind::ExternalFunction || !type->address() ||
      !type->usesCConvention())
    return nullptr;
  return firstClassFunction(type->parameterTypes(), type->resultType());
}

const Type *record(const std::vector<std::string> &names, const std::vector<const Type *> &fields,
                   const std::vector<int64_t> &offsets, size_t itemSize, bool aligned) {
  return TypeContext::get().record(names, fields, offsets, itemSize, aligned);
}

const Type *nestedArray(const Type *dtype, const std::vector<int64_t> &shape) {
  return TypeContext::get().nestedArray(dtype, shape);
}

const Type *dtypeValue(const Type *dtype) { return TypeContext::get().dtypeValue(dtype); }

const Type *classInstance(int classId, const std::string &className,
                          const std::string &displayName) {
  return TypeContext::get().classInstance(classId, className, displayName);
}

bool defineClassFields(const Type *instance, const std::vector<std::string> &names,
                       const std::vector<const Type *> &fields) {
  return TypeContext::get().defineClassFields(instance, names, fields);
}

const Type *userType(int id, const std::string &name) {
  return TypeContext::get().userType(id, name);
}

bool defineUserTypeModel(const Type *type, const std::vector<std::string> &memberNames,
                         const Type *layout) {
  return TypeContext::get().defineUserTypeModel(type, memberNames, layout);
}

const Type *scalarByName(const std::string &name) {
  static const std::map<std::string, const Type *> table = [] {
    std::map<std::string, const Type *> names;
    for (int bits : {8, 16, 32, 64}) {
      std::string width = std::to_string(bits);
      std::string bytes = std::to_string(bits / 8);
      names["int" + width] = names["i" + bytes] = integer(bits, true);
      names["uint" + width] = names["u" + bytes] = integer(bits, false);
    }
    names["intp"] = names["intc"] = int64();
    names["intc"] = integer(32, true);
    names["uintp"] = uint64();
    names["uintc"] = integer(32, false);
    names["float16"] = names["f2"] = names["half"] = floating(16);
    names["float32"] = names["f4"] = float32();
    names["float64"] = names["f8"] = names["double"] = float64();
    names["complex64"] = names["c8"] = complex(64);
    names["complex128"] = names["c16"] = complex128();
    names["bool"] = names["boolean"] = names["b1"] = names["bool_"] = boolean();
    names["none"] = names["void"] = none();
    names["unicode_type"] = unicode();
    return names;
  }();
  auto found = table.find(name);
  return found == table.end() ? nullptr : found->second;
}

} // namespace types
} // namespace taipan
