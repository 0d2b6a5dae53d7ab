// NumPy's generalized-ufunc inner-loop entry around a compiled function of array views.
#include "cpu/GufuncLoopTarget.h"

#include "cpu/NumpyLoop.h"
#include "lower/FunctionLowering.h"
#include "lower/LowerTypes.h"
#include "runtime/Runtime.h"
#include "support/CompileError.h"

#include <llvm/IR/Module.h>

#include <functional>

namespace taipan {

GufuncLoopTarget::GufuncLoopTarget(int optimizationLevel, bool vectorMath,
                                   std::vector<std::vector<int>> coreDimensions,
                                   std::vector<int64_t> coreSizes, CpuModel cpu)
    : CpuTarget(optimizationLevel, vectorMath, std::move(cpu)),
      coreDimensions(std::move(coreDimensions)), coreSizes(std::move(coreSizes)) {}

std::vector<std::string> GufuncLoopTarget::identity() const {
  std::vector<std::string> fields = CpuTarget::identity();
  std::string layout;
  for (const std::vector<int> &operand : coreDimensions) {
    layout += "(";
    for (int dimension : operand)
      layout += std::to_string(dimension) + ",";
    layout += ")";
  }
  for (int64_t size : coreSizes)
    layout += "=" + std::to_string(size);
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
    for (int dimension : coreDimensions[k])
      if (!coreSizes.empty() &&
          (dimension < 0 || static_cast<size_t>(dimension) >= coreSizes.size()))
        throwTypingError("the core sizes name " + std::to_string(coreSizes.size()) +
                             " dimensions, the layout more",
                         where);
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

std::vector<std::vector<const Type *>>
GufuncLoopTarget::entryVariants(const TypedFunction &root) const {
  if (root.argumentTypes.size() != coreDimensions.size())
    return {}; // checkEntry refuses it
  // Operands without core dimensions are scalars or one-element arrays, contiguous either way.
  // Only a signature that types a core operand with a layout ('C', 'F') gets the two copies: it
  // needs the 'A' copy for operands NumPy passes strided, and then the 'C' copy costs little
  // more. An all-'A' signature (`float64[:, :]`) keeps its one kernel: a second copy doubled
  // its compile time (25 -> 70 ms for a matmul) for 10-25% on cores of 8 and more.
  bool declaresLayout = false;
  for (size_t k = 0; k < coreDimensions.size(); ++k) {
    const Type *type = root.argumentTypes[k];
    declaresLayout |= type->isArray() && !coreDimensions[k].empty() && type->layout() != 'A';
  }
  if (!declaresLayout)
    return {};
  auto withLayout = [&](char layout) {
    std::vector<const Type *> types = root.argumentTypes;
    for (const Type *&type : types)
      if (type->isArray())
        type = types::array(type->dtype(), type->ndim(), layout, type->isReadonly());
    return types;
  };
  return {withLayout('C'), withLayout('A')};
}

/// Whether a core of extents `shape` and byte strides `stride` is contiguous in `order` ('C':
/// last dimension fastest, 'F': first) for items of `itemSize` bytes, as NumPy decides it: each
/// stride is the item size times the extents inside it, except that a dimension of extent 1 may
/// have any stride and an empty core is contiguous.
static llvm::Value *isContiguousCore(llvm::IRBuilder<> &builder, uint64_t itemSize,
                                     const std::vector<llvm::Value *> &shape,
                                     const std::vector<llvm::Value *> &stride, char order = 'C') {
  llvm::Value *expected = builder.getInt64(itemSize);
  llvm::Value *packed = builder.getTrue();
  llvm::Value *empty = builder.getFalse();
  for (size_t step = 0; step < shape.size(); ++step) {
    size_t d = order == 'F' ? step : shape.size() - 1 - step;
    llvm::Value *single = builder.CreateICmpEQ(shape[d], builder.getInt64(1));
    llvm::Value *fits = builder.CreateICmpEQ(stride[d], expected);
    packed = builder.CreateAnd(packed, builder.CreateOr(single, fits));
    empty = builder.CreateOr(empty, builder.CreateICmpEQ(shape[d], builder.getInt64(0)));
    expected = builder.CreateMul(expected, shape[d]);
  }
  return builder.CreateOr(packed, empty);
}

/// The size in bytes of an array's items.
static uint64_t itemSizeOf(const llvm::Module &module, const Type *arrayType) {
  llvm::Type *item = memoryType(module.getContext(), arrayType->dtype());
  return module.getDataLayout().getTypeAllocSize(item).getFixedValue();
}

/// An operand's array view at `data`: no memory block of its own (NumPy owns the data, as for
/// arrays from Python), the core sizes and strides, or for an operand without core dimensions a
/// one-element 1-D array.
static llvm::Value *operandView(llvm::IRBuilder<> &builder, const llvm::Module &module,
                                const Type *arrayType, llvm::Value *data,
                                std::vector<llvm::Value *> shape,
                                std::vector<llvm::Value *> stride) {
  llvm::LLVMContext &context = builder.getContext();
  uint64_t itemSize = itemSizeOf(module, arrayType);
  if (shape.empty()) {
    shape.push_back(builder.getInt64(1));
    stride.push_back(builder.getInt64(static_cast<int64_t>(itemSize)));
  }
  llvm::Value *items = builder.getInt64(1);
  for (llvm::Value *extent : shape)
    items = builder.CreateMul(items, extent);
  llvm::Value *view = llvm::UndefValue::get(memoryType(context, arrayType));
  llvm::Value *null = llvm::ConstantPointerNull::get(builder.getPtrTy());
  view = builder.CreateInsertValue(view, null, {ArrayLayout::MemInfo});
  view = builder.CreateInsertValue(view, null, {ArrayLayout::Parent});
  view = builder.CreateInsertValue(view, items, {ArrayLayout::ItemCount});
  view = builder.CreateInsertValue(view, builder.getInt64(itemSize), {ArrayLayout::ItemSize});
  view = builder.CreateInsertValue(view, data, {ArrayLayout::Data});
  for (unsigned d = 0; d < shape.size(); ++d) {
    view = builder.CreateInsertValue(view, shape[d], {ArrayLayout::Shape, d});
    view = builder.CreateInsertValue(view, stride[d], {ArrayLayout::Strides, d});
  }
  return view;
}

/// Each operand's core sizes and strides, read from the entry's `dimensions` and `steps` (NumPy
/// lists the core strides operand by operand after the outer steps), or for a copy compiled
/// for given sizes (`coreSizes` not empty) those sizes as constants.
struct CoreShapes {
  std::vector<std::vector<llvm::Value *>> sizes, strides;
};

static CoreShapes loadCoreShapes(llvm::IRBuilder<> &builder,
                                 const std::vector<std::vector<int>> &coreDimensions,
                                 const std::vector<int64_t> &coreSizes, llvm::Value *dimensions,
                                 llvm::Value *steps) {
  size_t operands = coreDimensions.size();
  CoreShapes core{std::vector<std::vector<llvm::Value *>>(operands),
                  std::vector<std::vector<llvm::Value *>>(operands)};
  size_t coreStride = operands;
  for (size_t k = 0; k < operands; ++k)
    for (int dimension : coreDimensions[k]) {
      core.sizes[k].push_back(
          coreSizes.empty() ? loadEntry(builder, builder.getInt64Ty(), dimensions, 1 + dimension)
                            : builder.getInt64(coreSizes[dimension]));
      core.strides[k].push_back(loadEntry(builder, builder.getInt64Ty(), steps, coreStride++));
    }
  return core;
}

std::string GufuncLoopTarget::defineLoop(ModuleLowering &lowering, TypedFunction &function,
                                         const std::string &suffix) const {
  return defineNumpyLoop(
      lowering, function, suffix,
      [&](llvm::IRBuilder<> &builder, const NumpyLoopParameters &parameters) -> NumpyLoopBody {
        llvm::Value *ignored = builder.CreateAlloca(builder.getInt8Ty()); // the None result
        std::vector<llvm::Value *> bases, steps;
        for (size_t k = 0; k < coreDimensions.size(); ++k) {
          bases.push_back(loadEntry(builder, builder.getPtrTy(), parameters.operands, k));
          steps.push_back(loadEntry(builder, builder.getInt64Ty(), parameters.steps, k));
        }
        CoreShapes core = loadCoreShapes(builder, coreDimensions, coreSizes, parameters.dimensions,
                                         parameters.steps);
        return NumpyLoopBody{[&function, &lowering, ignored, bases, steps,
                              core](llvm::IRBuilder<> &builder, llvm::Value *index) {
          std::vector<llvm::Value *> arguments = {ignored};
          for (size_t k = 0; k < bases.size(); ++k) {
            llvm::Value *data = elementAddress(builder, bases[k], steps[k], index);
            const Type *operandType = function.argumentTypes[k];
            arguments.push_back(
                operandType->isArray()
                    ? operandView(builder, lowering.module, operandType, data, core.sizes[k],
                                  core.strides[k])
                    : builder.CreateLoad(memoryType(builder.getContext(), operandType), data));
          }
          return arguments;
        }};
      });
}

/// The contiguous copy runs only when some core extent is at least this: LLVM's vectorised and
/// unrolled loop bodies (4 lanes by 2 on AVX2) run no iteration below it, and for 3x3 and 4x4
/// batched matmuls the contiguous copy measured 15-30% slower than the strided one (for 8x8
/// and 16x16 it was 10-20% faster; docs/performance.md).
constexpr int64_t MinimumContiguousExtent = 8;

/// Emits an entry with `loop`'s signature (`void <root>_gufunc(ptr args, ptr dimensions, ptr
/// steps, ptr data)`) that evaluates `choose` on the core shapes once per call (NumPy passes
/// the same core strides for every element), runs `whenTrue` or `whenFalse` with the entry's
/// arguments, and returns. Returns the entry's name.
static std::string defineChoosingEntry(
    ModuleLowering &lowering, const TypedFunction &root, llvm::Function *loop,
    const std::vector<std::vector<int>> &coreDimensions, const std::vector<int64_t> &coreSizes,
    const std::function<llvm::Value *(llvm::IRBuilder<> &, const CoreShapes &)> &choose,
    const std::function<void(llvm::IRBuilder<> &, llvm::ArrayRef<llvm::Value *>)> &whenTrue,
    const std::function<void(llvm::IRBuilder<> &, llvm::ArrayRef<llvm::Value *>)> &whenFalse) {
  llvm::LLVMContext &context = lowering.context;
  auto *entry = llvm::Function::Create(loop->getFunctionType(), llvm::Function::ExternalLinkage,
                                       root.symbolName + "_gufunc", lowering.module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", entry));
  lowering.describeWrapper(entry, loop, builder);
  CoreShapes core =
      loadCoreShapes(builder, coreDimensions, coreSizes, entry->getArg(1), entry->getArg(2));
  llvm::Value *condition = choose(builder, core);
  std::vector<llvm::Value *> arguments;
  for (llvm::Argument &argument : entry->args())
    arguments.push_back(&argument);
  llvm::BasicBlock *chosen = llvm::BasicBlock::Create(context, "chosen", entry);
  llvm::BasicBlock *otherwise = llvm::BasicBlock::Create(context, "otherwise", entry);
  builder.CreateCondBr(condition, chosen, otherwise);
  builder.SetInsertPoint(chosen);
  whenTrue(builder, arguments);
  builder.CreateRetVoid();
  builder.SetInsertPoint(otherwise);
  whenFalse(builder, arguments);
  builder.CreateRetVoid();
  return entry->getName().str();
}

std::string GufuncLoopTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                          const std::vector<TypedFunction *> &variants) const {
  // Either copy may be the root itself (typed so by its signature). A copy that did not type is
  // null: without the `A` copy only operands in the signature's layouts may run.
  if (variants.empty())
    return defineLoop(lowering, root, "_gufunc");
  if (!variants[1])
    return defineLayoutCheckedEntry(lowering, root);
  TypedFunction *contiguous = variants[0];
  TypedFunction *strided = variants[1];
  if (!contiguous)
    return defineLoop(lowering, *strided, "_gufunc");
  // Each copy's loop is a function of its own, so that neither's registers are allocated
  // around the other's; the entry picks one per call.
  llvm::Module &module = lowering.module;
  llvm::Function *loops[2];
  const char *suffixes[2] = {"_gufunc_strided", "_gufunc_contiguous"};
  TypedFunction *functions[2] = {strided, contiguous};
  for (int copy = 0; copy < 2; ++copy) {
    loops[copy] = module.getFunction(defineLoop(lowering, *functions[copy], suffixes[copy]));
    loops[copy]->setLinkage(llvm::GlobalValue::InternalLinkage);
    loops[copy]->addFnAttr(llvm::Attribute::NoInline);
  }
  return defineChoosingEntry(
      lowering, root, loops[0], coreDimensions, coreSizes,
      [&](llvm::IRBuilder<> &builder, const CoreShapes &core) {
        llvm::Value *packed = builder.getTrue();
        llvm::Value *wide = builder.getFalse();
        for (size_t k = 0; k < coreDimensions.size(); ++k) {
          const Type *type = root.argumentTypes[k];
          if (!type->isArray() || core.sizes[k].empty())
            continue;
          packed = builder.CreateAnd(packed, isContiguousCore(builder, itemSizeOf(module, type),
                                                              core.sizes[k], core.strides[k]));
          for (llvm::Value *extent : core.sizes[k])
            wide = builder.CreateOr(
                wide, builder.CreateICmpSGE(extent, builder.getInt64(MinimumContiguousExtent)));
        }
        return builder.CreateAnd(packed, wide);
      },
      [&](llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Value *> arguments) {
        builder.CreateCall(loops[1], arguments);
      },
      [&](llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Value *> arguments) {
        builder.CreateCall(loops[0], arguments);
      });
}

std::string GufuncLoopTarget::defineLayoutCheckedEntry(ModuleLowering &lowering,
                                                       TypedFunction &root) const {
  llvm::Module &module = lowering.module;
  llvm::Function *loop = module.getFunction(defineLoop(lowering, root, "_gufunc_declared"));
  loop->setLinkage(llvm::GlobalValue::InternalLinkage);
  std::string message = root.source->name +
                        "() is typed for contiguous core operands (its signature's layouts) "
                        "and does not compile for strided ones; pass contiguous arrays "
                        "(np.ascontiguousarray) or type the operands 'A' (float64[:, :])";
  return defineChoosingEntry(
      lowering, root, loop, coreDimensions, coreSizes,
      [&](llvm::IRBuilder<> &builder, const CoreShapes &core) {
        llvm::Value *fits = builder.getTrue();
        for (size_t k = 0; k < coreDimensions.size(); ++k) {
          const Type *type = root.argumentTypes[k];
          if (type->isArray() && !core.sizes[k].empty() && type->layout() != 'A')
            fits = builder.CreateAnd(fits, isContiguousCore(builder, itemSizeOf(module, type),
                                                            core.sizes[k], core.strides[k],
                                                            type->layout()));
        }
        return fits;
      },
      [&](llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Value *> arguments) {
        builder.CreateCall(loop, arguments);
      },
      [&](llvm::IRBuilder<> &builder, llvm::ArrayRef<llvm::Value *>) {
        builder.CreateCall(lowering.runtimeFunction("taipan_raise", builder.getVoidTy(),
                                                    {builder.getInt32Ty(), builder.getPtrTy()}),
                           {builder.getInt32(ValueErrorId), lowering.stringConstant(message)});
        builder.CreateCall(
            lowering.runtimeFunction("taipan_ufunc_loop_failed", builder.getVoidTy(), {}));
      });
}

} // namespace taipan
