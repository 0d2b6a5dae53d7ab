// NumPy's generalized-ufunc inner-loop entry around a compiled function of array views.
#include "cpu/GufuncLoopTarget.h"

#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "support/CompileError.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace taipan {

GufuncLoopTarget::GufuncLoopTarget(int optimizationLevel,
                                   std::vector<std::vector<int>> coreDimensions)
    : CpuTarget(optimizationLevel), coreDimensions(std::move(coreDimensions)) {}

std::vector<std::string> GufuncLoopTarget::identity() const {
  std::vector<std::string> fields = CpuTarget::identity();
  std::string layout;
  for (const std::vector<int> &operand : coreDimensions) {
    layout += "(";
    for (int dimension : operand)
      layout += std::to_string(dimension) + ",";
    layout += ")";
  }
  fields.push_back(layout);
  return fields;
}

void GufuncLoopTarget::checkEntry(const TypedFunction &root) const {
  SourceLocation where = root.source->definitionLocation;
  if (root.argumentTypes.size() != coreDimensions.size())
    throwTypingError("the layout has " + std::to_string(coreDimensions.size()) +
                         " operands but the signature gives " +
                         std::to_string(root.argumentTypes.size()) + " types",
                     where);
  for (size_t k = 0; k < coreDimensions.size(); ++k) {
    const Type *type = root.argumentTypes[k];
    int core = static_cast<int>(coreDimensions[k].size());
    bool fits = type->isArray() ? type->ndim() == core || (core == 0 && type->ndim() == 1)
                                : core == 0 && (type->isNumber() || type->isBoolean());
    if (!fits)
      throwTypingError("operand " + std::to_string(k + 1) + " has " + std::to_string(core) +
                           " core dimensions in the layout but the signature gives " + type->name(),
                       where);
  }
  if (!root.returnType->isNone())
    throwTypingError("a gufunc writes its outputs in place and returns nothing, not " +
                         root.returnType->name(),
                     where);
}

std::string GufuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root) const {
  llvm::LLVMContext &context = lowering.context;
  const llvm::DataLayout &dataLayout = lowering.module.getDataLayout();
  llvm::Function *callee = lowering.declare(root);
  auto *pointer = llvm::PointerType::getUnqual(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {pointer, pointer, pointer, pointer}, false);
  auto *loop = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                      root.symbolName + "_gufunc", lowering.module);
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(context, "entry", loop);
  llvm::BasicBlock *header = llvm::BasicBlock::Create(context, "loop", loop);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(context, "element", loop);
  llvm::BasicBlock *failed = llvm::BasicBlock::Create(context, "failed", loop);
  llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "next", loop);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(context, "done", loop);
  llvm::IRBuilder<> builder(entry);
  lowering.describeWrapper(loop, callee, builder);
  llvm::Value *ignored = builder.CreateAlloca(builder.getInt8Ty()); // the None result

  size_t operands = coreDimensions.size();
  auto loadAt = [&](llvm::Type *element, llvm::Value *base, size_t index) {
    return builder.CreateLoad(element, builder.CreateConstGEP1_64(element, base, index));
  };
  // Outer bases and steps, then each operand's core sizes and strides (NumPy lists the core
  // strides operand by operand after the outer steps).
  std::vector<llvm::Value *> bases, steps;
  std::vector<std::vector<llvm::Value *>> sizes(operands), strides(operands);
  size_t coreStride = operands;
  for (size_t k = 0; k < operands; ++k) {
    bases.push_back(loadAt(pointer, loop->getArg(0), k));
    steps.push_back(loadAt(i64, loop->getArg(2), k));
    for (int dimension : coreDimensions[k]) {
      sizes[k].push_back(loadAt(i64, loop->getArg(1), 1 + dimension));
      strides[k].push_back(loadAt(i64, loop->getArg(2), coreStride++));
    }
  }
  llvm::Value *count = loadAt(i64, loop->getArg(1), 0);
  builder.CreateBr(header);

  builder.SetInsertPoint(header);
  llvm::PHINode *index = builder.CreatePHI(i64, 2, "i");
  index->addIncoming(builder.getInt64(0), entry);
  builder.CreateCondBr(builder.CreateICmpSLT(index, count), body, done);

  builder.SetInsertPoint(body);
  std::vector<llvm::Value *> arguments = {ignored};
  for (size_t k = 0; k < operands; ++k) {
    const Type *operandType = root.argumentTypes[k];
    llvm::Value *data =
        builder.CreateGEP(builder.getInt8Ty(), bases[k], builder.CreateMul(index, steps[k]));
    if (!operandType->isArray()) {
      arguments.push_back(builder.CreateLoad(memoryType(context, operandType), data));
      continue;
    }
    // A view: no memory block of its own (NumPy owns the data), as arrays from Python are.
    llvm::Type *viewType = memoryType(context, operandType);
    uint64_t itemSize =
        dataLayout.getTypeAllocSize(memoryType(context, operandType->dtype())).getFixedValue();
    std::vector<llvm::Value *> shape = sizes[k], stride = strides[k];
    if (shape.empty()) { // a one-element 1-D array for an operand without core dimensions
      shape.push_back(builder.getInt64(1));
      stride.push_back(builder.getInt64(static_cast<int64_t>(itemSize)));
    }
    llvm::Value *items = builder.getInt64(1);
    for (llvm::Value *extent : shape)
      items = builder.CreateMul(items, extent);
    llvm::Value *view = llvm::UndefValue::get(viewType);
    llvm::Value *null = llvm::ConstantPointerNull::get(pointer);
    view = builder.CreateInsertValue(view, null, {ArrayLayout::MemInfo});
    view = builder.CreateInsertValue(view, null, {ArrayLayout::Parent});
    view = builder.CreateInsertValue(view, items, {ArrayLayout::ItemCount});
    view = builder.CreateInsertValue(view, builder.getInt64(itemSize), {ArrayLayout::ItemSize});
    view = builder.CreateInsertValue(view, data, {ArrayLayout::Data});
    for (unsigned d = 0; d < shape.size(); ++d) {
      view = builder.CreateInsertValue(view, shape[d], {ArrayLayout::Shape, d});
      view = builder.CreateInsertValue(view, stride[d], {ArrayLayout::Strides, d});
    }
    arguments.push_back(view);
  }
  llvm::Value *status = builder.CreateCall(callee, arguments);
  builder.CreateCondBr(builder.CreateICmpNE(status, builder.getInt32(0)), failed, next);

  builder.SetInsertPoint(failed);
  builder.CreateCall(
      lowering.runtimeFunction("taipan_ufunc_loop_failed", llvm::Type::getVoidTy(context), {}));
  builder.CreateRetVoid();

  builder.SetInsertPoint(next);
  index->addIncoming(builder.CreateNSWAdd(index, builder.getInt64(1)), next);
  builder.CreateBr(header);

  builder.SetInsertPoint(done);
  builder.CreateRetVoid();
  return loop->getName().str();
}

} // namespace taipan
