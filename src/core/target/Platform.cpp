// The defaults of Platform's delivery hooks: a platform that does not load code into the process
// refuses jobs asking it to, as an internal error (the bindings never ask).
#include "target/Platform.h"

#include "support/CompileError.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace taipan {
namespace {

[[noreturn]] void refuseLoading() {
  throw CompileError(CompileErrorKind::Internal,
                     "this platform delivers text (assembly), not code loaded into the process",
                     {});
}

} // namespace

std::string Platform::reserveEntryName(llvm::Module &, const std::string &) const {
  refuseLoading();
}

std::unique_ptr<Target> Platform::firstTierTarget(const TargetDescription &,
                                                  const CompileOptions &) const {
  return nullptr;
}

void Platform::prepareForThreads(Target &) const {}

bool Platform::generatesObjectCode(const Target &, bool) const { refuseLoading(); }

std::string Platform::emitObject(const Target &, llvm::Module &) const { refuseLoading(); }

void *Platform::load(const Target &, std::unique_ptr<llvm::Module>,
                     std::unique_ptr<llvm::LLVMContext>, const std::string &,
                     const std::string &) const {
  refuseLoading();
}

void *Platform::loadCachedObject(const std::string &, const std::string &) const {
  refuseLoading();
}

} // namespace taipan
