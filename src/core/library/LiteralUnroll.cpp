// taipan.literal_unroll (Numba's numba.literal_unroll) called as a function: the container
// itself; and taipan.literally, the value itself. A for loop over it is typed by TypeInference
// (copies of the body for a tuple of items of different types, typing/LiteralUnroll.h) and lowered
// by lower/LowerUnrolledLoops.
#include "library/Families.h"

#include "lower/LoweringApi.h"

namespace taipan {

void registerLiteralUnroll(Library &library) {
  library.add(
      "taipan.literal_unroll", {{"container", false}},
      [](LibraryCall &call) -> const Type * {
        const Type *container = call.argumentTypes[0];
        if (container->kind() == TypeKind::StringLiteral)
          return types::unicode();
        // A tuple of functions (jitted ones carry nothing at run time) is unrolled too.
        if (!container->isRuntimeValue() && !container->isTuple())
          throwNoOverload(call);
        return container;
      },
      [](LoweringApi &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &arguments) -> llvm::Value * {
        return lowering.castValue(arguments[0], call.argumentTypes[0], call.resultType);
      });
  // taipan.literally (Numba's numba.literally): the value itself, once CallInference has made
  // sure it is a literal (else the callers, or the dispatcher, specialise on its value).
  library.add(
      "taipan.literally", {{"value", false}},
      [](LibraryCall &call) -> const Type * { return call.argumentTypes[0]; },
      [](LoweringApi &lowering, const LibraryCall &call,
         const std::vector<llvm::Value *> &arguments) -> llvm::Value * {
        return lowering.castValue(arguments[0], call.argumentTypes[0], call.resultType);
      });
}

} // namespace taipan
