// Calls of intrinsics (taipan.extending.intrinsic): the body, LLVM IR text or a whole module an
// llvmlite IRBuilder made, is parsed by LLVM's parser, verified, linked into the module once and
// always inlined; memory its entry block allocates with a size given by a parameter becomes the
// caller's (CallerAllocas below).
#include "lower/FunctionLowering.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>

namespace taipan {

namespace {

/// The line separating an intrinsic's module from modules linked with it (the device functions
/// its codegen calls in a kernel: taipan.intrinsic_builder's LINKED_MODULE_MARKER).
constexpr const char *LinkedModuleMarker = "\n; taipan.linked-module\n";

/// The function metadata listing the caller's allocas of an intrinsic: one node
/// {size parameter's index, undef of the allocated type, alignment} per extra parameter.
constexpr const char *CallerAllocasKey = "taipan.caller_allocas";

/// Numba's `cgutils.alloca_once(builder, type, size=args[0])` allocates in the caller's entry
/// block, so the memory lives as long as the caller's frame (numba-celltree returns it as an
/// array). In the intrinsic's own function such an alloca is dynamic (its size is a parameter),
/// and LLVM's inliner would release it where the inlined body ends. So each entry-block alloca
/// sized by a parameter becomes an extra pointer parameter, which every call site allocates in
/// its own frame: in its entry block when the size is a constant there (Numba's case), else
/// where the call is.
llvm::Function *withCallerAllocas(llvm::Function *function) {
  std::vector<llvm::AllocaInst *> moved;
  for (llvm::Instruction &instruction : function->getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (llvm::isa<llvm::Argument>(alloca->getArraySize()))
        moved.push_back(alloca);
  if (moved.empty())
    return function;
  llvm::LLVMContext &context = function->getContext();
  std::vector<llvm::Type *> parameters(function->getFunctionType()->param_begin(),
                                       function->getFunctionType()->param_end());
  for (llvm::AllocaInst *alloca : moved)
    parameters.push_back(llvm::PointerType::get(context, alloca->getAddressSpace()));
  auto *type = llvm::FunctionType::get(function->getReturnType(), parameters, false);
  llvm::Function *replacement =
      llvm::Function::Create(type, function->getLinkage(), "", function->getParent());
  replacement->copyAttributesFrom(function);
  replacement->splice(replacement->begin(), function);
  size_t count = function->arg_size();
  for (size_t i = 0; i < count; ++i) {
    function->getArg(static_cast<unsigned>(i))
        ->replaceAllUsesWith(replacement->getArg(static_cast<unsigned>(i)));
    replacement->getArg(static_cast<unsigned>(i))
        ->takeName(function->getArg(static_cast<unsigned>(i)));
  }
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  std::vector<llvm::Metadata *> plan;
  for (size_t j = 0; j < moved.size(); ++j) {
    llvm::AllocaInst *alloca = moved[j];
    auto *size = llvm::cast<llvm::Argument>(alloca->getArraySize());
    plan.push_back(llvm::MDNode::get(
        context,
        {llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, size->getArgNo())),
         llvm::ConstantAsMetadata::get(llvm::UndefValue::get(alloca->getAllocatedType())),
         llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, alloca->getAlign().value()))}));
    alloca->replaceAllUsesWith(replacement->getArg(static_cast<unsigned>(count + j)));
    alloca->eraseFromParent();
  }
  replacement->setMetadata(CallerAllocasKey, llvm::MDNode::get(context, plan));
  replacement->takeName(function);
  function->eraseFromParent();
  return replacement;
}

} // namespace

/// The intrinsic's body becomes an internal, always-inlined function of the module, parsed
/// from its IR text once per module (named by a hash of the text); the arguments convert to its
/// parameter types.
llvm::Value *FunctionLowering::lowerIntrinsicCall(Expr *expr, const IntrinsicBody &body) {
  std::vector<llvm::Value *> arguments;
  for (size_t i = 0; i < body.parameterTypes.size(); ++i) {
    size_t operand = body.argumentOrder.empty() ? i : body.argumentOrder[i];
    arguments.push_back(lowerExprAs(expr->operands[1 + operand], body.parameterTypes[i]));
  }
  return emitIntrinsic(body, std::move(arguments), expr->location);
}

