// DeviceMemorySystem.cpp - Statistics blocks of the device memory runtime, one per context:
// made, given to loaded modules, switched and read.

#include "cuda/DeviceMemorySystem.h"

#include "cuda/CudaDriver.h"

namespace taipan::cuda {

DeviceMemorySystem &DeviceMemorySystem::get() {
  // Never destroyed, as CudaDriver::get()'s instance is not.
  static DeviceMemorySystem *instance = new DeviceMemorySystem(CudaDriver::get());
  return *instance;
}

uint64_t DeviceMemorySystem::currentBlock() {
  std::pair<int, unsigned> key{driver.contexts().currentDevice(), driver.contexts().contextEpoch()};
  auto found = blocks.find(key);
  if (found != blocks.end())
    return found->second;
  for (auto it = blocks.begin(); it != blocks.end();)
    it = it->first.second != key.second ? blocks.erase(it) : std::next(it);
  DeviceMemoryStatistics initial{};
  initial.enabled = enabled ? 1 : 0;
  uint64_t address = driver.memory().allocate(sizeof initial);
  driver.memory().copyToDevice(address, &initial, sizeof initial);
  blocks.emplace(key, address);
  return address;
}

void DeviceMemorySystem::attach(void *module, const std::string &image) {
  if (image.find(DeviceMemorySystemGlobal) == std::string::npos)
    return; // no allocation in the module (a cubin holds the name in its symbol table too)
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t global = 0;
  try {
    global = driver.modules().getGlobal(module, DeviceMemorySystemGlobal);
  } catch (const CudaError &error) {
    if (error.code() == CUDA_ERROR_NOT_FOUND) // the text only named it
      return;
    throw;
  }
  uint64_t block = currentBlock();
  driver.memory().copyToDevice(global, &block, sizeof block);
}

bool DeviceMemorySystem::statisticsEnabled() {
  std::lock_guard<std::mutex> lock(mutex);
  return enabled;
}

void DeviceMemorySystem::setStatisticsEnabled(bool on) {
  std::lock_guard<std::mutex> lock(mutex);
  // Work queued before the switch counts as it was when queued: the device finishes it first.
  driver.synchronize();
  enabled = on;
  currentBlock(); // made with the switch's value, and every block of the epoch is written
  uint32_t flag = on ? 1 : 0;
  for (const auto &[key, address] : blocks)
    driver.memory().copyToDevice(address + offsetof(DeviceMemoryStatistics, enabled), &flag,
                                 sizeof flag);
}

DeviceMemoryStatistics DeviceMemorySystem::statistics() {
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t block = currentBlock();
  driver.synchronize();
  DeviceMemoryStatistics counters{};
  driver.memory().copyToHost(&counters, block, sizeof counters);
  return counters;
}

} // namespace taipan::cuda
