//===- NumaPerfPlugin.cpp - pass-plugin entry point -----------------------===//
//
// Loaded by clang (-fpass-plugin=NumaPerfPass.so) or opt
// (-load-pass-plugin=NumaPerfPass.so). Two ways in:
//  * at the end of the optimisation pipeline, at every -O level (-O0
//    included), so the hooks see the accesses that survive optimisation;
//  * by name, `-passes=numaperf`, for tests and manual pipelines.
//
//===----------------------------------------------------------------------===//
#include "NumaPerfPass.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerCallbacks(PassBuilder &PB) {
  // LLVM 20 added the LTO phase argument; we run in every phase: the
  // marker in NumaPerfPass::run keeps a module from being done twice.
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        MPM.addPass(numaperf::NumaPerfPass());
      });
#else
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(numaperf::NumaPerfPass());
      });
#endif
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "numaperf")
          return false;
        MPM.addPass(numaperf::NumaPerfPass());
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "NumaPerf", LLVM_VERSION_STRING,
          registerCallbacks};
}