llvm::Value *FunctionLowering::emitIntrinsic(const IntrinsicBody &body,
                                             std::vector<llvm::Value *> arguments,
                                             SourceLocation location) {
  std::string text = body.module;
  if (text.empty()) { // the text form: the instructions of a function taipan writes around them
    std::string parameters;
    for (size_t i = 0; i < body.parameterTypes.size(); ++i) {
      std::string typeText;
      llvm::raw_string_ostream stream(typeText);
      valueType(context, body.parameterTypes[i])->print(stream);
      parameters += (i ? ", " : "") + stream.str() + " %arg" + std::to_string(i);
    }
    llvm::Type *returnType =
        body.returnType->isNone() ? builder.getVoidTy() : valueType(context, body.returnType);
    std::string returnText;
    llvm::raw_string_ostream returnStream(returnText);
    returnType->print(returnStream);
    text = body.declarations + "\ndefine " + returnStream.str() + " @intrinsic(" + parameters +
           ") alwaysinline {\n" + body.instructions + "\n}\n";
  }
  if (!body.processSpecific.empty()) {
    // A function compiled for context.get_function is called at its address in this process.
    if (moduleLowering.target.hasThreadHierarchy())
      throwUnsupported("an intrinsic whose codegen calls context.get_function or "
                       "compile_internal runs on the CPU only",
                       location);
    moduleLowering.processSpecific = body.processSpecific;
  }
  std::string name = "taipan.intrinsic." + std::to_string(std::hash<std::string>()(text));
  llvm::Function *function = moduleLowering.module.getFunction(name);
  if (!function) {
    // The modules of device functions the codegen called in a kernel (context.get_function)
    // follow the intrinsic's own, each after LinkedModuleMarker.
    std::vector<std::string> texts;
    for (size_t start = 0;;) {
      size_t marker = text.find(LinkedModuleMarker, start);
      texts.push_back(text.substr(start, marker == std::string::npos ? marker : marker - start));
      if (marker == std::string::npos)
        break;
      start = marker + std::string(LinkedModuleMarker).size();
    }
    std::vector<std::unique_ptr<llvm::Module>> modules;
    for (const std::string &part : texts) {
      llvm::SMDiagnostic diagnostic;
      modules.push_back(llvm::parseAssemblyString(part, diagnostic, context));
      if (!modules.back()) {
        std::string message;
        llvm::raw_string_ostream stream(message);
        diagnostic.print("intrinsic", stream, false);
        throwTypingError("the LLVM IR of this intrinsic does not parse:\n" + stream.str(),
                         location);
      }
      modules.back()->setDataLayout(moduleLowering.module.getDataLayout());
      modules.back()->setTargetTriple(moduleLowering.module.getTargetTriple());
    }
    std::unique_ptr<llvm::Module> parsed = std::move(modules.front());
    for (size_t i = 1; i < modules.size(); ++i) {
      // Each device function's module defines the kernel's exception slots, which go. One
      // that can raise is refused: called by the C ABI, it could not make the kernel stop.
      std::vector<llvm::GlobalVariable *> slots;
      for (llvm::GlobalVariable &variable : modules[i]->globals())
        if (!variable.isDeclaration() && variable.getName().starts_with("taipan_cuda_exception"))
          slots.push_back(&variable);
      for (llvm::GlobalVariable *variable : slots) {
        if (!variable->use_empty())
          throwUnsupported("a function this intrinsic's codegen calls (context.get_function "
                           "or compile_internal) may raise an exception, which a kernel "
                           "cannot report from it",
                           location);
        variable->eraseFromParent();
      }
      // Its module flags (nvvm-reflect-ftz) are the kernel module's to set.
      if (llvm::NamedMDNode *flags = modules[i]->getModuleFlagsMetadata())
        modules[i]->eraseNamedMetadata(flags);
      if (llvm::Linker::linkModules(*parsed, std::move(modules[i])))
        throwTypingError("a device function this intrinsic calls clashes with its LLVM IR",
                         location);
    }
    std::string problems;
    llvm::raw_string_ostream problemStream(problems);
    if (llvm::verifyModule(*parsed, &problemStream))
      throwTypingError("the LLVM IR of this intrinsic is invalid:\n" + problemStream.str(),
                       location);
    llvm::Function *defined = parsed->getFunction("intrinsic");
    if (!defined || defined->isDeclaration())
      throwTypingError("the LLVM IR of this intrinsic defines no function @intrinsic", location);
    // What else the body defines (format strings, helpers) is its own: internal, renamed by the
    // linker where another intrinsic's has the same name.
    for (llvm::GlobalValue &global : parsed->global_values())
      if (&global != defined && !global.isDeclaration() && !global.hasLocalLinkage())
        global.setLinkage(llvm::GlobalValue::InternalLinkage);
    defined = withCallerAllocas(defined);
    defined->addFnAttr(llvm::Attribute::AlwaysInline);
    defined->removeFnAttr(llvm::Attribute::NoInline);
    defined->removeFnAttr(llvm::Attribute::OptimizeNone);
    defined->setName(name);
    parsed->setDataLayout(moduleLowering.module.getDataLayout());
    parsed->setTargetTriple(moduleLowering.module.getTargetTriple());
    if (llvm::Linker::linkModules(moduleLowering.module, std::move(parsed)))
      throwTypingError("the LLVM IR of this intrinsic clashes with the module's", location);
    // Linked with external linkage (the linker drops unused internal functions), then made
    // internal so that it is inlined and disappears.
    function = moduleLowering.module.getFunction(name);
    function->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  if (llvm::MDNode *plan = function->getMetadata(CallerAllocasKey))
    for (const llvm::MDOperand &operand : plan->operands()) {
      auto *entry = llvm::cast<llvm::MDNode>(operand.get());
      auto size = llvm::mdconst::extract<llvm::ConstantInt>(entry->getOperand(0))->getZExtValue();
      llvm::Type *allocated =
          llvm::cast<llvm::ConstantAsMetadata>(entry->getOperand(1))->getValue()->getType();
      auto align = llvm::mdconst::extract<llvm::ConstantInt>(entry->getOperand(2))->getZExtValue();
      llvm::Value *count = arguments[size];
      llvm::AllocaInst *memory;
      if (llvm::isa<llvm::Constant>(count)) {
        llvm::BasicBlock &entryBlock = target->getEntryBlock();
        llvm::IRBuilder<> entryBuilder(&entryBlock, entryBlock.begin());
        memory = entryBuilder.CreateAlloca(allocated, count, "intrinsic.alloca");
      } else {
        memory = builder.CreateAlloca(allocated, count, "intrinsic.alloca");
      }
      memory->setAlignment(llvm::Align(align));
      arguments.push_back(memory);
    }
  llvm::Value *call = builder.CreateCall(function, arguments);
  if (body.returnType->isNone())
    return llvm::UndefValue::get(valueType(context, body.returnType));
  addTemporary(call, body.returnType); // a new reference where it holds any (Numba's contract)
  return call;
}

} // namespace taipan
