// One pass pipeline for the CPU and NVPTX targets (and any later one): only the target machine
// and the tuning differ between them.
#include "target/PassPipeline.h"
#include "target/RefcountPruning.h"
#include "target/SelectIntoOperand.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

namespace taipan {
namespace {

/// The groups pass times are reported under: a handful a reader can act on (which pass
/// family grows with the function) rather than LLVM's ~100 pass names.
enum PassGroup : unsigned {
  Inlining,
  Vectorizers,
  InstCombine,
  ControlFlow,
  Loops,
  MemoryAndRedundancy,
  OtherPasses,
  PassGroupCount
};

const char *const passGroupNames[PassGroupCount] = {
    "optimization: inlining",    "optimization: vectorizers",
    "optimization: instcombine", "optimization: control flow",
    "optimization: loops",       "optimization: memory and redundancy",
    "optimization: other passes"};

PassGroup classifyPass(llvm::StringRef pass) {
  if (pass.contains("Inliner") || pass.contains("Inline"))
    return Inlining;
  if (pass.contains("Vectorize") || pass.contains("SLP"))
    return Vectorizers;
  if (pass.contains("InstCombine"))
    return InstCombine;
  if (pass.contains("SimplifyCFG") || pass.contains("JumpThreading"))
    return ControlFlow;
  if (pass.contains("Loop") || pass.contains("LICM") || pass.contains("IndVar"))
    return Loops;
  if (pass.contains("GVN") || pass.contains("SROA") || pass.contains("EarlyCSE") ||
      pass.contains("MemCpyOpt") || pass.contains("DSE") || pass.contains("MemorySSA"))
    return MemoryAndRedundancy;
  return OtherPasses;
}

/// Charges each pass its exclusive time: pass managers and adaptors run other passes, whose
/// time is subtracted from theirs, so nothing is counted twice. Runs thousands of times per
/// module, so the group of a pass is looked up by the address of its (static) name, and times
/// are summed per group and handed to StageTimes once, at the end.
class PassTimer {
public:
  void attach(llvm::PassInstrumentationCallbacks &callbacks) {
    callbacks.registerBeforeNonSkippedPassCallback(
        [this](llvm::StringRef, llvm::Any) { running.push_back({StageTimes::Clock::now(), 0}); });
    callbacks.registerAfterPassCallback(
        [this](llvm::StringRef pass, llvm::Any, const llvm::PreservedAnalyses &) { finish(pass); });
    callbacks.registerAfterPassInvalidatedCallback(
        [this](llvm::StringRef pass, const llvm::PreservedAnalyses &) { finish(pass); });
  }

  void report(StageTimes &times) const {
    for (unsigned group = 0; group < PassGroupCount; ++group)
      if (seconds[group] > 0)
        times.add(passGroupNames[group], seconds[group]);
  }

private:
  struct Running {
    StageTimes::Clock::time_point start;
    double nestedSeconds;
  };

  void finish(llvm::StringRef pass) {
    if (running.empty())
      return;
    Running done = running.back();
    running.pop_back();
    double elapsed = std::chrono::duration<double>(StageTimes::Clock::now() - done.start).count();
    auto [entry, inserted] = groups.try_emplace(pass.data(), OtherPasses);
    if (inserted)
      entry->second = classifyPass(pass);
    seconds[entry->second] += elapsed - done.nestedSeconds;
    if (!running.empty())
      running.back().nestedSeconds += elapsed;
  }

  std::vector<Running> running;
  llvm::DenseMap<const char *, PassGroup> groups;
  double seconds[PassGroupCount] = {};
};

/// Marks always-inline each local function called from one place, by itself not. LLVM's
/// inliner inlines such a function anyway (the last call to a local function earns a large
/// bonus), but bottom-up: it first simplifies the callee, then the caller with the callee in
/// it, so the callee's code went through the simplification passes twice. Inlined first, it
/// goes through them once: for the usual module, a root function called by its entry wrapper,
/// that halved the optimisation time (13 InstCombine runs over the body became 8) and gave the
/// same code. Segments of long functions stay out of line (they are no-inline).
void markSingleCallSitesForInlining(llvm::Module &module) {
  for (llvm::Function &function : module.functions()) {
    if (function.isDeclaration() || !function.hasLocalLinkage() || !function.hasOneUse() ||
        function.hasFnAttribute(llvm::Attribute::NoInline) ||
        function.hasFnAttribute(llvm::Attribute::OptimizeNone))
      continue;
    auto *call = llvm::dyn_cast<llvm::CallBase>(function.use_begin()->getUser());
    if (call && call->isCallee(&*function.use_begin()) && call->getFunction() != &function)
      function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
}

} // namespace

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, int level,
                    const llvm::PipelineTuningOptions &tuning, StageTimes *times, bool vectorMath,
                    const std::function<void(llvm::FunctionPassManager &)> &beforeVectorizers) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager callGraph;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks callbacks;
  std::optional<PassTimer> timer;
  if (times)
    timer.emplace().attach(callbacks);
  llvm::PassBuilder passes(&machine, tuning, std::nullopt, &callbacks);
  // After each InstCombine of the simplification pipeline: inlining leaves increment/decrement
  // pairs, and removing them lets the null checks around them fold away.
  passes.registerPeepholeEPCallback(
      [](llvm::FunctionPassManager &functionPasses, llvm::OptimizationLevel) {
        functionPasses.addPass(RefcountPruningPass());
      });
  // Last, on the final loops: selects of an add's result move into its operand, off the
  // loop-carried chains (SelectIntoOperand.h).
  passes.registerOptimizerLastEPCallback(
      [](llvm::ModulePassManager &modulePasses, llvm::OptimizationLevel) {
        modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(SelectIntoOperandPass()));
      });
  if (beforeVectorizers)
    passes.registerVectorizerStartEPCallback(
        [&](llvm::FunctionPassManager &functionPasses, llvm::OptimizationLevel) {
          beforeVectorizers(functionPasses);
        });
  llvm::Triple triple(module.getTargetTriple());
  llvm::TargetLibraryInfoImpl library(triple);
  if (vectorMath)
    library.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, triple);
  // Registered before the defaults, so the analysis managers use this library description.
  functions.registerPass([&] { return llvm::TargetLibraryAnalysis(library); });
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(callGraph);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, callGraph, modules);
  llvm::OptimizationLevel optimization = level <= 0   ? llvm::OptimizationLevel::O0
                                         : level == 1 ? llvm::OptimizationLevel::O1
                                         : level == 2 ? llvm::OptimizationLevel::O2
                                                      : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager pipeline;
  if (level <= 0) {
    pipeline = passes.buildO0DefaultPipeline(optimization);
  } else {
    markSingleCallSitesForInlining(module);
    pipeline.addPass(llvm::AlwaysInlinerPass());
    pipeline.addPass(passes.buildPerModuleDefaultPipeline(optimization));
  }
  pipeline.run(module, modules);
  if (timer)
    timer->report(*times);
}

} // namespace taipan
