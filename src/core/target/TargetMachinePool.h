// Idle LLVM target machines kept by configuration, leased to one compilation at a time: building
// one (its subtarget and lowering tables) costs about a millisecond, as much as generating code.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace taipan {

/// Gives a leased machine back to the pool of its configuration when the lease ends.
struct TargetMachineReturn {
  std::string configuration;
  void operator()(llvm::TargetMachine *machine) const;
};

/// A target machine used by one compilation (one thread) at a time, back in the pool after.
using LeasedTargetMachine = std::unique_ptr<llvm::TargetMachine, TargetMachineReturn>;

/// An idle machine of `configuration` (every construction-time setting: triple, CPU, features,
/// options, optimisation level), or a new one from `create`. Only the floating-point options
/// that code generation resets from each function's attributes change a machine in use, so a
/// returned machine is as good as new.
LeasedTargetMachine
leaseTargetMachine(const std::string &configuration,
                   const std::function<std::unique_ptr<llvm::TargetMachine>()> &create);

} // namespace taipan
