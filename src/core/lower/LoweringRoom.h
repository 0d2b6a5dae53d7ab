// The base of lowering's rooms (ArrayLowering, ContainerLowering, ...): the core each room
// belongs to, and references to the core's state that every room's methods use.
#pragma once

#include "lower/LoweringApi.h"

namespace taipan {

class FunctionLowering;

/// What every room of lowering holds: its core (FunctionLowering), whose values, exits and
/// temporaries it uses, and the core's state as the core holds it (the builder moves with the
/// core's insertion point; `target` is the function being emitted, which changes in segments).
class LoweringRoom {
protected:
  explicit LoweringRoom(FunctionLowering &core);

  FunctionLowering &core;
  llvm::IRBuilder<> &builder;
  llvm::LLVMContext &context;
  const CompileOptions &options;
  TypedFunction &function;
  ModuleLowering &moduleLowering;
  llvm::Function *&target;
};

} // namespace taipan
