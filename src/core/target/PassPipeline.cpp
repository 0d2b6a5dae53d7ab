// One pass pipeline for the CPU and NVPTX targets (and any later one): only the target machine
// and the tuning differ between them.
#include "target/PassPipeline.h"

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace taipan {

void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, int level,
                    const llvm::PipelineTuningOptions &tuning) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager callGraph;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder passes(&machine, tuning);
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
