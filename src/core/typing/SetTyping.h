// Typing rules sets share between inference and the library: the set type an iterable's items
// make, and the item type of iterating a set.
#pragma once

#include "types/Type.h"

#include <cstdint>
#include <vector>

namespace taipan {

/// The item type of iterating a value of `type` for set(), s.update() and the other methods
/// taking iterables: a set's keys, a list's items, a range's int64, a uniform tuple's
/// element, a 1-D array's dtype, a string's characters. Null when it is not such an iterable,
/// and for `[]`, `()` and `set()`, whose items are unknown.
const Type *setIterableItem(const Type *type);

/// The set type `set(iterable)` has (keys normalised as dict keys are: typing/DictTyping.h):
/// `set(undefined)` for an empty list, tuple or set; null when the value is not an iterable
/// of hashable items.
const Type *setOfIterable(const Type *type);

/// The set type holding keys of `key`'s type (normalised as dict keys are), or null when such
/// keys do not hash in compiled code.
const Type *setOfKey(const Type *key);

/// What taipan_set_new takes for a set of `setType` (runtime/Sets.h); empty when its keys hold
/// more strings than the runtime describes. Lowering and the bindings' unboxing share it.
std::vector<int64_t> setLayout(const Type *setType);

} // namespace taipan
