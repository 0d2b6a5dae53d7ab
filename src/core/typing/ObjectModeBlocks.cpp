// The registry of `with objmode(...)` blocks and of their call sites. Entries live as long as
// the process (compiled code refers to them by id), in deques so that references stay valid.
#include "typing/ObjectModeBlocks.h"

#include <deque>
#include <map>
#include <mutex>
#include <utility>

namespace taipan {
namespace {

struct Registry {
  std::mutex mutex;
  std::deque<ObjectModeBlock> blocks;
  std::deque<ObjectModeSite> sites;
  std::map<std::pair<int, std::vector<const Type *>>, int> siteIds;
  /// Sites by key (objectModeSiteKey); -1 where two sites share one (types of one name).
  std::map<std::string, int> siteKeys;
};

/// The key of a site of `block` with these argument types; "" for a block without a key.
/// Callers hold the registry's mutex.
std::string keyOf(const Registry &state, int block, const std::vector<const Type *> &types) {
  const std::string &blockKey = state.blocks[static_cast<size_t>(block - 1)].key;
  if (blockKey.empty())
    return "";
  std::string key = std::to_string(block) + ":" + blockKey + ":";
  for (size_t i = 0; i < types.size(); ++i)
    key += (i ? ";" : "") + types[i]->name();
  return key;
}

Registry &registry() {
  static Registry *instance = new Registry(); // never destroyed: compiled code may outlive exit
  return *instance;
}

} // namespace

int registerObjectModeBlock(ObjectModeBlock block) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.blocks.push_back(std::move(block));
  return static_cast<int>(state.blocks.size());
}

const ObjectModeBlock *findObjectModeBlock(int64_t id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (id < 1 || id > static_cast<int64_t>(state.blocks.size()))
    return nullptr;
  return &state.blocks[static_cast<size_t>(id - 1)];
}

int objectModeSite(int block, const std::vector<const Type *> &argumentTypes) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto key = std::make_pair(block, argumentTypes);
  auto found = state.siteIds.find(key);
  if (found != state.siteIds.end())
    return found->second;
  state.sites.push_back(ObjectModeSite{block, argumentTypes});
  int id = static_cast<int>(state.sites.size());
  state.siteIds.emplace(std::move(key), id);
  if (block >= 1 && block <= static_cast<int>(state.blocks.size())) {
    std::string siteKey = keyOf(state, block, argumentTypes);
    if (!siteKey.empty()) {
      auto [entry, added] = state.siteKeys.emplace(siteKey, id);
      if (!added)
        entry->second = -1;
    }
  }
  return id;
}

const ObjectModeSite *findObjectModeSite(int64_t id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (id < 1 || id > static_cast<int64_t>(state.sites.size()))
    return nullptr;
  return &state.sites[static_cast<size_t>(id - 1)];
}

std::string objectModeSiteKey(int64_t id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (id < 1 || id > static_cast<int64_t>(state.sites.size()))
    return "";
  const ObjectModeSite &site = state.sites[static_cast<size_t>(id - 1)];
  if (site.block < 1 || site.block > static_cast<int>(state.blocks.size()))
    return "";
  std::string key = keyOf(state, site.block, site.argumentTypes);
  auto found = state.siteKeys.find(key);
  return found != state.siteKeys.end() && found->second == id ? key : "";
}

int64_t findObjectModeSiteByKey(const std::string &key) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.siteKeys.find(key);
  return found == state.siteKeys.end() ? -1 : found->second;
}

} // namespace taipan
