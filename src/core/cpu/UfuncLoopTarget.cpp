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

/// The chunk of the vectorised loop copy: a broadcast scalar input is copied into a buffer of
/// this many elements once per call, so every operand is contiguous within a chunk.
constexpr int64_t SplatChunk = 512;

std::string UfuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                         const std::vector<TypedFunction *> &) const {
  return defineNumpyLoop(
      lowering, root, "_ufunc",
      [&](llvm::IRBuilder<> &builder, const NumpyLoopParameters &parameters) -> NumpyLoopBody {
        // Operand k's base pointer, step and element type; the output is the last operand.
        llvm::LLVMContext &context = builder.getContext();
        llvm::Function *function = builder.GetInsertBlock()->getParent();
        size_t inputs = root.argumentTypes.size();
        std::vector<llvm::Value *> bases, steps, broadcast;
        std::vector<llvm::Type *> elements;
        llvm::Value *vectorisable = nullptr;
        for (size_t k = 0; k <= inputs; ++k) {
          const Type *operand = k < inputs ? root.argumentTypes[k] : root.returnType;
          elements.push_back(memoryType(context, operand));
          bases.push_back(loadEntry(builder, builder.getPtrTy(), parameters.operands, k));
          steps.push_back(loadEntry(builder, builder.getInt64Ty(), parameters.steps, k));
          int64_t size = static_cast<int64_t>(operand->storageSize());
          llvm::Value *packed = builder.CreateICmpEQ(steps[k], builder.getInt64(size));
          broadcast.push_back(builder.CreateICmpEQ(steps[k], builder.getInt64(0)));
          // The output must be contiguous; an input may also be a broadcast scalar.
          llvm::Value *usable = k < inputs ? builder.CreateOr(packed, broadcast[k]) : packed;
          vectorisable = vectorisable ? builder.CreateAnd(vectorisable, usable) : usable;
        }
        // Each broadcast input's value, repeated over a chunk's buffer (at most `count`
        // copies, so a short call copies little).
        llvm::Value *count = loadEntry(builder, builder.getInt64Ty(), parameters.dimensions, 0);
        llvm::Value *chunk = builder.getInt64(SplatChunk);
        llvm::Value *copies =
            builder.CreateSelect(builder.CreateICmpSLT(count, chunk), count, chunk);
        std::vector<llvm::Value *> splats;
        for (size_t k = 0; k < inputs; ++k) {
          splats.push_back(builder.CreateAlloca(elements[k], chunk, "splat"));
          llvm::BasicBlock *fill = llvm::BasicBlock::Create(context, "splat.fill", function);
          llvm::BasicBlock *filled = llvm::BasicBlock::Create(context, "splat.filled", function);
          llvm::BasicBlock *from = builder.GetInsertBlock();
          builder.CreateCondBr(
              builder.CreateAnd(broadcast[k], builder.CreateICmpSGT(copies, builder.getInt64(0))),
              fill, filled);
          builder.SetInsertPoint(fill);
          llvm::PHINode *j = builder.CreatePHI(builder.getInt64Ty(), 2, "j");
          j->addIncoming(builder.getInt64(0), from);
          llvm::Value *value = builder.CreateLoad(elements[k], bases[k]);
          builder.CreateStore(value, builder.CreateGEP(elements[k], splats[k], j));
          llvm::Value *nextJ = builder.CreateNSWAdd(j, builder.getInt64(1));
          j->addIncoming(nextJ, fill);
          builder.CreateCondBr(builder.CreateICmpSLT(nextJ, copies), fill, filled);
          builder.SetInsertPoint(filled);
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
        // The vectorisable copy: within a chunk every operand is a typed pointer (into the
        // array, or into the splat buffer of a broadcast input).
        auto current = std::make_shared<std::vector<llvm::Value *>>(inputs + 1);
        NumpyLoopForm chunked;
        chunked.condition = vectorisable;
        chunked.chunk = SplatChunk;
        chunked.beginChunk = [current, bases, elements, broadcast, splats,
                              inputs](llvm::IRBuilder<> &builder, llvm::Value *start) {
          for (size_t k = 0; k <= inputs; ++k) {
            llvm::Value *rebased = builder.CreateGEP(elements[k], bases[k], start);
            (*current)[k] =
                k < inputs ? builder.CreateSelect(broadcast[k], splats[k], rebased) : rebased;
          }
        };
        chunked.element =
            element([current, elements](llvm::IRBuilder<> &builder, size_t k, llvm::Value *index) {
              return builder.CreateGEP(elements[k], (*current)[k], index);
            });
        body.forms.push_back(std::move(chunked));
        return body;
      });
}

} // namespace taipan
