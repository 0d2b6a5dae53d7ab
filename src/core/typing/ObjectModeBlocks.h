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
  /// What the block is, the same in every process that reads the same text (a digest of its
  /// place, statements and declarations; taipan/objmode_blocks.py), or "" when unknown: with
  /// the block's id, which the job hash covers, it names the block's sites in cached code.
  std::string key;
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
/// The key naming site `id` in other processes (block id, block key, the argument types'
/// names), or "" when the block has no key or another site of this process has the same key.
std::string objectModeSiteKey(int64_t id);
/// The site registered in this process under `key`; -1 when none or several.
int64_t findObjectModeSiteByKey(const std::string &key);

} // namespace taipan
