// Type interning, the shorthand accessors that span classes of types, and the checks of
// accessors read on the wrong kind.
#include "types/Type.h"

#include "types/ClassInstanceTypes.h"
#include "types/DataModels.h"
#include "types/DatetimeUnits.h"
#include "types/UserTypes.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace taipan {

/// Owns every Type; one per process.
class TypeContext {
public:
  static TypeContext &get() {
    static TypeContext context;
    return context;
  }

  /// The type interned under `key`, or `candidate` (made only when the key is new).
  template <typename Make> const Type *intern(const std::string &key, Make make) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = byKey.find(key);
    if (found != byKey.end())
      return found->second;
    std::unique_ptr<Type> owned(make());
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

  const Type *number(TypeKind kind, int bits, bool isSigned, const std::string &name) {
    return intern(name, [&] { return new NumberType(kind, name, bits, isSigned); });
  }

  /// A type of `kind` with no payload (none, range state, unicode).
  const Type *plain(TypeKind kind, const std::string &name) {
    return intern(name, [&] { return new PlainType(kind, name); });
  }

  const Type *slice(bool hasStep) {
    std::string name = hasStep ? "slice3_type" : "slice2_type";
    return intern(name, [&] { return new SliceType(name, hasStep); });
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
    return intern(name + "|" + keysOf(elements),
                  [&] { return new TupleType(name, elements, TupleType::Form::Plain); });
  }

  const Type *literalList(const std::vector<const Type *> &items) {
    std::string name = "LiteralList((";
    for (size_t i = 0; i < items.size(); ++i)
      name += (i ? ", " : "") + items[i]->name();
    name += "))";
    return intern(name + "|" + keysOf(items),
                  [&] { return new TupleType(name, items, TupleType::Form::LiteralList); });
  }

  const Type *namedTuple(const std::string &className, int classId,
                         const std::vector<std::string> &fields,
                         const std::vector<const Type *> &elements) {
    const Type *plainTuple = tuple(elements);
    std::string shown = plainTuple->name();
    bool uniform = plainTuple->isUniformTuple();
    std::string name = (uniform ? "NamedUniTuple(" : "NamedTuple(") +
                       shown.substr(shown.find('(') + 1, shown.size() - shown.find('(') - 2) +
                       ", " + className.substr(className.rfind('.') + 1) + ")";
    return intern(name + "#" + std::to_string(classId) + "|" + keysOf(elements),
                  [&] { return new NamedTupleType(name, elements, className, classId, fields); });
  }

  const Type *array(const Type *dtype, int ndim, char layout, bool readonly) {
    std::string name = std::string(readonly ? "readonly " : "") + "array(" + dtype->name() + ", " +
                       std::to_string(ndim) + "d, " + layout + ")";
    return intern(name + "|" + keysOf({dtype}),
                  [&] { return new ArrayType(name, dtype, ndim, layout, readonly); });
  }

  const Type *record(const std::vector<std::string> &names, const std::vector<const Type *> &fields,
                     const std::vector<int64_t> &offsets, size_t itemSize, bool aligned) {
    std::string name = "Record(";
    for (size_t i = 0; i < fields.size(); ++i)
      name += (i ? "," : "") + names[i] + "[type=" + fields[i]->name() +
              ";offset=" + std::to_string(offsets[i]) + "]";
    name += ";" + std::to_string(itemSize) + ";" + (aligned ? "True" : "False") + ")";
    return intern(name,
                  [&] { return new RecordType(name, names, fields, offsets, itemSize, aligned); });
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
    return intern(name + "|" + keysOf({dtype}),
                  [&] { return new NestedArrayType(name, dtype, shape); });
  }

  /// A DType object, an Optional, a generator or a pointer: `name` shown, made of `inner`.
  const Type *wrapper(TypeKind kind, const std::string &name, const Type *inner) {
    return intern(name + "|" + keysOf({inner}), [&] { return new WrapperType(kind, name, inner); });
  }

  const Type *symbol(TypeKind kind, const std::string &prefix, const std::string &text) {
    std::string name = prefix + "(" + text + ")";
    return intern(name + "#0", [&] { return new SymbolType(kind, name, text); });
  }

  const Type *jitFunction(FunctionSource *function) {
    std::string name = "Dispatcher()@" + std::to_string(reinterpret_cast<uintptr_t>(function));
    return intern(name + "#0", [&] { return new JitFunctionType(name, function); });
  }

  const Type *registryEntry(TypeKind kind, const std::string &prefix, int id,
                            const std::string &text) {
    std::string name = prefix + "(" + text + ")";
    return intern(name + "#" + std::to_string(id),
                  [&] { return new RegistryEntryType(kind, name, id, text); });
  }

