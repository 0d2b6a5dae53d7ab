// The type system: interned Type objects (numbers, tuples, arrays, and the compile-time-only
// types of modules, functions and exception classes). Equal types are the same pointer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace taipan {

class FunctionSource;

enum class TypeKind {
  Boolean,
  Integer,
  Float,
  Complex,
  None,
  Tuple,
  Array,
  Range,
  StringLiteral,    ///< a constant string (print and exception messages)
  Unicode,          ///< a string value (Numba's unicode_type): one pointer to its memory block
  Module,           ///< math, cmath, random, numpy, ...
  Builtin,          ///< a function or class taipan implements, by qualified name
  JitFunction,      ///< another jitted Python function
  ExceptionClass,   ///< a Python exception class, by the bindings' registry id
  Pointer,          ///< a raw address of elements (CPointer), or void*; passed to foreign code
  ExternalFunction, ///< a foreign function: cuda.declare_device's, or a ctypes function's
  Overload,         ///< a function implemented in Python for compiled code (taipan.extending)
  Intrinsic,        ///< a function written in LLVM IR text (taipan.extending.intrinsic)
  Optional,         ///< a value of one type or None (Numba's Optional), decided at run time
  Record,           ///< a NumPy structured dtype; a value is the address of one record's bytes
  NestedArray,      ///< a fixed-shape subarray field of a record (`('v', 'f8', (3,))`)
  DType,            ///< a NumPy dtype object used as a value (`np.empty(n, dtype=rec)`)
  List,             ///< a list: one pointer to a reference-counted block (runtime/Lists.h)
  Dict,             ///< a dict: one pointer to a reference-counted block (runtime/Dicts.h)
  Generator, ///< a generator: one pointer to a block holding its coroutine (runtime/Generators.h)
  Slice,     ///< a slice object: {start, stop, step, which were None} (types::sliceValue)
  Set,       ///< a set: one pointer to a reference-counted block (runtime/Sets.h)
  Datetime,  ///< NumPy datetime64[unit]: an int64 count of units, NaT = INT64_MIN
  Timedelta, ///< NumPy timedelta64[unit]: an int64 count of units, NaT = INT64_MIN
  ClassInstance, ///< a jitclass instance: one pointer to a block of its fields
                 ///< (types/ClassInstanceTypes.h, runtime/JitClasses.h)
  /// d.keys(), d.values() or d.items(): one pointer to the dict's block (a live view)
  DictView,
  /// Numba's first-class FunctionType(signature): a run-time value {address of a C-convention
  /// function, the Python object it came from or null, whether it is a jitted function's entry}
  /// (types::firstClassFunction)
  FirstClassFunction,
  /// Numba's UndefinedFunctionType: a variable assigned different jitted functions whose
  /// signature its calls decide (types::undefinedFunction); compile-time only
  UndefinedFunction,
  /// a type defined in Python (a subclass of types.Type, Numba's extension API) with the data
  /// model registered for it (types/UserTypes.h)
  UserType,
};

/// A type. Created only through the factory functions below, which intern it.
///
/// Each kind's data lives in its own class (types/TypeClasses.h: ArrayType, TupleType,
/// RecordType, ...), reached LLVM-style with isa<>, cast<> and dyn_cast<>. The accessors below
/// are shorthands for those classes' accessors: each reads one class's own payload and gives
/// an empty value for a type of another kind (reportForeignTypeAccess says where, in tests).
/// How values of a kind are laid out is its data model (types/DataModels.h).
class Type {
public:
  virtual ~Type() = default;
  Type(const Type &) = delete;
  Type &operator=(const Type &) = delete;

  TypeKind kind() const { return typeKind; }
  /// Numba's spelling: int64, float32, UniTuple(int64 x 3), array(float64, 1d, C), ...
  const std::string &name() const { return displayName; }

