//===- NumaPerfPass.cpp - the numaperf instrumentation pass ---------------===//
#include "NumaPerfPass.h"
#include "AccessSelection.h"
#include "FunctionFilter.h"
#include "FunctionTable.h"
#include "FunctionTwins.h"
#include "GlobalRegistration.h"
#include "HookEmitter.h"
#include "LoopRanges.h"
#include "PrivatePageTest.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace numaperf {

static cl::opt<bool> ClTwins(
    "numaperf-twins",
    cl::desc("Give every instrumented function an uninstrumented twin chosen "
             "at entry from the runtime's __numaperf_active flag"),
    cl::Hidden, cl::init(true));

static cl::opt<bool> ClEntryCounters(
    "numaperf-entry-counters",
    cl::desc("Count entries and hook calls of instrumented functions and "
             "record the thread that entered each first (the report's "
             "function table and `numaperf select`)"),
    cl::Hidden, cl::init(true));

static cl::opt<bool> ClPrivatePageTest(
    "numaperf-private-page-test",
    cl::desc("Count accesses to the thread's private page inline and call "
             "the 1- to 8-byte hooks only for the others"),
    cl::Hidden, cl::init(true));

PreservedAnalyses NumaPerfPass::run(Module &M, ModuleAnalysisManager &MAM) {
  // Instrumenting twice would double every count and register the globals
  // twice; the constructor we add is the marker.
  if (M.getFunction(ModuleCtorName))
    return PreservedAnalyses::all();

  // A bad filter file fails the compilation (clang and opt exit non-zero)
  // rather than silently instrumenting everything.
  FunctionFilter Filter;
  std::string FilterError;
  if (!Filter.load(&FilterError)) {
    M.getContext().emitError("numaperf: " + FilterError);
    return PreservedAnalyses::all();
  }

  const DataLayout &DL = M.getDataLayout();
  HookEmitter Hooks(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FunctionTable Table(M);
  SmallVector<MemoryAccess, 64> Accesses;
  SmallVector<RangeAccess, 16> Ranges;
  SmallVector<AllocaInst *, 8> Counters;
  // The twins are added to the module as we go: walk a snapshot.
  SmallVector<Function *, 64> Work;
  for (Function &F : M)
    if (shouldInstrumentFunction(F))
      Work.push_back(&F);
  for (Function *F : Work) {
    // Select everything first, then insert: the hook calls are calls, and
    // must not be seen by the selection (e.g. as merge barriers).
    Accesses.clear();
    collectAccesses(*F, DL, Accesses);
    size_t Selected = Accesses.size();
    Filter.removeFiltered(*F, Accesses);
    unsigned Filtered = unsigned(Selected - Accesses.size());
    bool OwnFiltered = !Filter.keepFunction(*F);
    if (Accesses.empty()) {
      if (Filtered) // reported as filtered; nothing to switch
        Table.add(*F, 0, Filtered, OwnFiltered, nullptr);
      continue;
    }
    // Before anything is inserted (range set-up code included): the twin
    // is the function as the optimiser left it.
    Function *Twin = ClTwins ? cloneTwin(*F) : nullptr;
    Ranges.clear();
    Counters.clear();
    extractLoopRanges(*F, FAM, Accesses, Ranges, Counters);
    for (const MemoryAccess &A : Accesses)
      Hooks.emit(A);
    for (const RangeAccess &R : Ranges)
      Hooks.emitRange(R);
    promoteRangeCounters(*F, Counters);
    Instruction *OnPath = Twin ? insertDispatch(*F, *Twin) : bodyStart(*F);
    Table.add(*F, unsigned(Accesses.size() + Ranges.size()), Filtered,
              OwnFiltered, ClEntryCounters ? OnPath : nullptr);
    // Last: the hook counters above count the calls as they stand.
    if (ClPrivatePageTest)
      insertPrivatePageTests(*F, OnPath);
    FAM.invalidate(*F, PreservedAnalyses::none());
  }
  Hooks.eraseUnusedDeclarations();

  // After the functions, so that the new tables and ctor are never hooked
  // (the ctor's name also excludes it).
  emitGlobalRegistration(M);
  Table.emit();
  return PreservedAnalyses::none();
}

} // namespace numaperf