  const Type *datetimeLike(TypeKind kind, int unit) {
    std::string name = std::string(kind == TypeKind::Datetime ? "datetime64[" : "timedelta64[") +
                       datetimeUnitName(unit) + "]";
    return intern(name, [&] { return new DatetimeType(kind, name, unit, datetimeUnitName(unit)); });
  }

  const Type *list(const Type *item, bool typed) {
    std::string itemName = item ? item->name() : std::string("undefined");
    std::string name = typed ? "ListType[" + itemName + "]" : "list(" + itemName + ")";
    return intern(name + "|" + keysOf({item}), [&] { return new ListType(name, item, typed); });
  }

  const Type *dict(const Type *key, const Type *value) {
    std::string name = key && value ? "DictType[" + key->name() + "," + value->name() + "]"
                                    : std::string("DictType[undefined,undefined]");
    std::vector<const Type *> members;
    if (key && value)
      members = {key, value};
    return intern(name + "|" + keysOf({key, value}),
                  [&] { return new HashedContainerType(TypeKind::Dict, name, members, false); });
  }

  const Type *dictView(const Type *dict, int which) {
    static const char *const prefixes[] = {"dict_keys[", "dict_values[", "dict_items["};
    std::string name = prefixes[which] + dict->name() + "]";
    return intern(name + "|" + keysOf({dict}), [&] { return new DictViewType(name, dict, which); });
  }

  const Type *set(const Type *key, bool frozen) {
    std::string name = (frozen ? "frozenset(" : "reflected set(") +
                       (key ? key->name() : std::string("undefined")) + ")";
    std::vector<const Type *> members;
    if (key)
      members = {key};
    return intern(name + "|" + keysOf({key}),
                  [&] { return new HashedContainerType(TypeKind::Set, name, members, frozen); });
  }

  const Type *classInstance(int classId, const std::string &className,
                            const std::string &displayName) {
    return intern("jitclass#" + std::to_string(classId), [&] {
      return new PythonDefinedType(ClassInstanceKind, displayName, classId, className);
    });
  }

  const Type *userType(int id, const std::string &name) {
    return intern("usertype#" + std::to_string(id),
                  [&] { return new PythonDefinedType(UserTypeKind, name, id, ""); });
  }

  /// Gives a jitclass or user type its members, once: false, changing nothing, when it has them.
  bool defineMembers(const Type *type, const std::vector<std::string> &names,
                     const std::vector<const Type *> &memberTypes, const Type *layout) {
    std::lock_guard<std::mutex> lock(mutex);
    // Owned here and immutable once its members are given; given once, under the lock.
    auto *defined = const_cast<PythonDefinedType *>(cast<PythonDefinedType>(type));
    if (defined->layoutType)
      return false;
    defined->names = names;
    defined->types = memberTypes;
    defined->layoutType = layout;
    return true;
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
    // Two ctypes functions may share a name and signature but not an address.
    return intern(name + "@" + std::to_string(address), [&] {
      return new FunctionSignatureType(TypeKind::ExternalFunction, name, parameters, result, symbol,
                                       cConvention, address, loadSymbol);
    });
  }

  const Type *firstClassFunction(const std::vector<const Type *> &parameters, const Type *result) {
    std::string name = "FunctionType[" + result->name() + "(";
    for (size_t i = 0; i < parameters.size(); ++i)
      name += (i ? ", " : "") + parameters[i]->name();
    name += ")]";
    return intern(name + "|" + keysOf(parameters) + "|" + keysOf({result}), [&] {
      return new FunctionSignatureType(TypeKind::FirstClassFunction, name, parameters, result);
    });
  }

  const Type *undefinedFunction(const std::vector<const Type *> &members) {
    std::string name = "UndefinedFunctionType[";
    for (size_t i = 0; i < members.size(); ++i)
      name += (i ? ", " : "") + members[i]->name();
    name += "]";
    return intern(name + "|" + keysOf(members),
                  [&] { return new UndefinedFunctionType(name, members); });
  }

private:
  /// A type whose kind says all: none, range state, unicode.
  class PlainType final : public Type {
  public:
    PlainType(TypeKind kind, std::string name) : Type(kind, std::move(name)) {}
  };

  std::mutex mutex;
  std::unordered_map<const Type *, std::string> keys; ///< each type's key in byKey
  std::vector<std::unique_ptr<Type>> storage;
  std::unordered_map<std::string, const Type *> byKey;
};

bool Type::isRuntimeValue() const { return dataModelOf(this).isRuntimeValue(this); }

bool Type::isBlockReference() const { return dataModelOf(this).isBlockReference(this); }

bool Type::holdsReferences() const { return dataModelOf(this).holdsReferences(this); }