  bool isBoolean() const { return typeKind == TypeKind::Boolean; }
  bool isInteger() const { return typeKind == TypeKind::Integer; }
  bool isFloat() const { return typeKind == TypeKind::Float; }
  bool isComplex() const { return typeKind == TypeKind::Complex; }
  bool isNone() const { return typeKind == TypeKind::None; }
  bool isTuple() const { return typeKind == TypeKind::Tuple; }
  bool isArray() const { return typeKind == TypeKind::Array; }
  bool isPointer() const { return typeKind == TypeKind::Pointer; }
  bool isOptional() const { return typeKind == TypeKind::Optional; }
  bool isRecord() const { return typeKind == TypeKind::Record; }
  bool isUnicode() const { return typeKind == TypeKind::Unicode; }
  /// A string value or a string literal: what string operations take.
  bool isString() const { return isUnicode() || typeKind == TypeKind::StringLiteral; }
  bool isList() const { return typeKind == TypeKind::List; }
  bool isDict() const { return typeKind == TypeKind::Dict; }
  bool isGenerator() const { return typeKind == TypeKind::Generator; }
  bool isSet() const { return typeKind == TypeKind::Set; }
  bool isDictView() const { return typeKind == TypeKind::DictView; }
  bool isDatetime() const { return typeKind == TypeKind::Datetime; }
  bool isTimedelta() const { return typeKind == TypeKind::Timedelta; }
  /// datetime64 or timedelta64 (types/DatetimeUnits.h has their unit rules).
  bool isDatetimeLike() const { return isDatetime() || isTimedelta(); }
  /// Datetime and Timedelta: the unit's NumPy code (NPY_DATETIMEUNIT: 0 years ... 13 attoseconds,
  /// 14 generic); text() is its name ("ns", "" for generic).
  int datetimeUnit() const;
  /// Boolean, integer, float or complex: the types arithmetic works on.
  bool isNumber() const { return isBoolean() || isInteger() || isFloat() || isComplex(); }
  /// Boolean, integer or float: the numbers on a line.
  bool isReal() const { return isBoolean() || isInteger() || isFloat(); }
  /// Boolean or integer: what indexes, counts and shapes take.
  bool isIntegerLike() const { return isBoolean() || isInteger(); }
  /// Types whose values exist at run time (the others are compile-time only).
  bool isRuntimeValue() const;
  /// Values that are one pointer to a reference-counted memory block (runtime/MemoryRuntime.h):
  /// lists, strings, dicts, sets, generators, dict views and jitclass instances.
  /// Lowering increfs and decrefs such a value itself (FunctionLowering::collectBlocks).
  bool isBlockReference() const;
  /// Arrays, block references, and tuples holding either: values whose copies are reference
  /// counted.
  bool holdsReferences() const;

  /// Integer, float and complex width in bits (complex128 -> 128); 64 for datetime64 and
  /// timedelta64, whose values are int64 counts.
  int bits() const;
  bool isSigned() const;
  /// A slice value (TypeKind::Slice) whose step may be other than 1: Numba's slice3_type.
  bool sliceHasStep() const;

  /// The component types: a tuple's elements, a record's or jitclass's field types, a dict's
  /// key and value, a set's key, a function's parameters, an undefined function's members;
  /// empty for the other kinds.
  const std::vector<const Type *> &elements() const;
  bool isUniformTuple() const;
  /// A tuple that is Numba's LiteralList: a list literal whose items differ in type, stored
  /// as a tuple of them and immutable (types::literalList).
  bool isLiteralList() const;
  /// A tuple that is an instance of a named tuple class (collections.namedtuple or
  /// typing.NamedTuple): fieldNames() names its items, text() is the class's qualified name
  /// and namedTupleClass() the bindings' registry id of the class (types::namedTuple).
  bool isNamedTuple() const;
  int namedTupleClass() const;

  /// Array dtype, ndim, layout ('C', 'F' or 'A') and whether it is read-only. A NestedArray
  /// answers dtype, ndim and layout too (C order); a DType its dtype.
  const Type *dtype() const;
  int ndim() const;
  char layout() const;
  bool isReadonly() const;

