// A platform as the compile pipeline sees it (the host CPU, CUDA): it makes the Target for a
// job's description and decides how optimised code is delivered (loaded into the process or not).
#pragma once

#include "target/Target.h"
#include "target/TargetDescription.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace taipan {

struct CompileOptions;

/// One platform code is compiled for. The pipeline (compiler/Compiler.cpp) runs the same stages
/// for every job; where platforms differ it asks the Target (lowering, finalisation,
/// optimisation, assembly) or this interface (the Target to make, delivery into the process).
/// A platform's hooks receive only Targets it made itself.
///
/// A new platform is one folder (its Target subclasses and its Platform) plus one line in
/// compiler/Platforms.cpp registering it under its name (TargetDescription::platform).
class Platform {
public:
  virtual ~Platform() = default;

  /// The Target for `description`; `options` (the root function's) give module-wide settings
  /// (opt, fastmath, max_registers). Throws CompileError (internal) for an entry kind the
  /// platform has no entry point for.
  virtual std::unique_ptr<Target> makeTarget(const TargetDescription &description,
                                             const CompileOptions &options) const = 0;
  /// What Target::emitAssembly gives, as stage timings name it ("PTX").
  virtual std::string assemblyName() const = 0;

  // Delivery into this process (CompileJob::Product::Callable). The defaults refuse: such a
  // platform delivers text only (CUDA: the driver loads PTX at launch).

  /// Whether code can be loaded into this process and called.
  virtual bool loadsIntoProcess() const { return false; }
  /// Renames the entry `entryName` of a finalised module to a symbol free in the process's
  /// loader and reserves it; returns the symbol.
  virtual std::string reserveEntryName(llvm::Module &module, const std::string &entryName) const;
  /// A quicker Target for the same lowered module (tiered compilation: the caller replaces the
  /// code once calls have paid for the full one), or null where this job has none. The module's
  /// own fitness is the pipeline's question (compiler/TieredCompilation).
  virtual std::unique_ptr<Target> firstTierTarget(const TargetDescription &description,
                                                  const CompileOptions &options) const;
  /// Gives `target` resources of its own (a target machine), so that several jobs optimise and
  /// generate code on threads at once.
  virtual void prepareForThreads(Target &target) const;
  /// Whether the pipeline generates object code before loading: asked for (`keepObject`, for
  /// the disk cache), or the platform's loader would not generate it as the target asks.
  virtual bool generatesObjectCode(const Target &target, bool keepObject) const;
  /// The object code of an optimised module.
  virtual std::string emitObject(const Target &target, llvm::Module &module) const;
  /// Loads an optimised module (when no object code was generated) or its object code, and
  /// returns the address of `entryName`.
  virtual void *load(const Target &target, std::unique_ptr<llvm::Module> module,
                     std::unique_ptr<llvm::LLVMContext> context, const std::string &objectCode,
                     const std::string &entryName) const;
  /// Loads object code a disk cache kept (once per process: code loaded before is found again)
  /// and returns the address of `entryName`.
  virtual void *loadCachedObject(const std::string &objectCode, const std::string &entryName) const;
};

} // namespace taipan
