// One pass pipeline for the CPU and NVPTX targets (and any later one): only the target machine
// and the tuning differ between them.
#include "target/PassPipeline.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Target/TargetMachine.h>

namespace taipan {
namespace {

/// The group a pass's time is reported under: a handful of groups a reader can act on (which
/// pass family grows with the function) rather than LLVM's ~100 pass names.
const char *passGroup(llvm::StringRef pass) {
  if (pass.contains("Inliner") || pass.contains("Inline"))
    return "optimization: inlining";
  if (pass.contains("Vectorize") || pass.contains("SLP"))
    return "optimization: vectorizers";
  if (pass.contains("InstCombine") || pass.contains("AggressiveInstCombine"))
    return "optimization: instcombine";
  if (pass.contains("SimplifyCFG") || pass.contains("JumpThreading"))
    return "optimization: control flow";
  if (pass.contains("Loop") || pass.contains("LICM") || pass.contains("IndVar"))
    return "optimization: loops";
  if (pass.contains("GVN") || pass.contains("SROA") || pass.contains("EarlyCSE") ||
      pass.contains("MemCpyOpt") || pass.contains("DSE") || pass.contains("MemorySSA"))
    return "optimization: memory and redundancy";
  return "optimization: other passes";
}

/// Charges each pass its exclusive time: pass managers and adaptors run other passes, whose
/// time is subtracted from theirs, so nothing is counted twice.
class PassTimer {
public:
  explicit PassTimer(StageTimes &times) : times(times) {}

  void attach(llvm::PassInstrumentationCallbacks &callbacks) {
    callbacks.registerBeforeNonSkippedPassCallback([this](llvm::StringRef, llvm::Any) {
      running.push_back({StageTimes::Clock::now(), 0});
    });
    callbacks.registerAfterPassCallback(
        [this](llvm::StringRef pass, llvm::Any, const llvm::PreservedAnalyses &) { finish(pass); });
    callbacks.registerAfterPassInvalidatedCallback(
        [this](llvm::StringRef pass, const llvm::PreservedAnalyses &) { finish(pass); });
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
    double seconds = std::chrono::duration<double>(StageTimes::Clock::now() - done.start).count();
    times.add(passGroup(pass), seconds - done.nestedSeconds);
    if (!running.empty())
      running.back().nestedSeconds += seconds;
  }

  StageTimes &times;
  std::vector<Running> running;
};

} // namespace

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, int level,
                    const llvm::PipelineTuningOptions &tuning, StageTimes *times) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager callGraph;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks callbacks;
  std::optional<PassTimer> timer;
  if (times)
    timer.emplace(*times).attach(callbacks);
  llvm::PassBuilder passes(&machine, tuning, std::nullopt, &callbacks);
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(callGraph);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, callGraph, modules);
  llvm::OptimizationLevel optimization = level <= 0   ? llvm::OptimizationLevel::O0
                                         : level == 1 ? llvm::OptimizationLevel::O1
                                         : level == 2 ? llvm::OptimizationLevel::O2
                                                      : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager pipeline = level <= 0
                                         ? passes.buildO0DefaultPipeline(optimization)
                                         : passes.buildPerModuleDefaultPipeline(optimization);
  pipeline.run(module, modules);
}

} // namespace taipan
