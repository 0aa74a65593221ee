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
// range of stride 0, `count` reads of one address, in loops that cannot
// acquire from another thread (below).
//
// A load of a loop-invariant address in a loop whose trip count is not known
// before it runs (its bound is that very load: `i < w->n` with a call in the
// body) is counted instead: a counter the loop bumps where the load runs,
// reported at each of the loop's exits as the same range of stride 0. Only
// in loops that cannot acquire from another thread (no atomic or volatile
// access, fence, inline asm, or call that may read memory and synchronise):
// there no other thread may write that address while the loop runs, so the
// reads are the same whether reported as they happen or at the exit. A lock
// around the load (a shared total polled under a mutex) keeps its hooks and
// their interleaving with the writers.
//
//===----------------------------------------------------------------------===//
#include "LoopRanges.h"
#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
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
  SmallVector<size_t, 3> Joined; ///< further accesses this range stands for
  bool Dropped = false;          ///< joined into another candidate
};

/// A load of a loop-invariant address in a loop without a computable trip
/// count: counted, and reported at the loop's exits.
struct CountedLoad {
  size_t Index; ///< into the function's accesses
  Loop *L;
  const SCEV *Ptr;
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

// Whether an instruction may make the loop's later loads see another
// thread's writes (an acquire, in C11 terms): atomics, fences, volatile
// accesses, inline asm and calls that may read memory, unless the callee
// cannot synchronise (nosync, as LLVM infers it for pure code and most
// intrinsics) or reads no memory at all (libm's functions, which write only
// errno).
bool mayAcquire(const Instruction &I) {
  if (I.isAtomic() || isa<FenceInst>(&I))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return LI->isVolatile();
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return SI->isVolatile();
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (CB->isInlineAsm())
    return true;
  return !CB->hasFnAttr(Attribute::NoSync) && !CB->onlyWritesMemory();
}

bool loopMayAcquire(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (mayAcquire(I))
        return true;
  return false;
}

// The loop's exit blocks, each reached only from inside the loop, with a
// place for a call at the top; empty when the loop has none or they cannot
// be made so (an exit that is a catchswitch, a loop that never exits).
SmallVector<BasicBlock *, 4> dedicatedExits(Loop *L, DominatorTree &DT, LoopInfo &LI) {
  SmallVector<BasicBlock *, 4> Exits;
  if (!L->hasDedicatedExits() &&
      !formDedicatedExitBlocks(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false))
    return Exits;
  L->getUniqueExitBlocks(Exits);
  for (BasicBlock *Exit : Exits)
    if (Exit->getFirstInsertionPt() == Exit->end() || isa<CatchSwitchInst>(Exit->getFirstNonPHI()))
      return {};
  return Exits;
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

// Whether two accesses report the same source line (a range's sites are
// its first access's location).
bool sameSourceLine(const Instruction *A, const Instruction *B) {
  const DILocation *LA = A->getDebugLoc().get(), *LB = B->getDebugLoc().get();
  if (!LA || !LB)
    return !LA && !LB;
  return LA->getLine() == LB->getLine() && LA->getFilename() == LB->getFilename() &&
         LA->getDirectory() == LB->getDirectory();
}

// An unrolled (often vectorised) loop makes k accesses of z bytes per
// iteration at offsets 0, z, .., (k-1)z from one another with a stride of
// k*z: together exactly the elements of one range of stride z and k times
// the count. Such groups (same loop, count, kind, size and source line) are
// joined into their lowest member, which then stands for all of them: one
// hook instead of k, the same accesses counted. A stencil's row reads two
// vectors per stream and iteration; a matrix multiply's inner loop four.
//
// Joins the tile whose lowest member is Found[I], if there is one.
bool joinTileFrom(size_t I, SmallVectorImpl<Candidate> &Found,
                  const SmallVectorImpl<MemoryAccess> &Accesses,
                  ScalarEvolution &SE, Type *Int64Ty) {
  Candidate &Lead = Found[I];
  const MemoryAccess &LA = Accesses[Lead.Index];
  const int64_t Size = int64_t(LA.Size);
  if (Lead.Dropped || Lead.Stride <= Size || Lead.Stride % Size != 0 ||
      Lead.Stride / Size > 16)
    return false;
  const int64_t K = Lead.Stride / Size;
  // The others like it, by offset from Lead's start.
  SmallVector<std::pair<int64_t, size_t>, 8> Members;
  for (size_t J = 0; J < Found.size(); ++J) {
    const Candidate &C = Found[J];
    const MemoryAccess &CA = Accesses[C.Index];
    if (J == I || C.Dropped || C.L != Lead.L || C.Stride != Lead.Stride ||
        C.Count != Lead.Count || CA.IsWrite != LA.IsWrite ||
        CA.Size != LA.Size || !sameSourceLine(CA.Inst, LA.Inst))
      continue;
    auto *Off = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C.Start, Lead.Start));
    if (!Off || Off->getAPInt().getMinSignedBits() > 64)
      continue;
    int64_t O = Off->getAPInt().getSExtValue();
    if (O < 0 && O > -Lead.Stride && O % Size == 0)
      return false; // a lower member: the tile is joined from there
    Members.push_back({O, J});
  }
  SmallVector<size_t, 16> Tile;
  for (int64_t T = 1; T < K; ++T) {
    auto It = llvm::find_if(Members, [&](const std::pair<int64_t, size_t> &M) {
      return M.first == T * Size;
    });
    if (It == Members.end())
      return false;
    Tile.push_back(It->second);
  }
  for (size_t J : Tile) {
    Found[J].Dropped = true;
    Lead.Joined.push_back(Found[J].Index);
  }
  Lead.Stride = Size;
  Lead.Count = SE.getMulExpr(Lead.Count, SE.getConstant(Int64Ty, uint64_t(K)));
  return true;
}

