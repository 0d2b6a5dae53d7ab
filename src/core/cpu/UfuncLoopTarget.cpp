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

/// Loops with up to this many inputs get a vectorisable copy for every mix of contiguous and
/// broadcast-scalar inputs (2^inputs copies); more inputs get one for all contiguous.
constexpr size_t MaximumInputsForBroadcastForms = 3;

std::string UfuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root) const {
  return defineNumpyLoop(
      lowering, root, "_ufunc",
      [&](llvm::IRBuilder<> &builder, const NumpyLoopParameters &parameters) -> NumpyLoopBody {
        // Operand k's base pointer, step and element type; the output is the last operand.
        llvm::LLVMContext &context = builder.getContext();
        size_t inputs = root.argumentTypes.size();
        std::vector<llvm::Value *> bases, steps, packed, broadcast;
        std::vector<llvm::Type *> elements;
        for (size_t k = 0; k <= inputs; ++k) {
          const Type *operand = k < inputs ? root.argumentTypes[k] : root.returnType;
          elements.push_back(memoryType(context, operand));
          bases.push_back(loadEntry(builder, builder.getPtrTy(), parameters.operands, k));
          steps.push_back(loadEntry(builder, builder.getInt64Ty(), parameters.steps, k));
          int64_t size = static_cast<int64_t>(operand->storageSize());
          packed.push_back(builder.CreateICmpEQ(steps[k], builder.getInt64(size)));
          broadcast.push_back(builder.CreateICmpEQ(steps[k], builder.getInt64(0)));
        }
        // An element's arguments, given how operand k's address is found: the result goes
        // straight to the output, the inputs are loaded as memory forms.
        using Address = std::function<llvm::Value *(llvm::IRBuilder<> &, size_t, llvm::Value *)>;
        auto element = [&root, inputs, elements](Address address) -> NumpyLoopElement {
          return
              [&root, inputs, elements, address](llvm::IRBuilder<> &builder, llvm::Value *index) {
                std::vector<llvm::Value *> arguments = {address(builder, inputs, index)};
                for (size_t k = 0; k < inputs; ++k)
                  arguments.push_back(builder.CreateLoad(elements[k], address(builder, k, index)));
                return arguments;
              };
        };
        NumpyLoopBody body;
        body.element =
            element([bases, steps](llvm::IRBuilder<> &builder, size_t k, llvm::Value *index) {
              return elementAddress(builder, bases[k], steps[k], index);
            });
        // Special forms: the output contiguous, each input contiguous or (bit k of `mix`) a
        // broadcast scalar read at its base.
        size_t mixes = inputs <= MaximumInputsForBroadcastForms ? size_t(1) << inputs : 1;
        for (size_t mix = 0; mix < mixes; ++mix) {
          llvm::Value *condition = packed[inputs];
          for (size_t k = 0; k < inputs; ++k)
            condition = builder.CreateAnd(condition, (mix >> k) & 1 ? broadcast[k] : packed[k]);
          body.forms.push_back(
              {condition, element([bases, elements, mix, inputs](llvm::IRBuilder<> &builder,
                                                                 size_t k, llvm::Value *index) {
                 bool scalar = k < inputs && ((mix >> k) & 1);
                 return scalar ? bases[k] : builder.CreateGEP(elements[k], bases[k], index);
               })});
        }
        return body;
      });
}

} // namespace taipan
