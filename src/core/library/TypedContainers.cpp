// Numba's typed containers made in compiled code: `taipan.typed.List()`, `List(iterable)`,
// `List.empty_list(item_type)`, `taipan.typed.Dict()` and `Dict.empty(key_type, value_type)`.
// A typed list is the block of a reflected list (types::typedList); a dict is already Numba's
// DictType. These entries only choose the type and reuse the list and dict lowerings.
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/LoweringApi.h"
#include "typing/BuiltinTyping.h"
#include "typing/DictTyping.h"

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// The type a type argument names: `types.int64`, `np.float64` (builtins), a type object
/// global (`types.unicode_type`, `types.float64[:]`, `types.ListType(...)`), or a typed
/// container value; null otherwise.
const Type *namedType(const Type *argument) {
  if (argument->kind() == TypeKind::DType)
    return argument->dtype();
  // A typed container given as an example of the items (Numba's
  // `List.empty_list(Dict.empty(k, v))`) names its own type.
  if (argument->isDict() || (argument->isList() && !argument->isReflected()))
    return argument->keyType() || argument->itemType() ? argument : nullptr;
  if (argument->kind() == TypeKind::Builtin) {
    const std::string &name = argument->text();
    if (name == "str")
      return types::unicode();
    return scalarConstructorType(name);
  }
  return nullptr;
}

/// The type argument `index` of `call`, which must name a type items can have.
const Type *typeArgument(const LibraryCall &call, size_t index, const char *what) {
  const Type *type = call.argumentTypes.size() > index && call.argumentTypes[index]
                         ? namedType(call.argumentTypes[index])
                         : nullptr;
  if (!type || !type->isRuntimeValue() || type->isNone())
    throwTypingError(call.function->name + "() needs a type for its " + what + " (such as " +
                         "types.int64), not " +
                         (call.argumentTypes.size() > index && call.argumentTypes[index]
                              ? call.argumentTypes[index]->name()
                              : std::string("nothing")),
                     call.location);
  return type;
}

} // namespace

void registerTypedContainerFunctions(Library &library) {
  // typed.List() and typed.List(iterable): the list() builtin's rules, typed.
  addCpu(
      library, "taipan.typed.List", {{"", true}},
      [](LibraryCall &call) {
        if (!call.argumentTypes.empty() && !call.argumentTypes[0]->isList() &&
            call.argumentTypes[0]->kind() != TypeKind::Range &&
            !call.argumentTypes[0]->isUniformTuple() && !call.argumentTypes[0]->isArray())
          throwTypingError("List() argument must be iterable (a list, range, uniform tuple or "
                           "1-d array), not " +
                               call.argumentTypes[0]->name(),
                           call.location);
        const Type *list = Library::get().find("list")->type(call);
        return types::typedList(list->itemType());
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        return Library::get().find("list")->lower(lowering, call, values);
      });
  addCpu(
      library, "taipan.typed.List.empty_list", {{"item_type", false}, {"allocated", true}},
      [](LibraryCall &call) {
        if (call.argumentTypes.size() > 1 && call.argumentTypes[1] &&
            !call.argumentTypes[1]->isIntegerLike())
          throwNoOverload(call);
        return types::typedList(typeArgument(call, 0, "items"));
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
        return lowering.containers().newList(call.resultType, lowering.irBuilder().getInt64(0));
      });
  // typed.Dict() is `{}` (typed by the stores that follow); Dict.empty(k, v) is typed at once.
  addCpu(
      library, "taipan.typed.Dict", {}, [](LibraryCall &) { return types::dict(nullptr, nullptr); },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
        return lowering.containers().newDict(call.resultType);
      });
  addCpu(
      library, "taipan.typed.Dict.empty",
      {{"key_type", false}, {"value_type", false}, {"n_keys", true}},
      [](LibraryCall &call) {
        const Type *key = typeArgument(call, 0, "keys");
        const Type *value = typeArgument(call, 1, "values");
        const Type *dictKey = dictKeyType(key); // integer keys are int64, uint64 stays
        if (!dictKey || (dictKey != key && !key->isInteger()))
          throwTypingError("a dict cannot have keys of type " + key->name() +
                               " (keys are numbers, strings and tuples of them)",
                           call.location);
        if (dictValueType(value) != value)
          throwTypingError("a dict cannot hold values of type " + value->name(), call.location);
        return types::dict(dictKey, value);
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
        return lowering.containers().newDict(call.resultType);
      });
}

} // namespace taipan
