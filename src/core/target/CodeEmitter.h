// Code generation for every target: LLVM's legacy code-generation pipeline, built once per target
// machine and file kind and run again for each module where the target allows it (building it
// costs a third of a small function's code generation).
#pragma once

#include <llvm/Support/CodeGen.h>

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace taipan {

/// Whether a target's code-generation pipeline may serve a second module. Only a target whose
/// assembly printer resets all of its per-module state when a module begins may reuse it: X86's
/// does. NVPTX's keeps the shared variables it demotes into functions in a map keyed by
/// `Function *` and never cleared, so a reused pipeline printed a freed module's variables into a
/// later kernel whose function took the same address, and crashed.
enum class PipelineReuse { Reuse, BuildPerModule };

/// The object file or assembly text `machine` generates for `module`. With `reuse`, the machine
/// must serve one compilation at a time (a leased machine, or the JIT's own under the compiler
/// lock), since its pipeline is kept. Throws CompileError when the machine cannot emit `kind`.
std::string emitCode(llvm::TargetMachine &machine, llvm::Module &module, llvm::CodeGenFileType kind,
                     PipelineReuse reuse);

/// Drops the pipelines built for `machine`; called before a machine is destroyed, so that a new
/// machine at the same address never finds them.
void forgetCodeEmitters(const llvm::TargetMachine *machine);

} // namespace taipan
