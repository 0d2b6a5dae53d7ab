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
};

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
  return id;
}

const ObjectModeSite *findObjectModeSite(int64_t id) {
  Registry &state = registry();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (id < 1 || id > static_cast<int64_t>(state.sites.size()))
    return nullptr;
  return &state.sites[static_cast<size_t>(id - 1)];
}

} // namespace taipan
