// User ufuncs registered as library functions: NumPy's loop selection from the host, each
// element a call of the scalar function typed for the loop.
#include "compiler/UserUfuncs.h"

#include "compiler/Compiler.h"
#include "library/Families.h"
#include "lower/LoweringApi.h"

#include <mutex>

namespace taipan {

void registerUserUfunc(UserUfunc ufunc) {
  UfuncKernel kernel;
  kernel.inputs = ufunc.inputs;
  kernel.scalarFunction = ufunc.scalarFunction;
  auto select = std::move(ufunc.selectLoop);
  kernel.selectLoop = [select](const std::vector<const Type *> &elements) {
    std::optional<UfuncLoop> loop;
    UfuncLoop found;
    if (select(elements, found.inputs, found.output))
      loop = std::move(found);
    return loop;
  };
  // The scalar function returns its own type; the element converts it to the loop's output.
  kernel.lowerElement = [](LoweringApi &lowering, const LibraryCall &call,
                           const std::vector<llvm::Value *> &values) {
    TypedFunction &callee = *call.elementCallee;
    return lowering.castValue(lowering.callTypedFunction(callee, values), callee.returnType,
                              call.loop.output);
  };
  CompilerLock lock;
  Library::addAtRunTime(makeUfunc(ufunc.name, std::move(kernel)));
}

} // namespace taipan
