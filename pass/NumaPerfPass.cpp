//===- NumaPerfPass.cpp - the numaperf instrumentation pass ---------------===//
#include "NumaPerfPass.h"
#include "AccessSelection.h"
#include "GlobalRegistration.h"
#include "HookEmitter.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace numaperf {

PreservedAnalyses NumaPerfPass::run(Module &M, ModuleAnalysisManager &) {
  // Instrumenting twice would double every count and register the globals
  // twice; the constructor we add is the marker.
  if (M.getFunction(ModuleCtorName))
    return PreservedAnalyses::all();

  const DataLayout &DL = M.getDataLayout();
  HookEmitter Hooks(M);
  SmallVector<MemoryAccess, 64> Accesses;
  for (Function &F : M) {
    if (!shouldInstrumentFunction(F))
      continue;
    // Select everything first, then insert: the hook calls are calls, and
    // must not be seen by the selection (e.g. as merge barriers).
    Accesses.clear();
    collectAccesses(F, DL, Accesses);
    for (const MemoryAccess &A : Accesses)
      Hooks.emit(A);
  }
  Hooks.eraseUnusedDeclarations();

  // After the functions, so that the new tables and ctor are never hooked
  // (the ctor's name also excludes it).
  emitGlobalRegistration(M);
  return PreservedAnalyses::none();
}

} // namespace numaperf