const std::vector<const Type *> &Type::elements() const {
  static const std::vector<const Type *> none;
  if (auto *tuple = dyn_cast<TupleType>(this))
    return tuple->items();
  if (auto *record = dyn_cast<RecordType>(this))
    return record->fields();
  if (auto *container = dyn_cast<HashedContainerType>(this))
    return container->members();
  if (auto *view = dyn_cast<DictViewType>(this))
    return view->dict()->elements();
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->parameters();
  if (auto *undefined = dyn_cast<UndefinedFunctionType>(this))
    return undefined->members();
  if (auto *defined = dyn_cast<PythonDefinedType>(this))
    return defined->memberTypes();
  return none;
}

const std::vector<std::string> &Type::fieldNames() const {
  static const std::vector<std::string> none;
  if (auto *record = dyn_cast<RecordType>(this))
    return record->names();
  if (auto *named = dyn_cast<NamedTupleType>(this))
    return named->fields();
  if (auto *defined = dyn_cast<PythonDefinedType>(this))
    return defined->memberNames();
  reportForeignTypeAccess("fieldNames", this, __builtin_return_address(0));
  return none;
}

const std::vector<const Type *> &Type::fieldTypes() const {
  static const std::vector<const Type *> none;
  if (auto *record = dyn_cast<RecordType>(this))
    return record->fields();
  if (auto *defined = dyn_cast<PythonDefinedType>(this))
    return defined->memberTypes();
  reportForeignTypeAccess("fieldTypes", this, __builtin_return_address(0));
  return none;
}

const Type *Type::keyType() const {
  const std::vector<const Type *> &members = elements();
  if (isa<HashedContainerType>(this) || isa<DictViewType>(this))
    return members.empty() ? nullptr : members[0];
  reportForeignTypeAccess("keyType", this, __builtin_return_address(0));
  return nullptr;
}

const Type *Type::valueType() const {
  const std::vector<const Type *> &members = elements();
  if (isa<HashedContainerType>(this) || isa<DictViewType>(this))
    return members.size() < 2 ? nullptr : members[1];
  reportForeignTypeAccess("valueType", this, __builtin_return_address(0));
  return nullptr;
}

const std::string &Type::text() const {
  static const std::string none;
  if (auto *symbol = dyn_cast<SymbolType>(this))
    return symbol->symbol();
  if (auto *entry = dyn_cast<RegistryEntryType>(this))
    return entry->entryName();
  if (auto *function = dyn_cast<FunctionSignatureType>(this))
    return function->symbol();
  if (auto *named = dyn_cast<NamedTupleType>(this))
    return named->className();
  if (auto *defined = dyn_cast<PythonDefinedType>(this))
    return defined->className();
  if (auto *datetime = dyn_cast<DatetimeType>(this))
    return datetime->unitName();
  if (!isa<JitFunctionType>(this))
    reportForeignTypeAccess("text", this, __builtin_return_address(0));
  return none;
}

const Type *Type::viewItemType() const {
  if (!keyType())
    return nullptr;
  if (viewKind() == 2)
    return types::tuple({keyType(), valueType()});
  return viewKind() == 0 ? keyType() : valueType();
}

bool Type::isUniformTuple() const {
  auto *tuple = dyn_cast<TupleType>(this);
  return tuple && !tuple->items().empty() &&
         std::all_of(tuple->items().begin(), tuple->items().end(),
                     [&](const Type *t) { return t == tuple->items().front(); });
}

int Type::fieldIndex(const std::string &name) const {
  const std::vector<std::string> &names = fieldNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return static_cast<int>(i);
  return -1;
}

size_t Type::itemSize() const {
  if (auto *record = dyn_cast<RecordType>(this))
    return record->size();
  if (auto *nested = dyn_cast<NestedArrayType>(this)) {
    size_t count = 1;
    for (int64_t extent : nested->shape())
      count *= static_cast<size_t>(extent);
    const Type *element = nested->elementType();
    if (element->kind() == TypeKind::StringLiteral) // UCS4 or byte characters
      return count * (element->text() == "unichr" ? 4 : 1);
    return count * element->itemSize();
  }
  return storageSize();
}

size_t Type::storageSize() const { return dataModelOf(this).storageSize(this); }

size_t Type::storageAlignment() const { return dataModelOf(this).storageAlignment(this); }

size_t Type::optionalValueOffset() const { return alignTo(1, optionalValue()->storageAlignment()); }

size_t Type::elementOffset(size_t index) const {
  const std::vector<const Type *> &items = elements();
  size_t offset = 0;
  for (size_t i = 0; i <= index; ++i) {
    offset = alignTo(offset, items[i]->storageAlignment());
    if (i < index)
      offset += items[i]->storageSize();
  }
  return offset;
}