  /// Optional: the type of the value when it is not None.
  const Type *optionalValue() const;
  /// Optional: the byte offset of the value after the one-byte "is a value" flag.
  size_t optionalValueOffset() const;
  /// Record: the fields' names, types (elements()) and byte offsets, as NumPy lays them out;
  /// whether the dtype was made with align=True. fieldIndex is -1 for an unknown name. Named
  /// tuples, jitclass instances and user types name their members through fieldNames() too.
  const std::vector<std::string> &fieldNames() const;
  const std::vector<const Type *> &fieldTypes() const;
  size_t fieldOffset(size_t index) const;
  int fieldIndex(const std::string &name) const;
  bool isAligned() const;
  /// NestedArray: the subarray's shape (its dtype() is the element type).
  const std::vector<int64_t> &nestedShape() const;
  /// Bytes one element of an array of this dtype occupies: a record's itemsize, a subarray's
  /// whole extent, storageSize() for the other types.
  size_t itemSize() const;
  /// List: the item type, or null for an empty list whose items are not known yet (`[]` before
  /// the appends that type it).
  const Type *itemType() const;
  /// List: whether it is Numba's reflected list (a Python list argument, copied in and written
  /// back) rather than a typed list (`taipan.typed.List`, Numba's ListType, passed as its block).
  bool isReflected() const;

  /// Dict: the key and value types, both null for `{}` before the stores that type it. Set:
  /// the key type (null for `set()` before the adds that type it); a set has no value type.
  /// DictView: its dict's.
  const Type *keyType() const;
  const Type *valueType() const;
  /// DictView: the dict it views (keyType() and valueType() are the dict's), and which view
  /// it is: 0 keys, 1 values, 2 items.
  const Type *viewedDict() const;
  int viewKind() const;
  /// DictView: the type of the items iterating it gives (a key, a value or a (key, value) pair).
  const Type *viewItemType() const;
  /// Set: whether it is a frozenset (the same block; methods that change it are refused).
  bool isFrozen() const;

  /// Generator: the type of the values it yields.
  const Type *yieldType() const;

  /// Pointer: the element type pointed to, or null for void*.
  const Type *pointee() const;

  /// ExternalFunction and FirstClassFunction: the parameter types, the result type (none for
  /// void); for an ExternalFunction, whether the function uses the plain C convention (`ret
  /// f(args...)`) rather than Numba's (`int f(ret*, args...)`). text() is the symbol.
  const std::vector<const Type *> &parameterTypes() const;
  const Type *resultType() const;
  bool usesCConvention() const;
  /// ExternalFunction: the machine address CPU code calls (a ctypes function), or 0 for a
  /// function linked by its symbol (cuda.declare_device).
  uint64_t address() const;
  /// ExternalFunction at an address: the load-time symbol (runtime/LoadTimeSymbols) that finds
  /// the function in each process loading the code, or "" when only its address does.
  const std::string &loadSymbol() const;

  /// StringLiteral text, Module name, Builtin qualified name, exception class name, the
  /// symbol of an ExternalFunction, a named tuple's or jitclass's class name, a datetime
  /// unit's name; "" for the other kinds.
  const std::string &text() const;
  /// JitFunction: the function's source; owned by its dispatcher, outlives compilation.
  FunctionSource *function() const;
  /// ExceptionClass: the bindings' registry id.
  int exceptionId() const;
  /// Overload, Intrinsic and UserType: the bindings' registry id of the Python-side entry.
  int registryId() const;

  /// Bytes and alignment of a value in memory (its data model's, types/DataModels.h).
  size_t storageSize() const;
  size_t storageAlignment() const;
  /// Byte offset of tuple element `index` in memory.
  size_t elementOffset(size_t index) const;

protected:
  Type(TypeKind kind, std::string name) : typeKind(kind), displayName(std::move(name)) {}

private:
  TypeKind typeKind;
  std::string displayName;
};

/// LLVM-style casts between Type and the classes of types/TypeClasses.h (each has a static
/// classof(const Type *)): isa tests, cast asserts, dyn_cast gives null for another kind.
template <typename To> bool isa(const Type *type) { return type && To::classof(type); }
[[noreturn]] void failedTypeCast(const Type *type);
template <typename To> const To *cast(const Type *type) {
  if (!isa<To>(type))
    failedTypeCast(type);
  return static_cast<const To *>(type);
}
template <typename To> const To *dyn_cast(const Type *type) {
  return isa<To>(type) ? static_cast<const To *>(type) : nullptr;
}

