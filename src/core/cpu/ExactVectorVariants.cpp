// Exact vector variants of libm calls: offered to the vectoriser through the calls'
// `vector-function-abi-variant` attribute, interleaving kept at 1, inlined after the pipeline.
#include "cpu/ExactVectorVariants.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

namespace taipan {
namespace {

/// Marks the call sites given exact variants (the loops InterleaveExactVariantLoopsOnce looks
/// for) and, as a function attribute, the variants themselves (what inlineExactVectorVariants
/// inlines).
constexpr const char *ExactVariantsAttribute = "taipan-exact-variants";

bool callsExactVariants(const llvm::Loop &loop) {
  for (llvm::BasicBlock *block : loop.blocks())
    for (llvm::Instruction &instruction : *block)
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
          call && call->hasFnAttr(ExactVariantsAttribute))
        return true;
  return false;
}

/// Declares the variant `name` of `type`: it throws nothing, returns, and reads no mutable
/// memory (its tables are constants). External until inlineExactVectorVariants defines it.
llvm::Function *declareVariant(llvm::Module &module, const std::string &name,
                               llvm::FunctionType *type) {
  auto *function = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module);
  function->setDoesNotThrow();
  function->setWillReturn();
  function->setDoesNotAccessMemory();
  return function;
}

std::string maskedVariantName(llvm::StringRef libmName, unsigned lanes) {
  return "taipan_exact_" + libmName.str() + "_m" + std::to_string(lanes);
}

/// The body of the masked form of `variant` (the vectoriser's call where the scalar call is
/// conditional): lanes whose mask bit is clear compute the function of +0 instead, so that they
/// raise no floating-point exception the scalar loop would not (a lane skipping exp(800) must
/// not raise overflow, which NumPy's ufunc loops report).
void defineMaskedBody(llvm::Function &masked, llvm::Function &variant) {
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(masked.getContext(), "entry", &masked));
  llvm::Value *input = builder.CreateSelect(masked.getArg(1), masked.getArg(0),
                                            llvm::Constant::getNullValue(variant.getReturnType()));
  builder.CreateRet(builder.CreateCall(&variant, {input}));
}

/// Inlines every call of `function` into functions other than the variants.
void inlineCalls(llvm::Function &function) {
  llvm::SmallVector<llvm::CallBase *, 8> calls;
  for (llvm::User *user : function.users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user);
        call && call->getCalledFunction() == &function &&
        !call->getFunction()->hasFnAttribute(ExactVariantsAttribute))
      calls.push_back(call);
  for (llvm::CallBase *call : calls) {
    llvm::InlineFunctionInfo info;
    llvm::InlineFunction(*call, info);
  }
}

} // namespace

llvm::GlobalVariable *constantTable(llvm::Module &module, llvm::StringRef name,
                                    llvm::ArrayRef<uint64_t> words) {
  if (llvm::GlobalVariable *table = module.getNamedGlobal(name))
    return table;
  auto *table = new llvm::GlobalVariable(
      module, llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), words.size()),
      /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantDataArray::get(module.getContext(), words), name);
  table->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  return table;
}

std::string variantName(llvm::StringRef libmName, unsigned lanes) {
  return "taipan_exact_" + libmName.str() + "_v" + std::to_string(lanes);
}

void offerExactVectorVariants(llvm::Module &module, const ExactVectorVariants &variants) {
  llvm::Function *libm = module.getFunction(variants.libmName);
  if (!libm)
    return;
  // The vector function ABI's names for LLVM's own variants: _ZGV_LLVM_<N or M><lanes>v_<libm>,
  // M for the masked ones.
  std::string mappings;
  for (unsigned lanes : variants.lanes)
    for (bool masked : {false, true})
      mappings += (mappings.empty() ? "_ZGV_LLVM_" : ",_ZGV_LLVM_") +
                  ((masked ? "M" : "N") + std::to_string(lanes)) + "v_" + variants.libmName.str() +
                  "(" + (masked ? maskedVariantName : variantName)(variants.libmName, lanes) + ")";
  bool offered = false;
  for (llvm::User *user : libm->users()) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || call->getCalledFunction() != libm || call->hasApproxFunc())
      continue;
    call->addFnAttr(
        llvm::Attribute::get(module.getContext(), "vector-function-abi-variant", mappings));
    call->addFnAttr(llvm::Attribute::get(module.getContext(), ExactVariantsAttribute));
    offered = true;
  }
  if (!offered || module.getFunction(variantName(variants.libmName, variants.lanes.front())))
    return;
  llvm::Type *scalarType = libm->getReturnType();
  llvm::SmallVector<llvm::GlobalValue *, 8> declared;
  for (unsigned lanes : variants.lanes) {
    llvm::Type *vectorType = llvm::FixedVectorType::get(scalarType, lanes);
    llvm::Type *maskType =
        llvm::FixedVectorType::get(llvm::Type::getInt1Ty(module.getContext()), lanes);
    declared.push_back(declareVariant(module, variantName(variants.libmName, lanes),
                                      llvm::FunctionType::get(vectorType, {vectorType}, false)));
    declared.push_back(
        declareVariant(module, maskedVariantName(variants.libmName, lanes),
                       llvm::FunctionType::get(vectorType, {vectorType, maskType}, false)));
  }
  for (llvm::GlobalValue *variant : declared)
    llvm::cast<llvm::Function>(variant)->addFnAttr(ExactVariantsAttribute);
  llvm::appendToCompilerUsed(module, declared);
}

