// Typing rules dicts share between inference and the library: the key and value types a dict
// takes from what is stored into it, and whether a key or value fits a dict's types.
#pragma once

#include "syntax/SyntaxTree.h"
#include "types/Type.h"

#include <cstdint>
#include <vector>

namespace taipan {

/// The key type a dict takes from a key of type `key`, as Numba types it: integers become
/// int64 (uint64 stays), string literals unicode_type, tuples elementwise; floats and booleans
/// stay. Null when such keys are not supported (only numbers, strings and tuples of them hash).
const Type *dictKeyType(const Type *key);
/// The value type a dict takes from a value of type `value` (string literals become
/// unicode_type); null for None and compile-time values.
const Type *dictValueType(const Type *value);
/// The dict type `d[key] = value` asks of a dict; a TypingError at `location` when the key or
/// value cannot be held.
const Type *dictTypeOfStore(const Type *key, const Type *value, SourceLocation location);
/// Whether a key of type `key` may be looked up in (or stored into) a dict of `dict`: it
/// converts to the key type without losing its value (an int into float keys, not the reverse).
bool dictAcceptsKey(const Type *dict, const Type *key);
/// Whether a value of type `value` may be stored in a dict of `dict` (converted as an
/// assignment converts it).
bool dictAcceptsValue(const Type *dict, const Type *value);

/// The runtime's description of a key of type `key` (runtime/HashedKeys.h), by which dicts
/// and sets hash, compare and print their keys.
std::vector<int64_t> hashedKeyDescription(const Type *key);

/// The layout taipan_dict_new takes for a dict of `dict` (runtime/Dicts.h): sizes, reference
/// offsets and the key description; empty when an entry holds more references, or a key more
/// parts, than the runtime keeps. Lowering and the bindings' typed.Dict share it.
std::vector<int64_t> dictRuntimeLayout(const Type *dict);

} // namespace taipan