/// Called when an accessor of one kind's payload is read on a type of another kind (ndim() of
/// a dict view, say), which then gives an empty value. Where TAIPAN_STRICT_TYPES is set (the
/// test suite sets it) it throws instead, naming the accessor, the type and the caller.
void reportForeignTypeAccess(const char *accessor, const Type *type, const void *caller);

/// The in-memory layout of an array value (Numba's): the memory block that owns the data (null
/// for arrays borrowed from Python), the Python object it came from, the element count and size,
/// the data pointer, then ndim extents and ndim byte strides.
struct ArrayLayout {
  static constexpr size_t memInfoOffset = 0;
  static constexpr size_t parentOffset = 8;
  static constexpr size_t itemCountOffset = 16;
  static constexpr size_t itemSizeOffset = 24;
  static constexpr size_t dataOffset = 32;
  static constexpr size_t shapeOffset = 40;
  static size_t stridesOffset(int ndim) { return shapeOffset + 8 * static_cast<size_t>(ndim); }
  /// Field indices of the LLVM struct.
  enum Field : unsigned { MemInfo, Parent, ItemCount, ItemSize, Data, Shape, Strides };
};

/// Factories for interned types. Thread-safe.
namespace types {
const Type *boolean();
const Type *integer(int bits, bool isSigned);
const Type *int64();
const Type *uint64();
const Type *intp();
const Type *floating(int bits);
const Type *float32();
const Type *float64();
const Type *complex(int bits);
const Type *complex128();
const Type *none();
const Type *tuple(const std::vector<const Type *> &elements);
/// Numba's LiteralList: `[1, 'a', 2.5]`, a list literal whose items differ in type, stored as
/// the tuple of its items (a Tuple that isLiteralList); it cannot change.
const Type *literalList(const std::vector<const Type *> &items);
/// An instance of a named tuple class (`className`, the bindings' registry id `classId`): a
/// Tuple of `elements` whose items `fields` name, boxed back into its class.
const Type *namedTuple(const std::string &className, int classId,
                       const std::vector<std::string> &fields,
                       const std::vector<const Type *> &elements);
const Type *array(const Type *dtype, int ndim, char layout, bool readonly);
const Type *range();
/// A slice object as a value: Numba's slice3_type, or slice2_type (`hasStep` false) for one
/// whose step is None or 1, so a unit-step slice keeps an array contiguous as in Numba. Four
/// int64s: start, stop, step with None bounds replaced by CPython's PySlice_Unpack extremes (so
/// PySlice_AdjustIndices gives Python's indices), then a mask of the parts that were None
/// (SliceNone), which only boxing reads.
const Type *sliceValue(bool hasStep = true);
/// The bits of a slice value's fourth field: which of start, stop and step were None.
enum SliceNone : int64_t { SliceStartNone = 1, SliceStopNone = 2, SliceStepNone = 4 };
const Type *stringLiteral(const std::string &text);
/// Numba's unicode_type: a string value in a reference-counted block (runtime/Strings.h).
const Type *unicode();
const Type *module(const std::string &name);
const Type *builtin(const std::string &qualifiedName);
const Type *jitFunction(FunctionSource *function);
const Type *exceptionClass(int id, const std::string &name);
/// A function implemented in Python (an overload) or in LLVM IR (an intrinsic), by the
/// bindings' registry id; `name` is what error messages call it.
const Type *overload(int id, const std::string &name);
const Type *intrinsic(int id, const std::string &name);
/// list(item), Numba's reflected list; a null item gives the list whose item type is still
/// unknown (`[]`), which unifies with any list.
const Type *list(const Type *item);
/// ListType[item] (Numba's typed list, `taipan.typed.List`): the same block as list(item),
/// boxed as a typed.List object instead of a Python list. A null item gives `List()`'s type
/// before the appends that type it.
const Type *typedList(const Type *item);
/// A list of `item` of the same kind (reflected or typed) as the list type `like`.
const Type *listLike(const Type *like, const Type *item);
/// DictType[key,value] (Numba's typed dict); null key and value give `{}`'s type before the
/// stores that type it, which unifies with any dict.
const Type *dict(const Type *key, const Type *value);
/// A generator yielding values of `yield` (Numba's Generator type, without the function: the
/// coroutine is resumed through its frame, so one type serves every generator function).
const Type *generator(const Type *yield);
/// set(K), shown as Numba shows it: `reflected set(int64)`; a null key for `set()` before the
/// adds that type it.
const Type *set(const Type *key);
/// The view `which` (0 keys, 1 values, 2 items) of a dict of type `dict`, shown as Numba shows
/// it: `dict_keys[DictType[int64,float64]]`.
const Type *dictView(const Type *dict, int which);
/// frozenset(K): a set that cannot change (the same block and runtime as set(K)).
const Type *frozenset(const Type *key);
/// A set of `key` of the same kind (set or frozenset) as the set type `like`.
const Type *setLike(const Type *like, const Type *key);
/// The byte offsets, inside a value of `type` in memory, of the memory-block pointers it holds
/// (an array's MemInfo, a list's block): what a list releases and retains per item.
std::vector<int64_t> referenceOffsets(const Type *type);
/// Whether a value of `type` is an array or a tuple holding one.
bool holdsArray(const Type *type);
/// Optional(value): `value` or None. Its memory form is a flag byte (1: a value) followed by
/// the value at its alignment.
const Type *optional(const Type *value);
/// CPointer(pointee); a null pointee gives void*.
const Type *pointer(const Type *pointee);
/// A foreign function `symbol` taking `parameters` and returning `result` (none for void),
/// called by its symbol, or through `address` when it is not 0 (a ctypes function on the CPU).
/// `loadSymbol`: the name that finds the function at `address` again in another process (the
/// library and the name it exports it under), or "" when none does; part of the type's name.
const Type *externalFunction(const std::string &symbol, const std::vector<const Type *> &parameters,
                             const Type *result, bool cConvention, uint64_t address = 0,
                             const std::string &loadSymbol = "");
/// Numba's first-class function type, FunctionType[result(parameters)]: a function value known
/// only at run time (an argument, a tuple item), called through its address by the C convention.
/// Its memory form is the address, the Python object (null when compiled code made the value
/// from a constant) and an int64 that is 1 for a jitted function's C entry, whose exceptions
/// propagate to the caller (runtime/Cfuncs.h).
const Type *firstClassFunction(const std::vector<const Type *> &parameters, const Type *result);
/// The first-class function type an ExternalFunction called through an address by the C
/// convention converts to (its signature's), or null for other types.
const Type *firstClassFunctionOf(const Type *type);
/// The type of a variable assigned any of the jitted functions `members` (JitFunction types),
/// before a call says which signature they share (then it becomes a first-class function type).
const Type *undefinedFunction(std::vector<const Type *> members);

/// A record dtype: fields in order with their byte offsets, the itemsize and NumPy's
/// isalignedstruct flag. Shown as Numba shows it:
/// `Record(a[type=int32;offset=0],b[type=float64;offset=8];16;False)`.
const Type *record(const std::vector<std::string> &names, const std::vector<const Type *> &fields,
                   const std::vector<int64_t> &offsets, size_t itemSize, bool aligned);
/// A subarray field of a record: `shape` elements of `dtype`, C order.
const Type *nestedArray(const Type *dtype, const std::vector<int64_t> &shape);
/// The compile-time type of a NumPy dtype object for `dtype` (a record dtype global).
const Type *dtypeValue(const Type *dtype);
/// NumPy's datetime64[unit] and timedelta64[unit]; `unit` is one of DatetimeUnits.h's codes.
/// Shown as Numba shows them: `datetime64[ns]`, `timedelta64[]` for the generic unit.
const Type *datetime(int unit);
const Type *timedelta(int unit);

/// Looks a scalar type up by one of its names (int64, i8, float32, f4, bool, boolean, none,
/// void, complex128, c16, intp, uintp...); nullptr when there is none.
const Type *scalarByName(const std::string &name);
} // namespace types

} // namespace taipan

#include "types/TypeClasses.h" // IWYU pragma: export
