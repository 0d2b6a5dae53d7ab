// Idle LLVM target machines kept by configuration, leased to one compilation at a time.
#include "target/TargetMachinePool.h"

#include "target/CodeEmitter.h"

#include <llvm/Target/TargetMachine.h>

#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace taipan {
namespace {

/// The idle machines by configuration. Never destroyed: a lease may end during the process's
/// exit, after static destructors ran.
struct Pool {
  std::mutex mutex;
  std::map<std::string, std::vector<std::unique_ptr<llvm::TargetMachine>>> idle;
};

Pool &pool() {
  static Pool *instance = new Pool;
  return *instance;
}

/// At most one idle machine per core and configuration: more never run at once.
size_t idleLimit() { return std::max(1u, std::thread::hardware_concurrency()); }

} // namespace

void TargetMachineReturn::operator()(llvm::TargetMachine *machine) const {
  std::unique_ptr<llvm::TargetMachine> owned(machine);
  Pool &machines = pool();
  std::lock_guard<std::mutex> lock(machines.mutex);
  std::vector<std::unique_ptr<llvm::TargetMachine>> &idle = machines.idle[configuration];
  if (idle.size() < idleLimit())
    idle.push_back(std::move(owned));
  else
    forgetCodeEmitters(machine);
}

LeasedTargetMachine
leaseTargetMachine(const std::string &configuration,
                   const std::function<std::unique_ptr<llvm::TargetMachine>()> &create) {
  Pool &machines = pool();
  {
    std::lock_guard<std::mutex> lock(machines.mutex);
    std::vector<std::unique_ptr<llvm::TargetMachine>> &idle = machines.idle[configuration];
    if (!idle.empty()) {
      LeasedTargetMachine leased(idle.back().release(), TargetMachineReturn{configuration});
      idle.pop_back();
      return leased;
    }
  }
  return LeasedTargetMachine(create().release(), TargetMachineReturn{configuration});
}

} // namespace taipan
