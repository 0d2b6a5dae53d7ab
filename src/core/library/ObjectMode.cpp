// `with objmode(...)` blocks: the library entry a rewritten block calls
// (`outputs = $taipan.objmode_call(block, inputs...)`), typed by the block's declared outputs
// and lowered as one call of the runtime's taipan_objmode_call.
#include "library/ObjectMode.h"
#include "library/Families.h"
#include "lower/LoopLowering.h"
#include "lower/LowerTypes.h"
#include "lower/LoweringApi.h"
#include "lower/ModuleLowering.h"
#include "runtime/LoadTimeSymbols.h"
#include "support/CompileError.h"
#include "typing/ObjectModeBlocks.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>

namespace taipan {
namespace {

using Values = std::vector<llvm::Value *>;

/// The type an input is boxed as: a string literal is boxed as the string it is.
const Type *boxedType(const Type *type) {
  return type->kind() == TypeKind::StringLiteral ? types::unicode() : type;
}

/// Why a value of `type` cannot enter an objmode block, or "" when it can: boxing must give
/// the interpreter the value itself (arrays, typed containers and strings share or copy what
/// cannot change), never a copy whose changes would be lost.
std::string refusalOf(const Type *type) {
  switch (type->kind()) {
  case TypeKind::Boolean:
  case TypeKind::Integer:
  case TypeKind::Float:
  case TypeKind::Complex:
  case TypeKind::None:
  case TypeKind::Array:
  case TypeKind::Unicode:
  case TypeKind::StringLiteral:
  case TypeKind::Record:
  case TypeKind::Datetime:
  case TypeKind::Timedelta:
  case TypeKind::Dict:
    return "";
  case TypeKind::List:
  case TypeKind::Set:
    if (type->kind() == TypeKind::List && !type->isReflected())
      return "";
    return "a reflected " + std::string(type->kind() == TypeKind::List ? "list" : "set") +
           " would be a copy in the block, and what the block changes in it would be lost "
           "(pass a typed.List, or an array)";
  case TypeKind::Optional:
    return refusalOf(type->optionalValue());
  case TypeKind::Tuple:
    for (const Type *element : type->elements()) {
      std::string inner = refusalOf(element);
      if (!inner.empty())
        return inner;
    }
    return "";
  default:
    return "values of this type cannot be passed to the interpreter";
  }
}

const ObjectModeBlock &blockOf(const LibraryCall &call) {
  const ObjectModeBlock *block =
      call.constants.empty() ? nullptr : findObjectModeBlock(call.constants[0]);
  if (!block)
    throw CompileError(CompileErrorKind::Internal, "unknown objmode block", call.location);
  return *block;
}

const Type *typeObjectModeCall(LibraryCall &call) {
  const ObjectModeBlock &block = blockOf(call);
  for (size_t i = 1; i < call.argumentTypes.size(); ++i) {
    const Type *type = call.argumentTypes[i];
    std::string refusal = refusalOf(type);
    if (!refusal.empty()) {
      std::string name = i - 1 < block.inputNames.size() ? block.inputNames[i - 1] : "?";
      throwTypingError("with objmode(...): the variable '" + name + "' (" + type->name() +
                           ") cannot be used in the block: " + refusal,
                       call.location);
    }
  }
  // The site is registered while typing as well: a process loading cached code types the
  // function again, and finds the site the code names by its key (objectModeSiteSymbol).
  std::vector<const Type *> boxed;
  for (size_t i = 1; i < call.argumentTypes.size(); ++i)
    boxed.push_back(boxedType(call.argumentTypes[i]));
  objectModeSite(static_cast<int>(call.constants[0]), boxed);
  if (block.outputTypes.empty())
    return types::none();
  return types::tuple(block.outputTypes);
}

/// The site's id as the code reads it: from its load-time symbol, which every process loading
/// the code resolves to its own id of the site, where the site has a key; else this process's
/// id, baked in (the code then is not cached).
llvm::Value *siteIdValue(LoweringApi &lowering, int site) {
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  std::string key = lowering.module().target.resolvesSymbolsAtLoad() ? objectModeSiteKey(site) : "";
  if (key.empty()) {
    lowering.module().processSpecific = "it runs a with objmode(...) block";
    return builder.getInt64(site);
  }
  std::string symbol = runtime::objectModeSiteSymbol(key);
  llvm::Module &module = lowering.module().module;
  llvm::GlobalVariable *cell = module.getGlobalVariable(symbol);
  if (!cell)
    cell = new llvm::GlobalVariable(module, builder.getInt64Ty(), true,
                                    llvm::GlobalValue::ExternalLinkage, nullptr, symbol);
  return builder.CreateLoad(builder.getInt64Ty(), cell, "objmode.site");
}

llvm::Value *lowerObjectModeCall(LoweringApi &lowering, const LibraryCall &call,
                                 const Values &values) {
  if (lowering.module().target.hasThreadHierarchy())
    throwUnsupported("with objmode(...) blocks run Python in the interpreter, which CUDA kernels "
                     "and device functions cannot do",
                     call.location);
  if (lowering.loops().runsOnThreadPool())
    throwUnsupported("with objmode(...) blocks cannot run in a prange loop or a parallel ufunc "
                     "(they take the GIL, which the threads of the pool must not wait for)",
                     call.location);
  llvm::IRBuilder<> &builder = lowering.irBuilder();
  llvm::LLVMContext &context = lowering.llvmContext();
  std::vector<const Type *> boxed;
  for (size_t i = 1; i < call.argumentTypes.size(); ++i)
    boxed.push_back(boxedType(call.argumentTypes[i]));
  int site = objectModeSite(static_cast<int>(call.constants[0]), boxed);
  llvm::Type *pointer = builder.getPtrTy();
  llvm::AllocaInst *pointers = lowering.createEntryAlloca(
      llvm::ArrayType::get(pointer, std::max<size_t>(boxed.size(), 1)), "objmode.inputs");
  for (size_t i = 0; i < boxed.size(); ++i) {
    llvm::Value *value = lowering.castValue(values[i + 1], call.argumentTypes[i + 1], boxed[i]);
    llvm::AllocaInst *slot =
        lowering.createEntryAlloca(memoryType(context, boxed[i]), "objmode.input");
    builder.CreateStore(toMemoryForm(builder, value, boxed[i]), slot);
    builder.CreateStore(slot, builder.CreateConstInBoundsGEP1_64(pointer, pointers, i));
  }
  const Type *resultType = call.resultType;
  llvm::Value *results = llvm::ConstantPointerNull::get(builder.getPtrTy());
  if (!resultType->isNone())
    results = lowering.createEntryAlloca(memoryType(context, resultType), "objmode.outputs");
  llvm::FunctionCallee runtime = lowering.module().runtimeFunction(
      "taipan_objmode_call", builder.getInt32Ty(), {builder.getInt64Ty(), pointer, pointer});
  lowering.exitUnlessZero(
      builder.CreateCall(runtime, {siteIdValue(lowering, site), pointers, results}));
  if (resultType->isNone())
    return llvm::UndefValue::get(valueType(context, resultType));
  llvm::Value *outputs = fromMemoryForm(
      builder, builder.CreateLoad(memoryType(context, resultType), results), resultType);
  lowering.addTemporary(outputs, resultType); // new references, unboxed for this call
  return outputs;
}

} // namespace

void registerObjectModeFunctions(Library &library) {
  LibraryFunction entry;
  entry.name = std::string(ObjectModeCallee).substr(1); // "taipan.objmode_call"
  entry.parameters = {LibraryParameter{}};
  entry.variadic = true;
  entry.constantArgument = LibraryConstantArgument{0, "must be an objmode block's id"};
  entry.type = typeObjectModeCall;
  entry.lower = lowerObjectModeCall;
  library.add(std::move(entry));
}

} // namespace taipan
