// Code generation pipelines: kept per target machine and file kind and reused where the target
// allows it (CodeEmitter.h says which), else built for each module.
#include "target/CodeEmitter.h"

#include "support/CompileError.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace taipan {
namespace {

/// One machine's pipeline for one file kind, writing into its own buffer. The base AsmPrinter's
/// finalisation resets what a module left behind (the machine-code context, the streamer, the
/// per-module handlers); whether the target's own printer does too is PipelineReuse's question.
struct Emitter {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream{buffer};
  llvm::legacy::PassManager passes;
};

using EmitterKey = std::pair<const llvm::TargetMachine *, int>;

/// The emitters of all machines. Never destroyed: machines are leased until the process ends.
struct EmitterTable {
  std::mutex mutex;
  std::map<EmitterKey, std::unique_ptr<Emitter>> emitters;
};

EmitterTable &table() {
  static EmitterTable *instance = new EmitterTable;
  return *instance;
}

/// A new emitter of `machine` for `kind`.
std::unique_ptr<Emitter> buildEmitter(llvm::TargetMachine &machine, llvm::CodeGenFileType kind) {
  auto built = std::make_unique<Emitter>();
  // The module was verified when lowering ended, as clang does it once (its release builds
  // skip code generation's verifier): two more verifier runs were 1-2% of generating code.
  if (machine.addPassesToEmitFile(built->passes, built->stream, nullptr, kind,
                                  /*DisableVerify=*/true)) {
    const char *what = kind == llvm::CodeGenFileType::ObjectFile ? "object files" : "assembly";
    throw CompileError(CompileErrorKind::Internal, std::string("the target cannot emit ") + what,
                       {});
  }
  return built;
}

/// The kept emitter of `machine` for `kind`, built on first use.
Emitter &keptEmitterFor(llvm::TargetMachine &machine, llvm::CodeGenFileType kind) {
  EmitterTable &emitters = table();
  std::lock_guard<std::mutex> lock(emitters.mutex);
  std::unique_ptr<Emitter> &slot = emitters.emitters[{&machine, static_cast<int>(kind)}];
  if (!slot)
    slot = buildEmitter(machine, kind);
  return *slot;
}

void forget(const EmitterKey &key) {
  EmitterTable &emitters = table();
  std::lock_guard<std::mutex> lock(emitters.mutex);
  emitters.emitters.erase(key);
}

} // namespace

std::string emitCode(llvm::TargetMachine &machine, llvm::Module &module, llvm::CodeGenFileType kind,
                     PipelineReuse reuse) {
  if (reuse == PipelineReuse::BuildPerModule) {
    std::unique_ptr<Emitter> emitter = buildEmitter(machine, kind);
    emitter->passes.run(module);
    return std::string(emitter->buffer.begin(), emitter->buffer.end());
  }
  Emitter &emitter = keptEmitterFor(machine, kind);
  emitter.buffer.clear();
  try {
    emitter.passes.run(module);
  } catch (...) {
    // A pipeline stopped halfway keeps the module's state: build a fresh one next time.
    forget({&machine, static_cast<int>(kind)});
    throw;
  }
  std::string code(emitter.buffer.begin(), emitter.buffer.end());
  // A long function's code is not kept alive by the buffer until the next compilation.
  if (emitter.buffer.capacity() > (1u << 20))
    llvm::SmallVector<char, 0>().swap(emitter.buffer);
  return code;
}

void forgetCodeEmitters(const llvm::TargetMachine *machine) {
  EmitterTable &emitters = table();
  std::lock_guard<std::mutex> lock(emitters.mutex);
  for (auto entry = emitters.emitters.begin(); entry != emitters.emitters.end();)
    entry = entry->first.first == machine ? emitters.emitters.erase(entry) : std::next(entry);
}

} // namespace taipan
