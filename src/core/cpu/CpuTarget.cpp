// The host CPU target: the entry wrapper the dispatcher calls, the pass pipeline with the
// vectorisers, and the JIT (CpuJit) as the place code goes.
#include "cpu/CpuTarget.h"

#include "cpu/CpuJit.h"
#include "cpu/ExactVectorVariants.h"
#include "cpu/GlibcExp.h"
#include "cpu/GlibcExpf.h"
#include "cpu/HostInfo.h"
#include "lower/FunctionLowering.h"
#include "support/CompileError.h"
#include "target/CodeEmitter.h"
#include "target/PassPipeline.h"

#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>

namespace taipan {

CpuModel CpuModel::hostModel() { return {hostCpuName(), hostCpuFeatures(), true}; }

CpuModel CpuModel::of(const TargetDescription &description) {
  if (!description.cpuName && !description.cpuFeatures)
    return hostModel();
  return {description.cpuName.value_or(hostCpuName()),
          description.cpuFeatures.value_or(hostCpuFeatures()), false};
}

/// Whether `cpu` has FMA and AVX2: the host's as detected, another's as LLVM's machine for it
/// says (its name's own features with the listed ones added or removed).
static bool hasFmaAndAvx2(const CpuModel &cpu, llvm::TargetMachine *machine) {
  if (cpu.host)
    return hostHasFmaAndAvx2();
  return machine->getMCSubtargetInfo()->checkFeatures("+fma,+avx2");
}

CpuTarget::CpuTarget(int optimizationLevel, bool vectorMath, CpuModel cpu)
    : optimizationLevel(optimizationLevel), cpu(std::move(cpu)) {
  // Another CPU than the host's never uses the JIT's machine: this target has its own.
  if (!this->cpu.host)
    ownMachine = leaseTargetMachine(machineConfiguration(), [this] { return createMachine(); });
  fmaAndAvx2 = hasFmaAndAvx2(this->cpu, ownMachine.get());
  // libmvec's AVX2 variants (_ZGVdN4v_exp) take ymm registers: not for another CPU without
  // them. The host keeps what it always had.
  this->vectorMath = vectorMath && hostHasVectorMath() && (this->cpu.host || fmaAndAvx2);
}

CpuTarget::~CpuTarget() = default;

std::string CpuTarget::machineConfiguration() const {
  return cpu.host ? "host" : "cpu " + cpu.name + " " + cpu.features;
}

std::unique_ptr<llvm::TargetMachine> CpuTarget::createMachine() const {
  return cpu.host ? CpuJit::get().createTargetMachine()
                  : CpuJit::get().createTargetMachine(cpu.name, cpu.features);
}

void CpuTarget::useOwnTargetMachine() {
  // The JIT's machine settings never change in a process: one configuration per CPU.
  if (!ownMachine)
    ownMachine = leaseTargetMachine(machineConfiguration(), [this] { return createMachine(); });
}

llvm::TargetMachine &CpuTarget::machine() const {
  return ownMachine ? *ownMachine : CpuJit::get().targetMachine();
}

std::vector<std::string> CpuTarget::identity() const {
  bool exact = cpu.host || fmaAndAvx2;
  return {hostTargetTriple(),
          cpu.name,
          cpu.features,
          vectorMath ? "libmvec" : "libm",
          exact && hostExpfIsGlibcFma() ? "expf:glibc-fma" : "expf:libm",
          exact && hostExpIsGlibcFma() ? "exp:glibc-fma" : "exp:libm"};
}

void CpuTarget::prepareModule(llvm::Module &module) const {
  llvm::TargetMachine &machine = CpuJit::get().targetMachine();
  module.setTargetTriple(machine.getTargetTriple().str());
  module.setDataLayout(machine.createDataLayout());
}

/// Whether a value of `type` holds lists, which a call from Python copies in and reflects back
/// when the call returns.
static bool holdsReflectedLists(const Type *type) {
  if (type->isList())
    return true;
  return type->isTuple() &&
         std::any_of(type->elements().begin(), type->elements().end(), holdsReflectedLists);
}

/// Whether a value of `type` holds a generator (inside a tuple, list, dict or optional).
static bool holdsGenerator(const Type *type) {
  if (!type)
    return false;
  if (type->isGenerator())
    return true;
  if (type->isTuple())
    return std::any_of(type->elements().begin(), type->elements().end(), holdsGenerator);
  if (type->isList())
    return holdsGenerator(type->itemType());
  if (type->isDict())
    return holdsGenerator(type->valueType());
  if (type->isOptional())
    return holdsGenerator(type->optionalValue());
  return false;
}

std::string CpuTarget::defineEntry(ModuleLowering &lowering, TypedFunction &root,
                                   const std::vector<TypedFunction *> &) const {
  // The Python iterator keeps the call's arguments alive (a generator may read an array
  // argument's memory), which only the dispatcher's boxing of a whole-result generator does.
  if (!root.returnType->isGenerator() && holdsGenerator(root.returnType))
    throwUnsupported("a generator returned to Python must be the whole result, not part of a " +
                         root.returnType->name(),
                     root.source->definitionLocation);
  // A generator runs after the call returned, so its changes to a list argument could not be
  // reflected into the caller's list: refused rather than silently lost.
  if (root.source->isGenerator)
    for (size_t i = 0; i < root.argumentTypes.size(); ++i)
      if (holdsReflectedLists(root.argumentTypes[i]))
        throwUnsupported("a generator function called from Python cannot take a list argument ('" +
                             root.source->parameters[i].name +
                             "'): its changes would not reach the caller's list; pass an array "
                             "or a tuple",
                         root.source->definitionLocation);
  llvm::LLVMContext &context = lowering.context;
  llvm::Function *callee = lowering.declare(root);
  auto *pointer = llvm::PointerType::getUnqual(context);
  auto *type = llvm::FunctionType::get(llvm::Type::getInt32Ty(context), {pointer, pointer}, false);
  auto *wrapper = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                         root.symbolName + "_entry", lowering.module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", wrapper));
  lowering.describeWrapper(wrapper, callee, builder);
  std::vector<llvm::Value *> arguments = {wrapper->getArg(1)};
  for (size_t i = 0; i < root.argumentTypes.size(); ++i) {
    llvm::Value *slot = builder.CreateConstGEP1_64(pointer, wrapper->getArg(0), i);
    llvm::Value *address = builder.CreateLoad(pointer, slot);
    llvm::LoadInst *argument =
        builder.CreateLoad(memoryType(context, root.argumentTypes[i]), address);
    // The dispatcher unboxed every argument completely. Said of the loads, it survives the
    // root being inlined here, where its parameters' noundef (see ModuleLowering::declare) is
    // lost; aggregates may hold padding, so only scalars say it.
    if (!argument->getType()->isAggregateType())
      argument->setMetadata(llvm::LLVMContext::MD_noundef, llvm::MDNode::get(context, {}));
    arguments.push_back(argument);
  }
  builder.CreateRet(builder.CreateCall(callee, arguments));
  return wrapper->getName().str();
}

/// The libm functions whose exact vector variants this host can offer: glibc's expf and exp
/// where its libm is glibc's FMA build.
static const std::vector<const ExactVectorVariants *> &hostExactVariants() {
  static const std::vector<const ExactVectorVariants *> variants = [] {
    std::vector<const ExactVectorVariants *> offered;
    if (hostExpfIsGlibcFma())
      offered.push_back(&glibcExpfVariants());
    if (hostExpIsGlibcFma())
      offered.push_back(&glibcExpVariants());
    return offered;
  }();
  return variants;
}

const std::vector<const ExactVectorVariants *> &CpuTarget::exactVariants() const {
  // glibc's fused builds run FMA instructions, which a CPU without them would call fma() for.
  static const std::vector<const ExactVectorVariants *> none;
  return cpu.host || fmaAndAvx2 ? hostExactVariants() : none;
}

void CpuTarget::finalizeModule(llvm::Module &module, const std::string &) const {
  for (const ExactVectorVariants *variants : exactVariants())
    offerExactVectorVariants(module, *variants);
}

void CpuTarget::optimize(llvm::Module &module, StageTimes *times) const {
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optimizationLevel >= 2;
  tuning.SLPVectorization = optimizationLevel >= 2;
  optimizeModule(
      module, machine(), pipelineLevel(), tuning, times, vectorMath && optimizationLevel >= 2,
      [](llvm::FunctionPassManager &passes) { passes.addPass(InterleaveExactVariantLoopsOnce()); });
  inlineExactVectorVariants(module, exactVariants());
}

llvm::CodeGenOptLevel CpuTarget::codeGenerationLevel() const {
  return optimizationLevel <= 0   ? llvm::CodeGenOptLevel::None
         : optimizationLevel == 1 ? llvm::CodeGenOptLevel::Less
         : optimizationLevel == 2 ? llvm::CodeGenOptLevel::Default
                                  : llvm::CodeGenOptLevel::Aggressive;
}

std::string CpuTarget::emitFile(llvm::Module &module, bool object) const {
  // Below opt 3 a machine of the job's level, leased for this module: the JIT's own machine is
  // at level 3. At opt 0 instruction selection is FastISel, a fifth of SelectionDAG's time on
  // long functions, for the user who asked for compile speed (NUMBA_OPT=0 in Numba does so).
  LeasedTargetMachine leveled;
  if (optimizationLevel < 3)
    leveled = leaseTargetMachine(
        machineConfiguration() + "-codegen-" + std::to_string(optimizationLevel), [this] {
          std::unique_ptr<llvm::TargetMachine> created = createMachine();
          created->setOptLevel(codeGenerationLevel());
          return created;
        });
  llvm::TargetMachine &generator = leveled ? *leveled : machine();
  return emitCode(generator, module,
                  object ? llvm::CodeGenFileType::ObjectFile : llvm::CodeGenFileType::AssemblyFile,
                  generator.getTargetTriple().isX86() ? PipelineReuse::Reuse
                                                      : PipelineReuse::BuildPerModule);
}

std::string CpuTarget::emitAssembly(llvm::Module &module) const { return emitFile(module, false); }

std::string CpuTarget::emitObject(llvm::Module &module) const { return emitFile(module, true); }

void *CpuTarget::install(std::unique_ptr<llvm::Module> module,
                         std::unique_ptr<llvm::LLVMContext> context,
                         const std::string &entryName) const {
  return CpuJit::get().addModuleAndLookup(std::move(module), std::move(context), entryName);
}

} // namespace taipan
