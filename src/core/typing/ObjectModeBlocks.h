// The `with objmode(...)` blocks of compiled functions: what the front end declares about each
// (its outputs' names and types, its inputs' names) and the argument types each call boxes.
#pragma once

#include "types/Type.h"

#include <string>
#include <vector>

namespace taipan {

/// The library entry a rewritten `with objmode(...)` block calls: `outputs = $taipan.
/// objmode_call(block id, inputs...)` (the front end writes it, `taipan/objmode_blocks.py`).
inline constexpr const char *ObjectModeCallee = "$taipan.objmode_call";

/// One block, registered once when its function is read.
struct ObjectModeBlock {
  std::vector<std::string> outputNames;
  std::vector<const Type *> outputTypes; ///< as declared: the outputs are unboxed as these
  std::vector<std::string> inputNames;   ///< the live-in variables, in argument order
  std::string where;                     ///< "file.py", line N: for run-time messages
};

/// One call of a block with the types its inputs have in one specialisation: what boxing the
/// inputs needs at run time (the values, in memory form, come with the call).
struct ObjectModeSite {
  int block = 0;
  std::vector<const Type *> argumentTypes;
};

/// Registers a block; its id (from 1) is what the rewritten call passes.
int registerObjectModeBlock(ObjectModeBlock block);
/// The block `id`, or nullptr for an id never registered.
const ObjectModeBlock *findObjectModeBlock(int64_t id);
/// The id of the site of `block` with these argument types, registered on first request.
int objectModeSite(int block, const std::vector<const Type *> &argumentTypes);
/// The site `id`, or nullptr for an id never registered.
const ObjectModeSite *findObjectModeSite(int64_t id);

} // namespace taipan
