//===- NumaPerfPass.cpp - the numaperf instrumentation pass ---------------===//
#include "NumaPerfPass.h"
#include "AccessSelection.h"
#include "GlobalRegistration.h"
#include "HookEmitter.h"
#include "LoopRanges.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace numaperf {

PreservedAnalyses NumaPerfPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Instrumenting twice would double every count and register the globals
  // twice; the constructor we add is the marker.
  if (M.getFunction(ModuleCtorName))
    return PreservedAnalyses::all();

  const DataLayout &DL = M.getDataLayout();
  HookEmitter Hooks(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<MemoryAccess, 64> Accesses;
  SmallVector<RangeAccess, 16> Ranges;
  for (Function &F : M) {
    if (!shouldInstrumentFunction(F))
      continue;
    // Select everything first, then insert: the hook calls are calls, and
    // must not be seen by the selection (e.g. as merge barriers).
    Accesses.clear();
    collectAccesses(F, DL, Accesses);
    Ranges.clear();
    extractLoopRanges(F, FAM, Accesses, Ranges);
    for (const MemoryAccess &A : Accesses)
      Hooks.emit(A);
    for (const RangeAccess &R : Ranges)
      Hooks.emitRange(R);
    if (!Accesses.empty() || !Ranges.empty())
      FAM.invalidate(F, PreservedAnalyses::none());
  }
  Hooks.eraseUnusedDeclarations();

  // After the functions, so that the new tables and ctor are never hooked
  // (the ctor's name also excludes it).
  emitGlobalRegistration(M);
  return PreservedAnalyses::none();
}

} // namespace numaperf