static bool strictTypeAccess() {
  static const bool strict = [] {
    const char *setting = std::getenv("TAIPAN_STRICT_TYPES");
    return setting && *setting && std::string(setting) != "0";
  }();
  return strict;
}

/// Where `address` lies: the shared object and the offset in it (for addr2line).
static std::string codeLocation(const void *address) {
  Dl_info info;
  if (!address || !dladdr(address, &info) || !info.dli_fname)
    return "an unknown caller";
  std::ostringstream text;
  text << info.dli_fname << "+0x" << std::hex
       << (reinterpret_cast<uintptr_t>(address) - reinterpret_cast<uintptr_t>(info.dli_fbase));
  return text.str();
}

void reportForeignTypeAccess(const char *accessor, const Type *type, const void *caller) {
  if (strictTypeAccess())
    throw std::logic_error(std::string("the type accessor ") + accessor + "() was read on " +
                           type->name() + ", a type of another kind (called from " +
                           codeLocation(caller) + ")");
}

void failedTypeCast(const Type *type) {
  throw std::logic_error("a type cast to the wrong class of type: " + type->name() +
                         " (called from " + codeLocation(__builtin_return_address(0)) + ")");
}

namespace types {

const Type *boolean() {
  static const Type *type = TypeContext::get().number(TypeKind::Boolean, 8, false, "bool");
  return type;
}

const Type *integer(int bits, bool isSigned) {
  return TypeContext::get().number(TypeKind::Integer, bits, isSigned,
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
  return TypeContext::get().number(TypeKind::Float, bits, true, "float" + std::to_string(bits));
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
  return TypeContext::get().number(TypeKind::Complex, bits, true, "complex" + std::to_string(bits));
}

const Type *complex128() {
  static const Type *type = complex(128);
  return type;
}

const Type *none() {
  static const Type *type = TypeContext::get().plain(TypeKind::None, "none");
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
  static const Type *type = TypeContext::get().plain(TypeKind::Range, "range_state64");
  return type;
}

const Type *sliceValue(bool hasStep) {
  static const Type *withStep = TypeContext::get().slice(true);
  static const Type *unitStep = TypeContext::get().slice(false);
  return hasStep ? withStep : unitStep;
}

const Type *stringLiteral(const std::string &text) {
  return TypeContext::get().symbol(TypeKind::StringLiteral, "Literal[str]", text);
}

const Type *unicode() {
  static const Type *type = TypeContext::get().plain(TypeKind::Unicode, "unicode_type");
  return type;
}

const Type *module(const std::string &name) {
  return TypeContext::get().symbol(TypeKind::Module, "Module", name);
}

const Type *builtin(const std::string &qualifiedName) {
  return TypeContext::get().symbol(TypeKind::Builtin, "Function", qualifiedName);
}

const Type *optional(const Type *value) {
  return TypeContext::get().wrapper(TypeKind::Optional, "OptionalType(" + value->name() + ")",
                                    value);
}

const Type *generator(const Type *yield) {
  return TypeContext::get().wrapper(TypeKind::Generator, "Generator(" + yield->name() + ")", yield);
}

const Type *jitFunction(FunctionSource *function) {
  return TypeContext::get().jitFunction(function);
}

const Type *exceptionClass(int id, const std::string &name) {
  return TypeContext::get().registryEntry(TypeKind::ExceptionClass, "ExceptionClass", id, name);
}

const Type *overload(int id, const std::string &name) {
  return TypeContext::get().registryEntry(TypeKind::Overload, "Overload", id, name);
}

const Type *intrinsic(int id, const std::string &name) {
  return TypeContext::get().registryEntry(TypeKind::Intrinsic, "Intrinsic", id, name);
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
    collectBlockOffsets(dataModelOf(type).representation(type), 0, offsets);
  return offsets;
}

const Type *pointer(const Type *pointee) {
  return TypeContext::get().wrapper(
      TypeKind::Pointer, (pointee ? pointee->name() : std::string("void")) + "*", pointee);
}

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

const Type *dtypeValue(const Type *dtype) {
  return TypeContext::get().wrapper(TypeKind::DType, "dtype(" + dtype->name() + ")", dtype);
}

const Type *classInstance(int classId, const std::string &className,
                          const std::string &displayName) {
  return TypeContext::get().classInstance(classId, className, displayName);
}

bool defineClassFields(const Type *instance, const std::vector<std::string> &names,
                       const std::vector<const Type *> &fields) {
  return TypeContext::get().defineMembers(instance, names, fields, tuple(fields));
}

const Type *userType(int id, const std::string &name) {
  return TypeContext::get().userType(id, name);
}

bool defineUserTypeModel(const Type *type, const std::vector<std::string> &memberNames,
                         const Type *layout) {
  return TypeContext::get().defineMembers(type, memberNames, {}, layout);
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
