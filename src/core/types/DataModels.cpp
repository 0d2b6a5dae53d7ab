// The data models of taipan's own kinds of types, their registry, and the sizes and references
// that follow from a representation.
#include "types/DataModels.h"

#include "types/CharSequences.h"

#include <algorithm>
#include <array>
#include <atomic>

namespace taipan {

Representation Representation::structure(std::vector<Representation> members) {
  Representation result{Form::Struct};
  result.members = std::move(members);
  return result;
}

Representation Representation::array(uint64_t count, Representation element) {
  Representation result{Form::Array};
  result.count = count;
  result.members.push_back(std::move(element));
  return result;
}

Representation Representation::value(const Type *type) {
  Representation result{Form::Value};
  result.type = type;
  return result;
}

namespace {

/// Booleans, integers, floats, complex numbers, datetime64 and timedelta64 (an int64 count).
class NumberModel final : public DataModel {
public:
  size_t storageSize(const Type *type) const override {
    return type->isBoolean() ? 1 : static_cast<size_t>(type->bits() / 8);
  }
  size_t storageAlignment(const Type *type) const override {
    return type->isComplex() ? static_cast<size_t>(type->bits() / 16) : storageSize(type);
  }
  bool holdsReferences(const Type *) const override { return false; }
  bool isBlockReference(const Type *) const override { return false; }
  Representation representation(const Type *type) const override {
    switch (type->kind()) {
    case TypeKind::Boolean:
      return Representation::boolean();
    case TypeKind::Float:
      return Representation::floating(type->bits());
    case TypeKind::Complex: // {real, imaginary}
      return Representation::structure(
          {Representation::floating(type->bits() / 2), Representation::floating(type->bits() / 2)});
    default:
      return Representation::integer(type->bits());
    }
  }
};

/// One pointer: to a reference-counted block the value owns (runtime/MemoryRuntime.h: strings,
/// lists, dicts, sets, generators, dict views, jitclass instances), or to memory it does not
/// own (a CPointer, a record's bytes).
class PointerModel final : public DataModel {
public:
  explicit PointerModel(bool ownsBlock) : ownsBlock(ownsBlock) {}
  size_t storageSize(const Type *) const override { return 8; }
  size_t storageAlignment(const Type *) const override { return 8; }
  bool holdsReferences(const Type *) const override { return ownsBlock; }
  bool isBlockReference(const Type *) const override { return ownsBlock; }
  Representation representation(const Type *) const override {
    return Representation::pointer(ownsBlock);
  }

private:
  bool ownsBlock;
};

/// Numba's array struct (types::ArrayLayout): its block, the Python object it came from, the
/// element count and size, the data pointer, then ndim extents and ndim byte strides.
class ArrayModel final : public DataModel {
public:
  size_t storageSize(const Type *type) const override {
    return ArrayLayout::shapeOffset + 16 * static_cast<size_t>(type->ndim());
  }
  size_t storageAlignment(const Type *) const override { return 8; }
  bool holdsReferences(const Type *) const override { return true; }
  bool isBlockReference(const Type *) const override { return false; }
  Representation representation(const Type *type) const override {
    auto extents = [&] {
      return Representation::array(static_cast<uint64_t>(type->ndim()),
                                   Representation::integer(64));
    };
    return Representation::structure({Representation::pointer(true), Representation::pointer(false),
                                      Representation::integer(64), Representation::integer(64),
                                      Representation::pointer(false), extents(), extents()});
  }
};

/// Tuples, named tuples and literal lists: their items in order.
class TupleModel final : public DataModel {
public:
  size_t storageSize(const Type *type) const override {
    const std::vector<const Type *> &items = type->elements();
    if (items.empty())
      return 0;
    size_t last = items.size() - 1;
    return alignTo(type->elementOffset(last) + items[last]->storageSize(), storageAlignment(type));
  }
  size_t storageAlignment(const Type *type) const override {
    size_t alignment = 1;
    for (const Type *item : type->elements())
      alignment = std::max(alignment, item->storageAlignment());
    return alignment;
  }
  bool holdsReferences(const Type *type) const override {
    return std::any_of(type->elements().begin(), type->elements().end(),
                       [](const Type *item) { return item->holdsReferences(); });
  }
  bool isBlockReference(const Type *) const override { return false; }
  Representation representation(const Type *type) const override {
    std::vector<Representation> members;
    for (const Type *element : type->elements())
      members.push_back(Representation::value(element));
    return Representation::structure(std::move(members));
  }
  bool isRuntimeValue(const Type *type) const override {
    return std::all_of(type->elements().begin(), type->elements().end(),
                       [](const Type *element) { return element->isRuntimeValue(); });
  }
};

/// Optional: a flag byte (1: a value), then the value (null pointers when None).
class OptionalModel final : public DataModel {
public:
  size_t storageSize(const Type *type) const override {
    return alignTo(type->optionalValueOffset() + type->optionalValue()->storageSize(),
                   storageAlignment(type));
  }
  size_t storageAlignment(const Type *type) const override {
    return type->optionalValue()->storageAlignment();
  }
  bool holdsReferences(const Type *type) const override {
    return type->optionalValue()->holdsReferences();
  }
  bool isBlockReference(const Type *) const override { return false; }
  Representation representation(const Type *type) const override {
    return Representation::structure(
        {Representation::integer(8), Representation::value(type->optionalValue())});
  }
  bool isRuntimeValue(const Type *type) const override {
    return type->optionalValue()->isRuntimeValue();
  }
};

/// range state and slices: four int64s (types::sliceValue).
class FourIntegersModel final : public DataModel {
public:
  bool holdsReferences(const Type *) const override { return false; }
  bool isBlockReference(const Type *) const override { return false; }
  size_t storageSize(const Type *) const override { return 32; }
  size_t storageAlignment(const Type *) const override { return 8; }
  Representation representation(const Type *) const override {
    Representation part = Representation::integer(64);
    return Representation::structure({part, part, part, part});
  }
};

/// Numba's first-class function: {the C function's address, the Python object, whether jitted}.
class FirstClassFunctionModel final : public DataModel {
public:
  bool holdsReferences(const Type *) const override { return false; }
  bool isBlockReference(const Type *) const override { return false; }
  size_t storageSize(const Type *) const override { return 24; }
  size_t storageAlignment(const Type *) const override { return 8; }
  Representation representation(const Type *) const override {
    return Representation::structure({Representation::pointer(false),
                                      Representation::pointer(false), Representation::integer(64)});
  }
};

/// A record's subarray field has no value of its own (it is reached through the record); a
/// fixed-width string field is its characters (types/CharSequences.h).
class NestedArrayModel final : public DataModel {
public:
  Representation representation(const Type *type) const override {
    if (!types::isCharSequence(type))
      return Representation::empty();
    return Representation::array(static_cast<uint64_t>(types::charSequenceLength(type)),
                                 Representation::integer(8 * types::charSequenceWidth(type)));
  }
  bool isRuntimeValue(const Type *type) const override { return types::isCharSequence(type); }
};

/// None: a value with no data.
class NoneModel final : public DataModel {
public:
  Representation representation(const Type *) const override { return Representation::empty(); }
};

/// A user type (types.Type subclass): represented as the taipan type its registered model
/// lays it out as, and compile-time only until one is registered (types/UserTypes.h).
class UserTypeModel final : public DataModel {
public:
  size_t storageSize(const Type *type) const override {
    const Type *layout = cast<PythonDefinedType>(type)->layout();
    return layout ? layout->storageSize() : 0;
  }
  size_t storageAlignment(const Type *type) const override {
    const Type *layout = cast<PythonDefinedType>(type)->layout();
    return layout ? layout->storageAlignment() : 1;
  }
  bool holdsReferences(const Type *type) const override {
    const Type *layout = cast<PythonDefinedType>(type)->layout();
    return layout && layout->holdsReferences();
  }
  Representation representation(const Type *type) const override {
    const Type *layout = cast<PythonDefinedType>(type)->layout();
    return layout ? dataModelOf(layout).representation(layout) : Representation::empty();
  }
  bool isRuntimeValue(const Type *type) const override {
    return cast<PythonDefinedType>(type)->layout() != nullptr;
  }
};

/// Modules, functions, exception classes, string literals, dtype objects...: known at compile
/// time, with no run-time value.
class CompileTimeModel final : public DataModel {
public:
  Representation representation(const Type *) const override { return Representation::empty(); }
  bool isRuntimeValue(const Type *) const override { return false; }
};

constexpr size_t kindCount = static_cast<size_t>(TypeKind::UserType) + 1;

/// The registry: one model per kind, taipan's own registered at start-up.
std::array<std::atomic<const DataModel *>, kindCount> &registry() {
  static std::array<std::atomic<const DataModel *>, kindCount> models;
  static const bool filled = [] {
    static const NumberModel numbers;
    static const PointerModel blocks(true);
    static const PointerModel addresses(false);
    static const ArrayModel arrays;
    static const TupleModel tuples;
    static const OptionalModel optionals;
    static const FourIntegersModel fourIntegers;
    static const FirstClassFunctionModel firstClassFunctions;
    static const NestedArrayModel nestedArrays;
    static const NoneModel none;
    static const UserTypeModel userTypes;
    static const CompileTimeModel compileTime;
    for (auto &entry : models)
      entry = &compileTime;
    auto set = [](TypeKind kind, const DataModel *model) {
      models[static_cast<size_t>(kind)] = model;
    };
    for (TypeKind kind : {TypeKind::Boolean, TypeKind::Integer, TypeKind::Float, TypeKind::Complex,
                          TypeKind::Datetime, TypeKind::Timedelta})
      set(kind, &numbers);
    for (TypeKind kind : {TypeKind::Unicode, TypeKind::List, TypeKind::Dict, TypeKind::Set,
                          TypeKind::Generator, TypeKind::DictView, TypeKind::ClassInstance})
      set(kind, &blocks);
    set(TypeKind::Pointer, &addresses);
    set(TypeKind::Record, &addresses);
    set(TypeKind::Array, &arrays);
    set(TypeKind::Tuple, &tuples);
    set(TypeKind::Optional, &optionals);
    set(TypeKind::Range, &fourIntegers);
    set(TypeKind::Slice, &fourIntegers);
    set(TypeKind::FirstClassFunction, &firstClassFunctions);
    set(TypeKind::NestedArray, &nestedArrays);
    set(TypeKind::None, &none);
    set(TypeKind::UserType, &userTypes);
    return true;
  }();
  (void)filled;
  return models;
}

/// The representation a member stands for: a Value member is its type's own.
Representation resolved(const Representation &member) {
  return member.form == Representation::Form::Value
             ? dataModelOf(member.type).representation(member.type)
             : member;
}

} // namespace

bool DataModel::holdsReferences(const Type *type) const {
  std::vector<int64_t> offsets;
  collectBlockOffsets(representation(type), 0, offsets);
  return !offsets.empty();
}

size_t DataModel::storageSize(const Type *type) const {
  return taipan::storageSize(representation(type));
}

size_t DataModel::storageAlignment(const Type *type) const {
  return taipan::storageAlignment(representation(type));
}

bool DataModel::isBlockReference(const Type *type) const {
  Representation shape = representation(type);
  return shape.form == Representation::Form::Pointer && shape.blockReference;
}

const DataModel &dataModelOf(const Type *type) {
  return *registry()[static_cast<size_t>(type->kind())].load(std::memory_order_acquire);
}

void registerDataModel(TypeKind kind, const DataModel *model) {
  registry()[static_cast<size_t>(kind)].store(model, std::memory_order_release);
}

size_t storageAlignment(const Representation &representation) {
  switch (representation.form) {
  case Representation::Form::Boolean:
    return 1;
  case Representation::Form::Integer:
  case Representation::Form::Float:
  case Representation::Form::Pointer:
    return std::max(1, representation.bits / 8);
  case Representation::Form::Struct: {
    size_t alignment = 1;
    for (const Representation &member : representation.members)
      alignment = std::max(alignment, storageAlignment(member));
    return alignment;
  }
  case Representation::Form::Array:
    return storageAlignment(representation.members.front());
  case Representation::Form::Value:
    return storageAlignment(resolved(representation));
  default:
    return 1;
  }
}

size_t storageSize(const Representation &representation) {
  switch (representation.form) {
  case Representation::Form::Boolean:
    return 1;
  case Representation::Form::Integer:
  case Representation::Form::Float:
  case Representation::Form::Pointer:
    return static_cast<size_t>(representation.bits / 8);
  case Representation::Form::Struct: {
    size_t end = 0;
    for (const Representation &member : representation.members)
      end = alignTo(end, storageAlignment(member)) + storageSize(member);
    return representation.members.empty() ? 0 : alignTo(end, storageAlignment(representation));
  }
  case Representation::Form::Array:
    return static_cast<size_t>(representation.count) * storageSize(representation.members.front());
  case Representation::Form::Value:
    return storageSize(resolved(representation));
  default:
    return 0;
  }
}

void collectBlockOffsets(const Representation &representation, int64_t base,
                         std::vector<int64_t> &offsets) {
  switch (representation.form) {
  case Representation::Form::Pointer:
    if (representation.blockReference)
      offsets.push_back(base);
    break;
  case Representation::Form::Struct: {
    size_t offset = 0;
    for (const Representation &member : representation.members) {
      offset = alignTo(offset, storageAlignment(member));
      collectBlockOffsets(member, base + static_cast<int64_t>(offset), offsets);
      offset += storageSize(member);
    }
    break;
  }
  case Representation::Form::Array: {
    size_t size = storageSize(representation.members.front());
    for (uint64_t i = 0; i < representation.count; ++i)
      collectBlockOffsets(representation.members.front(), base + static_cast<int64_t>(i * size),
                          offsets);
    break;
  }
  case Representation::Form::Value:
    collectBlockOffsets(resolved(representation), base, offsets);
    break;
  default:
    break;
  }
}

} // namespace taipan