void joinTiledCandidates(SmallVectorImpl<Candidate> &Found,
                         const SmallVectorImpl<MemoryAccess> &Accesses,
                         ScalarEvolution &SE, Type *Int64Ty) {
  // Again after a join: a higher member may come first in program order.
  for (bool Joined = true; Joined;) {
    Joined = false;
    for (size_t I = 0; I < Found.size(); ++I)
      Joined |= joinTileFrom(I, Found, Accesses, SE, Int64Ty);
  }
}

} // namespace

void extractLoopRanges(Function &F, FunctionAnalysisManager &FAM,
                       SmallVectorImpl<MemoryAccess> &Accesses,
                       SmallVectorImpl<RangeAccess> &Ranges,
                       SmallVectorImpl<AllocaInst *> &Counters) {
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
  SmallVector<CountedLoad, 8> Uncounted;
  DenseMap<Loop *, bool> Acquires;
  auto mayAcquireIn = [&](Loop *L) {
    auto It = Acquires.find(L);
    if (It == Acquires.end())
      It = Acquires.insert({L, loopMayAcquire(*L)}).first;
    return It->second;
  };
  for (size_t I = 0; I < Accesses.size(); ++I) {
    const MemoryAccess &A = Accesses[I];
    if (A.DynSize || A.Size == 0 || !isPlainLoadOrStore(A.Inst))
      continue;
    BasicBlock *BB = A.Inst->getParent();
    Loop *L = LI.getLoopFor(BB);
    if (!L)
      continue;
    const SCEV *Ptr = SE.getSCEV(A.Ptr);
    const bool InvariantLoad = isa<LoadInst>(A.Inst) && SE.isLoopInvariant(Ptr, L) &&
                               !storedInLoop(Ptr, *L, SE) && !mayAcquireIn(L);
    auto CountInstead = [&] {
      if (InvariantLoad)
        Uncounted.push_back({I, L, Ptr});
    };
    BasicBlock *Latch = L->getLoopLatch();
    if (!Latch || L->getExitingBlock() != Latch || !DT.dominates(BB, Latch)) {
      CountInstead();
      continue;
    }
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
    } else if (InvariantLoad) {
      Start = Ptr;
    }
    if (!Start)
      continue;
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(BTC) || !BTC->getType()->isIntegerTy() ||
        BTC->getType()->getIntegerBitWidth() > 64) {
      CountInstead();
      continue;
    }
    // Widen first: BTC + 1 may not fit the induction variable's type.
    const SCEV *Count =
        SE.getAddExpr(SE.getZeroExtendExpr(BTC, Int64Ty), SE.getOne(Int64Ty));
    Found.push_back({I, L, Start, Stride, Count, {}, false});
  }
  if (Found.empty() && Uncounted.empty())
    return;
  joinTiledCandidates(Found, Accesses, SE, Int64Ty);

  // At the end of the optimisation pipeline loops need not be in simplified
  // form: the guard that skips an empty loop often branches straight into
  // the header. The hook needs a block that runs exactly when the loop is
  // entered, so give such loops a preheader (an edge split).
  SmallPtrSet<Loop *, 8> NoPreheader;
  auto needPreheader = [&](Loop *L) {
    if (L->getLoopPreheader() || NoPreheader.count(L))
      return;
    if (!InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false))
      NoPreheader.insert(L);
  };
  for (const Candidate &C : Found)
    needPreheader(C.L);
  // Counted loads need their loops' exits too.
  DenseMap<Loop *, SmallVector<BasicBlock *, 4>> ExitsOf;
  for (const CountedLoad &C : Uncounted) {
    if (ExitsOf.count(C.L))
      continue;
    SmallVector<BasicBlock *, 4> &Exits = ExitsOf[C.L];
    needPreheader(C.L);
    if (C.L->getLoopPreheader())
      Exits = dedicatedExits(C.L, DT, LI);
  }

  SmallVector<bool, 64> Taken(Accesses.size(), false);
  for (const Candidate &C : Found) {
    if (C.Dropped)
      continue;
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
    for (size_t J : C.Joined)
      Taken[J] = true;
  }
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  for (const CountedLoad &C : Uncounted) {
    const SmallVector<BasicBlock *, 4> &Exits = ExitsOf[C.L];
    if (Exits.empty())
      continue;
    const MemoryAccess &A = Accesses[C.Index];
    if (!llvm::all_of(Exits, [&](BasicBlock *Exit) {
          return safeToExpandAt(C.Ptr, &*Exit->getFirstInsertionPt(), SE, Exp);
        }))
      continue;
    // The counter: zero on entry, one more where the load runs; promoted to
    // a register once the hooks that read it are in (promoteRangeCounters).
    AllocaInst *Counter = Entry.CreateAlloca(Int64Ty, nullptr, "numaperf.reads");
    IRBuilder<>(C.L->getLoopPreheader()->getTerminator())
        .CreateStore(ConstantInt::get(Int64Ty, 0), Counter);
    IRBuilder<> Bump(A.Inst);
    Bump.CreateStore(Bump.CreateAdd(Bump.CreateLoad(Int64Ty, Counter), ConstantInt::get(Int64Ty, 1)),
                     Counter);
    for (BasicBlock *Exit : Exits) {
      Instruction *At = &*Exit->getFirstInsertionPt();
      Value *Start = Exp.expandCodeFor(C.Ptr, A.Ptr->getType(), At);
      Value *Count = IRBuilder<>(At).CreateLoad(Int64Ty, Counter, "numaperf.count");
      Ranges.push_back({A, At, Start, 0, Count});
    }
    Counters.push_back(Counter);
    Taken[C.Index] = true;
  }
  size_t Kept = 0;
  for (size_t I = 0; I < Accesses.size(); ++I)
    if (!Taken[I])
      Accesses[Kept++] = Accesses[I];
  Accesses.resize(Kept);
}

void promoteRangeCounters(Function &F, ArrayRef<AllocaInst *> Counters) {
  if (Counters.empty())
    return;
  DominatorTree DT(F);
  PromoteMemToReg(Counters, DT);
}

} // namespace numaperf
