// NumPy's inner-loop entry around a compiled scalar function.
#include "cpu/UfuncLoopTarget.h"

#include "cpu/NumpyLoop.h"
#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "support/CompileError.h"

namespace taipan {

static bool crossesUfuncLoop(const Type *type) { return type->isNumber() || type->isBoolean(); }

void UfuncLoopTarget::checkEntry(const TypedFunction &root) const {
  for (const Type *argument : root.argumentTypes)
    if (!crossesUfuncLoop(argument))
      throwTypingError("a ufunc's arguments are numbers or booleans, not " + argument->name(),
                       root.source->definitionLocation);
  if (!crossesUfuncLoop(root.returnType))
    throwTypingError("a ufunc's function must return a number or a boolean, not " +
                         root.returnType->name(),
                     root.source->definitionLocation);
}

std::string UfuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root) const {
  return defineNumpyLoop(
      lowering, root, "_ufunc",
      [&](llvm::IRBuilder<> &builder, const NumpyLoopParameters &parameters) -> NumpyLoopElement {
        // Operand k's base pointer and step; the output is the last operand.
        size_t inputs = root.argumentTypes.size();
        std::vector<llvm::Value *> bases, steps;
        for (size_t k = 0; k <= inputs; ++k) {
          bases.push_back(loadEntry(builder, builder.getPtrTy(), parameters.operands, k));
          steps.push_back(loadEntry(builder, builder.getInt64Ty(), parameters.steps, k));
        }
        return [&root, inputs, bases, steps](llvm::IRBuilder<> &builder, llvm::Value *index) {
          llvm::LLVMContext &context = builder.getContext();
          // The result goes straight to the output.
          std::vector<llvm::Value *> arguments = {
              elementAddress(builder, bases[inputs], steps[inputs], index)};
          for (size_t k = 0; k < inputs; ++k)
            arguments.push_back(
                builder.CreateLoad(memoryType(context, root.argumentTypes[k]),
                                   elementAddress(builder, bases[k], steps[k], index)));
          return arguments;
        };
      });
}

} // namespace taipan
