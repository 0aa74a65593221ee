//===- LoopRanges.cpp - one hook per loop for strided accesses ------------===//
//
// The accesses that qualify are those whose count per loop entry is known
// before the loop runs: the loop has a preheader and one exit, taken at the
// latch (the rotated form the optimiser leaves loops in), the access's block
// dominates the latch (so it runs once per iteration), and scalar evolution
// gives the address as {start,+,stride} over this loop with a constant
// stride and a computable backedge-taken count. Atomic and volatile accesses
// keep their per-access hooks: their interleaving with other threads is what
// sharing detection is about. So do stores to a loop-invariant address, the
// typical falsely shared counter, and loads of an address the loop also
// stores to. Other loads of a loop-invariant address (a coefficient the
// optimiser could not hoist because a store in the loop may alias it) are a
// range of stride 0: `count` reads of one address.
//
//===----------------------------------------------------------------------===//
#include "LoopRanges.h"
#include "Compat.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <cstdlib>

using namespace llvm;

namespace numaperf {

static cl::opt<bool> ClLoopRanges(
    "numaperf-loop-ranges",
    cl::desc("Report strided accesses of counted loops once per loop entry "
             "(a range hook before the loop) instead of once per iteration"),
    cl::Hidden, cl::init(true));

namespace {

// Off with -mllvm -numaperf-loop-ranges=0 or, for build systems that only
// pass CC/CXX through, NUMAPERF_LOOP_RANGES=0 in the compiler's environment.
bool loopRangesEnabled() {
  if (!ClLoopRanges)
    return false;
  const char *Env = std::getenv("NUMAPERF_LOOP_RANGES");
  return !(Env && Env[0] == '0' && Env[1] == '\0');
}

struct Candidate {
  size_t Index; ///< into the function's accesses
  Loop *L;
  const SCEV *Start;
  int64_t Stride;
  const SCEV *Count; ///< i64 iterations per entry
};

bool isPlainLoadOrStore(const Instruction *I) {
  if (auto *LI = dyn_cast<LoadInst>(I))
    return !LI->isVolatile() && !LI->isAtomic();
  if (auto *SI = dyn_cast<StoreInst>(I))
    return !SI->isVolatile() && !SI->isAtomic();
  return false;
}

// Whether an instruction of the loop writes exactly this address (the
// load-modify-store of a counter): such loads keep their hooks.
bool storedInLoop(const SCEV *Ptr, const Loop &L, ScalarEvolution &SE) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      Value *Target = nullptr;
      if (auto *SI = dyn_cast<StoreInst>(&I))
        Target = SI->getPointerOperand();
      else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Target = RMW->getPointerOperand();
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        Target = CX->getPointerOperand();
      if (Target && SE.getSCEV(Target) == Ptr)
        return true;
    }
  return false;
}

bool safeToExpandAt(const SCEV *S, Instruction *At, ScalarEvolution &SE,
                    SCEVExpander &Exp) {
#if LLVM_VERSION_MAJOR >= 15
  (void)SE;
  return Exp.isSafeToExpandAt(S, At);
#else
  (void)Exp;
  return isSafeToExpandAt(S, At, SE);
#endif
}

} // namespace

void extractLoopRanges(Function &F, FunctionAnalysisManager &FAM,
                       SmallVectorImpl<MemoryAccess> &Accesses,
                       SmallVectorImpl<RangeAccess> &Ranges) {
  if (Accesses.empty() || !loopRangesEnabled())
    return;
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *Int64Ty = Type::getInt64Ty(F.getContext());
  SCEVExpander Exp(SE, DL, "numaperf.range");

  // Decide everything before changing anything: expansion adds
  // instructions that scalar evolution would otherwise have to look at.
  SmallVector<Candidate, 16> Found;
  for (size_t I = 0; I < Accesses.size(); ++I) {
    const MemoryAccess &A = Accesses[I];
    if (A.DynSize || A.Size == 0 || !isPlainLoadOrStore(A.Inst))
      continue;
    BasicBlock *BB = A.Inst->getParent();
    Loop *L = LI.getLoopFor(BB);
    if (!L)
      continue;
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch || L->getExitingBlock() != Latch || !DT.dominates(BB, Latch))
      continue;
    const SCEV *Ptr = SE.getSCEV(A.Ptr);
    const SCEV *Start = nullptr;
    int64_t Stride = 0;
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(Ptr)) {
      if (AR->getLoop() != L || !AR->isAffine())
        continue;
      auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
      if (!Step || Step->getAPInt().getMinSignedBits() > 64)
        continue;
      Stride = Step->getAPInt().getSExtValue();
      Start = AR->getStart();
    } else if (isa<LoadInst>(A.Inst) && SE.isLoopInvariant(Ptr, L) &&
               !storedInLoop(Ptr, *L, SE)) {
      Start = Ptr;
    }
    if (!Start)
      continue;
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy() ||
        BTC->getType()->getIntegerBitWidth() > 64)
      continue;
    // Widen first: BTC + 1 may not fit the induction variable's type.
    const SCEV *Count =
        SE.getAddExpr(SE.getZeroExtendExpr(BTC, Int64Ty), SE.getOne(Int64Ty));
    Found.push_back({I, L, Start, Stride, Count});
  }
  if (Found.empty())
    return;

  // At the end of the optimisation pipeline loops need not be in simplified
  // form: the guard that skips an empty loop often branches straight into
  // the header. The hook needs a block that runs exactly when the loop is
  // entered, so give such loops a preheader (an edge split).
  SmallPtrSet<Loop *, 8> NoPreheader;
  for (const Candidate &C : Found) {
    if (C.L->getLoopPreheader() || NoPreheader.count(C.L))
      continue;
    if (!InsertPreheaderForLoop(C.L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false))
      NoPreheader.insert(C.L);
  }

  SmallVector<bool, 64> Taken(Accesses.size(), false);
  for (const Candidate &C : Found) {
    const MemoryAccess &A = Accesses[C.Index];
    BasicBlock *Preheader = C.L->getLoopPreheader();
    if (!Preheader)
      continue;
    Instruction *At = Preheader->getTerminator();
    if (!safeToExpandAt(C.Start, At, SE, Exp) || !safeToExpandAt(C.Count, At, SE, Exp))
      continue;
    Value *Start = Exp.expandCodeFor(C.Start, A.Ptr->getType(), At);
    Value *Count = Exp.expandCodeFor(C.Count, Int64Ty, At);
    Ranges.push_back({A, At, Start, C.Stride, Count});
    Taken[C.Index] = true;
  }
  size_t Kept = 0;
  for (size_t I = 0; I < Accesses.size(); ++I)
    if (!Taken[I])
      Accesses[Kept++] = Accesses[I];
  Accesses.resize(Kept);
}

} // namespace numaperf
