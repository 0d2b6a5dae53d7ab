// Code generation for every target: LLVM's legacy code-generation pipeline, built once per target
// machine and file kind and run again for each module (building it costs a third of a small
// function's code generation).
#pragma once

#include <llvm/Support/CodeGen.h>

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace taipan {

/// The object file or assembly text `machine` generates for `module`. The machine must serve one
/// compilation at a time (a leased machine, or the JIT's own under the compiler lock), since its
/// pipeline is reused. Throws CompileError when the machine cannot emit `kind`.
std::string emitCode(llvm::TargetMachine &machine, llvm::Module &module,
                     llvm::CodeGenFileType kind);

/// Drops the pipelines built for `machine`; called before a machine is destroyed, so that a new
/// machine at the same address never finds them.
void forgetCodeEmitters(const llvm::TargetMachine *machine);

} // namespace taipan
