// `e.args` in a compiled handler: `$taipan.caught_args(index, (site arguments)...)`, typed as
// the tuple of the try body's raise statements' argument types (the same for every one, up to
// numeric promotion) and read at run time from the exception Python would see, checked against
// that type (runtime/ExceptionArguments.h).
#include "library/ExceptionArguments.h"
#include "library/Families.h"
#include "lower/ExceptionDescriptors.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "support/CompileError.h"
#include "types/NumericPromotion.h"

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// A string literal as the string it is, inside tuples too.
const Type *asValue(const Type *type) {
  if (type->kind() == TypeKind::StringLiteral)
    return types::unicode();
  if (!type->isTuple())
    return type;
  std::vector<const Type *> elements;
  for (const Type *element : type->elements())
    elements.push_back(asValue(element));
  return types::tuple(elements);
}

const Type *unifySites(const Type *a, const Type *b) {
  if (a == b)
    return a;
  if (!a->isTuple() || !b->isTuple())
    return unifyTypes(a, b);
  if (a->elements().size() != b->elements().size())
    return nullptr;
  std::vector<const Type *> elements;
  for (size_t i = 0; i < a->elements().size(); ++i) {
    const Type *element = unifySites(a->elements()[i], b->elements()[i]);
    if (!element)
      return nullptr;
    elements.push_back(element);
  }
  return types::tuple(elements);
}

const Type *typeCaughtArguments(LibraryCall &call) {
  const Type *result = nullptr;
  for (size_t i = 1; i < call.argumentTypes.size(); ++i) {
    const Type *site = asValue(call.argumentTypes[i]);
    const Type *unified = result ? unifySites(result, site) : site;
    if (!unified)
      throwTypingError("e.args: the raise statements of the try body give the exception "
                       "arguments of different types (" +
                           result->name() + " and " + site->name() +
                           "), so compiled code cannot give e.args one type",
                       call.location);
    result = unified;
  }
  std::string descriptor;
  if (!result || !describeExceptionArgument(result, descriptor))
    throwUnsupported("e.args: compiled code reads exception arguments that are numbers, None, "
                     "strings or tuples of them, not " +
                         (result ? result->name() : std::string("nothing")),
                     call.location);
  return result;
}

llvm::Value *lowerCaughtArguments(LoweringApi &lowering, const LibraryCall &call, const Values &) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::LLVMContext &context = lowering.llvmContext();
  llvm::Value *index = lowering.lowerExpr(call.arguments[0]);
  std::string descriptor;
  for (const Type *element : call.resultType->elements())
    describeExceptionArgument(element, descriptor);
  llvm::AllocaInst *result =
      lowering.createEntryAlloca(memoryType(context, call.resultType), "caught.args");
  llvm::FunctionCallee runtime = lowering.module().runtimeFunction(
      "taipan_caught_args", builder.getInt32Ty(),
      {builder.getInt64Ty(), builder.getPtrTy(), builder.getPtrTy()});
  lowering.exitUnlessZero(
      builder.CreateCall(runtime, {index, lowering.module().stringConstant(descriptor), result}));
  llvm::Value *arguments = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(context, call.resultType), result), call.resultType);
  lowering.addTemporary(arguments, call.resultType); // new references, unboxed for this read
  return arguments;
}

} // namespace

void registerExceptionArgumentFunctions(Library &library) {
  LibraryFunction entry;
  entry.name = "taipan.caught_args";
  entry.parameters = {LibraryParameter{}};
  entry.variadic = true;
  entry.targets = OnCpu;
  entry.lowersArguments = true; // only the index: the sites are read for their types
  entry.type = typeCaughtArguments;
  entry.lower = lowerCaughtArguments;
  library.add(std::move(entry));
}

} // namespace taipan
