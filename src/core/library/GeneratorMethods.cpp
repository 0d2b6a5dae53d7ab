// The methods of generators in compiled code: send(), throw() and close(), with CPython's
// semantics over the coroutine protocol of runtime/Generators.h (the resumer writes the promise's
// control word and sent value, the body reads them where it resumes, lower/LowerGenerators.cpp).
#include "library/Families.h"

#include "lower/ContainerLowering.h"
#include "lower/ExceptionLowering.h"
#include "lower/GeneratorLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "runtime/Generators.h"
#include "runtime/Runtime.h"
#include "types/NumericPromotion.h"
#include "typing/OptionalTyping.h"

#include <llvm/IR/Constants.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

const Type *generatorArgument(const LibraryCall &call) {
  const Type *generator = call.argumentTypes[0];
  if (!generator->isGenerator())
    throwNoOverload(call);
  return generator;
}

/// The item a resume gave (`status`, from the runtime), or StopIteration when it ended.
llvm::Value *itemOrStopIteration(LoweringApi &lowering, llvm::Value *generator, const Type *type,
                                 llvm::Value *status) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::BasicBlock *exhausted = lowering.newBlock("generator.stopped");
  llvm::BasicBlock *current = builder.GetInsertBlock();
  builder.SetInsertPoint(exhausted);
  lowering.exceptions().emitRaise(StopIterationId, "");
  builder.SetInsertPoint(current);
  return lowering.generators().nextGeneratorItem(generator, type, exhausted, status);
}

/// The address of the promise's sent slot in the frame of `generator`.
llvm::Value *sentSlot(LoweringApi &lowering, llvm::Value *generator, const Type *type) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::Value *frame = builder.CreateLoad(
      builder.getPtrTy(), builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), generator,
                                                             runtime::MemInfoDataOffset));
  size_t offset = generatorPromiseType(type->yieldType())->elementOffset(3);
  return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), frame,
                                            runtime::GeneratorPromiseOffset + offset);
}

} // namespace

void registerGeneratorMethods(Library &library) {
  // g.send(v): v becomes the value of the yield expression the generator is suspended at.
  addCpu(
      library, "generator.send", {{"", false}, {"", false}},
      [](LibraryCall &call) {
        const Type *generator = generatorArgument(call);
        const Type *value = call.argumentTypes[1];
        if (value->isNone())
          return generator->yieldType();
        const Type *sent = generatorSentType(generator->yieldType());
        if (!sent)
          throwUnsupported("send() of a value into a " + generator->name() +
                               " is not supported (only generators of numbers or tuples of "
                               "them take sent values)",
                           call.location);
        if (unifyWithOptional(sent, value) != sent)
          throwTypingError("send() of a " + value->name() + " into a " + generator->name() +
                               " (its yield expressions take " + sent->name() + ")",
                           call.location);
        return generator->yieldType();
      },
      [](LoweringApi &lowering, const LibraryCall &call, const Values &values) {
        llvm::IRBuilder<> &builder = lowering.irBuilder();
        const Type *generator = call.argumentTypes[0], *value = call.argumentTypes[1];
        const Type *sent = generatorSentType(generator->yieldType());
        llvm::Value *hasValue = builder.getInt32(0);
        if (sent && !value->isNone()) {
          llvm::Value *converted = lowering.castValue(values[1], value, sent);
          builder.CreateStore(toMemoryForm(builder, converted, sent),
                              sentSlot(lowering, values[0], generator));
          hasValue =
              builder.CreateZExt(builder.CreateExtractValue(converted, 0), builder.getInt32Ty());
        }
        llvm::Value *status = lowering.containers().listRuntime(
            "taipan_generator_send", builder.getInt32Ty(), {values[0], hasValue});
        return itemOrStopIteration(lowering, values[0], generator, status);
      });
  // g.throw(E) or g.throw(E("message")): raised where the generator is suspended.
  LibraryFunction thrower;
  thrower.name = "generator.throw";
  thrower.parameters = {{"", false}, {"", false}};
  thrower.targets = OnCpu;
  thrower.lowersArguments = true; // the exception is a class and constant arguments
  thrower.type = [](LibraryCall &call) {
    const Type *generator = generatorArgument(call);
    if (call.argumentTypes[1]->kind() != TypeKind::ExceptionClass)
      throwUnsupported("throw() takes an exception class, or an instance built from constant "
                       "arguments",
                       call.location);
    return generator->yieldType();
  };
  thrower.lower = [](LoweringApi &lowering, const LibraryCall &call, const Values &) {
    llvm::IRBuilder<> &builder = lowering.irBuilder();
    Expr *raised = call.arguments[1];
    std::optional<std::string> message = lowering.exceptions().exceptionMessage(raised);
    if (!message)
      throwUnsupported("throw() of an exception whose message is made at run time is not "
                       "supported",
                       call.location);
    llvm::Value *exceptionId =
        lowering.exceptions().exceptionIdValue(call.argumentTypes[1]->exceptionId());
    llvm::Value *generator = lowering.lowerExpr(call.arguments[0]);
    lowering.containers().listRuntime(
        "taipan_raise", builder.getVoidTy(),
        {exceptionId, builder.CreateGlobalString(*message, "throw.message")});
    llvm::Value *status = lowering.containers().listRuntime(
        "taipan_generator_throw", builder.getInt32Ty(), {generator, exceptionId});
    return itemOrStopIteration(lowering, generator, call.argumentTypes[0], status);
  };
  library.add(std::move(thrower));
  // g.close(): finishes the generator now (its finally blocks run); later resumes find it done.
  addCpu(
      library, "generator.close", {{"", false}},
      [](LibraryCall &call) {
        generatorArgument(call);
        return types::none();
      },
      [](LoweringApi &lowering, const LibraryCall &, const Values &values) {
        lowering.containers().listRuntime("taipan_generator_close",
                                          lowering.irBuilder().getVoidTy(), {values[0]});
        return noneValue(lowering);
      });
}

} // namespace taipan
