// taipan's thread-pool functions called from compiled code: get_thread_id() and
// get_num_threads(), read from the runtime (CPU only; a GPU has its own thread indices).
#include "library/Families.h"

#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"

namespace taipan {

void registerThreadFunctions(Library &library) {
  for (const char *name : {"get_thread_id", "get_num_threads"}) {
    LibraryFunction function;
    function.name = std::string("taipan.") + name;
    function.targets = OnCpu;
    function.type = [](const LibraryCall &) { return types::int64(); };
    std::string runtimeName = std::string("taipan_") + name;
    function.lower = [runtimeName](LoweringApi &lowering, const LibraryCall &,
                                   const std::vector<llvm::Value *> &) -> llvm::Value * {
      llvm::IRBuilder<> &builder = lowering.irBuilder();
      return builder.CreateCall(
          lowering.module().runtimeFunction(runtimeName, builder.getInt64Ty(), {}));
    };
    library.add(std::move(function));
  }
}

} // namespace taipan