llvm::SmallVector<llvm::Value *, 2> readLaneByLane(llvm::IRBuilderBase &builder,
                                                   llvm::GlobalVariable *table,
                                                   llvm::Value *indices, unsigned count) {
  auto *indexType = llvm::cast<llvm::FixedVectorType>(indices->getType());
  llvm::Type *entryType = table->getValueType()->getArrayElementType();
  llvm::SmallVector<llvm::Value *, 2> entries(
      count,
      llvm::PoisonValue::get(llvm::FixedVectorType::get(entryType, indexType->getNumElements())));
  for (unsigned lane = 0; lane < indexType->getNumElements(); ++lane) {
    llvm::Value *index = builder.CreateExtractElement(indices, lane);
    for (unsigned offset = 0; offset < count; ++offset) {
      llvm::Value *address = builder.CreateInBoundsGEP(
          table->getValueType(), table,
          {builder.getInt64(0), builder.CreateAdd(index, builder.getInt64(offset))});
      entries[offset] = builder.CreateInsertElement(entries[offset],
                                                    builder.CreateLoad(entryType, address), lane);
    }
  }
  return entries;
}

llvm::PreservedAnalyses
InterleaveExactVariantLoopsOnce::run(llvm::Function &function,
                                     llvm::FunctionAnalysisManager &analyses) {
  llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost() && callsExactVariants(*loop) &&
        !llvm::findStringMetadataForLoop(loop, "llvm.loop.interleave.count"))
      llvm::addStringMetadataToLoop(loop, "llvm.loop.interleave.count", 1);
  // Loop metadata is no part of any analysis.
  return llvm::PreservedAnalyses::all();
}

void inlineExactVectorVariants(llvm::Module &module,
                               llvm::ArrayRef<const ExactVectorVariants *> offered) {
  llvm::SmallVector<llvm::Function *, 8> variants;
  for (llvm::Function &function : module)
    if (function.hasFnAttribute(ExactVariantsAttribute))
      variants.push_back(&function);
  if (variants.empty())
    return;
  // The libm calls left (scalar loops, remainders) lose the offer: it names removed functions.
  for (const ExactVectorVariants *described : offered)
    if (llvm::Function *libm = module.getFunction(described->libmName))
      for (llvm::User *user : libm->users())
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(user);
            call && call->hasFnAttr(ExactVariantsAttribute)) {
          call->removeFnAttr(ExactVariantsAttribute);
          call->removeFnAttr("vector-function-abi-variant");
        }
  llvm::removeFromUsedLists(
      module, [&](llvm::Constant *value) { return llvm::is_contained(variants, value); });
  for (llvm::Function *variant : variants)
    variant->removeDeadConstantUsers(); // the old llvm.compiler.used array
  for (const ExactVectorVariants *described : offered)
    for (unsigned lanes : described->lanes) {
      llvm::Function *variant = module.getFunction(variantName(described->libmName, lanes));
      llvm::Function *masked = module.getFunction(maskedVariantName(described->libmName, lanes));
      if (!variant || !masked)
        continue;
      // The masked form first: its body calls the other, inlined next with the rest.
      if (!masked->use_empty()) {
        masked->setLinkage(llvm::GlobalValue::PrivateLinkage);
        defineMaskedBody(*masked, *variant);
        inlineCalls(*masked);
      }
      if (!variant->use_empty()) {
        variant->setLinkage(llvm::GlobalValue::PrivateLinkage);
        described->defineBody(*variant);
        inlineCalls(*variant);
      }
    }
  // Every variant goes, with the tables only their bodies read (masked bodies call the others).
  llvm::SmallPtrSet<llvm::GlobalVariable *, 2> tables;
  for (llvm::Function *variant : variants) {
    for (llvm::Instruction &instruction : llvm::instructions(*variant))
      for (llvm::Value *operand : instruction.operands())
        if (auto *table = llvm::dyn_cast<llvm::GlobalVariable>(operand))
          tables.insert(table);
    variant->dropAllReferences();
  }
  for (llvm::Function *variant : variants)
    if (variant->use_empty())
      variant->eraseFromParent();
  for (llvm::GlobalVariable *table : tables) {
    table->removeDeadConstantUsers();
    if (table->use_empty())
      table->eraseFromParent();
  }
}

} // namespace taipan
