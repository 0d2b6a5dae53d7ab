// Data models (Numba's datamodel registry): how values of each kind of type are represented, one
// model per TypeKind; sizes, alignments, held references and LLVM types all derive from it.
#pragma once

#include "types/Type.h"

#include <cstdint>
#include <vector>

namespace taipan {

/// The shape of a value's representation. Lowering spells it as an LLVM type
/// (lower/LowerTypes); storage sizes, alignments and the references a value holds follow from
/// it here, so that memory and code always agree.
struct Representation {
  enum class Form {
    Empty,   ///< no data: `{}`
    Boolean, ///< i1 in registers, i8 in memory
    Integer, ///< iN, N = bits
    Float,   ///< half, float or double, by bits
    Pointer, ///< an address; blockReference: of a reference-counted block the value owns
    Struct,  ///< members in order, each at its alignment
    Array,   ///< count copies of members[0]
    Value,   ///< a value of `type`, as its own model represents it in memory
  };
  Form form = Form::Empty;
  int bits = 0;
  bool blockReference = false;
  uint64_t count = 0;
  const Type *type = nullptr;
  std::vector<Representation> members;

  static Representation empty() { return {}; }
  static Representation boolean() { return {Form::Boolean, 8}; }
  static Representation integer(int bits) { return {Form::Integer, bits}; }
  static Representation floating(int bits) { return {Form::Float, bits}; }
  /// An address; `ownsBlock`: the value holds a reference to the block it points to.
  static Representation pointer(bool ownsBlock) { return {Form::Pointer, 64, ownsBlock}; }
  static Representation structure(std::vector<Representation> members);
  static Representation array(uint64_t count, Representation element);
  static Representation value(const Type *type);
};

/// How the values of one kind of type are represented. Each kind has one model
/// (registerDataModel); taipan's own kinds and the user types of the extension API alike.
class DataModel {
public:
  virtual ~DataModel() = default;
  /// The representation of a value of `type`.
  virtual Representation representation(const Type *type) const = 0;
  /// Whether values of `type` exist at run time (compile-time-only types have none).
  virtual bool isRuntimeValue(const Type *) const { return true; }
  /// Whether a value holds references to blocks (some Form::Pointer with blockReference), and
  /// whether it is one such pointer. Derived from representation(); models answer directly
  /// where that is cheaper (lowering asks for every value).
  virtual bool holdsReferences(const Type *type) const;
  virtual bool isBlockReference(const Type *type) const;
  /// Bytes and alignment of a value in memory. Derived from representation(); the models of
  /// the kinds that calls and launches lay out answer directly, allocating nothing (the
  /// dispatcher asks per argument per call). DataModelsTest checks both ways agree.
  virtual size_t storageSize(const Type *type) const;
  virtual size_t storageAlignment(const Type *type) const;
};

/// The model registered for `type`'s kind (a compile-time-only model where none is).
const DataModel &dataModelOf(const Type *type);
/// Registers `model` (which must outlive every compilation) for `kind`, replacing the one there.
void registerDataModel(TypeKind kind, const DataModel *model);

/// `offset` rounded up to a multiple of `alignment`.
inline size_t alignTo(size_t offset, size_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

/// Bytes and alignment of a representation in memory.
size_t storageSize(const Representation &representation);
size_t storageAlignment(const Representation &representation);
/// The byte offsets of the owned block pointers (Form::Pointer with blockReference) in a value
/// of `representation` stored at `base`, appended to `offsets`.
void collectBlockOffsets(const Representation &representation, int64_t base,
                         std::vector<int64_t> &offsets);

} // namespace taipan
