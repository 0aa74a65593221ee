//===- AccessSelection.cpp - which memory accesses get a hook -------------===//
//
// Policy: report every access that can touch memory shared between threads
// (heap, globals, escaping stack objects), because those are the accesses
// whose page placement NUMA profiling is about. Skip what can never be
// remote or shared: non-escaping stack slots, thread-local data, compiler
// and profiler bookkeeping. Modelled on ThreadSanitizer.cpp.
//
//===----------------------------------------------------------------------===//
#include "AccessSelection.h"
#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

#include <algorithm>

using namespace llvm;

namespace numaperf {

static cl::opt<bool> ClMergeLoadStore(
    "numaperf-merge-load-store",
    cl::desc("Do not report a load that is followed in the same basic block, "
             "with no call in between, by a store of the same size to the "
             "same pointer, volatile or not (x += y reports one store)"),
    cl::Hidden, cl::init(true));

bool shouldInstrumentFunction(const Function &F) {
  if (F.isDeclaration())
    return false;
  // The runtime is itself compiled C++; hooking its functions would recurse.
  // The pass's own constructor/destructor use the same prefix.
  if (hasPrefix(F.getName(), "__numaperf"))
    return false;
  // A naked function has no frame to spill hook arguments into.
  if (F.hasFnAttribute(Attribute::Naked))
    return false;
  // The user's explicit "no instrumentation here" (e.g. code that runs
  // before the runtime is ready).
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return false;
  return true;
}

// Globals that hold compiler, profiler or numaperf bookkeeping, or data no
// other thread (hence no other NUMA node) can see.
static bool isIgnoredGlobal(const GlobalVariable &GV) {
  if (GV.isThreadLocal())
    return true;
  StringRef Name = GV.getName();
  if (hasPrefix(Name, "llvm.") || hasPrefix(Name, "__numaperf"))
    return true;
  if (GV.hasSection()) {
    StringRef Sec = GV.getSection();
    // llvm.metadata: llvm.used & co; __llvm_prf_*: PGO/coverage counters.
    if (Sec == "llvm.metadata" || hasPrefix(Sec, "__llvm"))
      return true;
  }
  return false;
}

namespace {
/// Pointer filter for one function; caches the (quadratic-ish) capture
/// query per alloca.
class PointerFilter {
  DenseMap<const AllocaInst *, bool> Escapes;

public:
  bool isInteresting(const Value *Ptr) {
    auto *PtrTy = dyn_cast<PointerType>(Ptr->getType());
    // Vectors of pointers (gathers) and non-default address spaces (GPU
    // memory, x86 %fs/%gs segments) are not ordinary process memory.
    if (!PtrTy || PtrTy->getAddressSpace() != 0)
      return false;
    // swifterror slots are not real memory and cannot be passed to a call.
    if (Ptr->isSwiftError())
      return false;
    const Value *Obj = getUnderlyingObject(Ptr);
    if (auto *GV = dyn_cast<GlobalVariable>(Obj))
      return !isIgnoredGlobal(*GV);
    if (auto *AI = dyn_cast<AllocaInst>(Obj)) {
      // A stack slot whose address never leaves the function is private to
      // this thread and lives on its node: nothing to learn from it.
      auto It = Escapes.try_emplace(AI, false);
      if (It.second)
        It.first->second = pointerMayBeCaptured(AI);
      return It.first->second;
    }
    return true;
  }
};
} // namespace

// Adds a fixed-size access of type Ty; scalable vectors have no compile-time
// size and are skipped (their span is only known at run time).
static void addTyped(SmallVectorImpl<MemoryAccess> &Out, Instruction *I,
                     Value *Ptr, Type *Ty, bool IsWrite,
                     const DataLayout &DL) {
  if (!Ty->isSized())
    return;
  TypeSize TS = DL.getTypeStoreSize(Ty);
  if (TS.isScalable())
    return;
  uint64_t Size = fixedSize(TS);
  if (Size == 0)
    return;
  Out.push_back({I, Ptr, IsWrite, Size, nullptr});
}

// Accesses of one instruction, in the order the hooks should be called.
static void accessesOf(Instruction &I, const DataLayout &DL,
                       SmallVectorImpl<MemoryAccess> &Out) {
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return addTyped(Out, &I, LI->getPointerOperand(), LI->getType(), false,
                    DL);
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return addTyped(Out, &I, SI->getPointerOperand(),
                    SI->getValueOperand()->getType(), true, DL);
  // Read-modify-write atomics are reported as stores (hook ABI): for page
  // placement they cost what a write costs (the line is taken exclusive).
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return addTyped(Out, &I, RMW->getPointerOperand(),
                    RMW->getValOperand()->getType(), true, DL);
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return addTyped(Out, &I, CX->getPointerOperand(),
                    CX->getCompareOperand()->getType(), true, DL);
  // memcpy/memmove (also the element-wise atomic forms): one range read,
  // one range written. The intrinsic itself stays as it is.
  if (auto *MT = dyn_cast<AnyMemTransferInst>(&I)) {
    Out.push_back({&I, MT->getRawSource(), false, 0, MT->getLength()});
    Out.push_back({&I, MT->getRawDest(), true, 0, MT->getLength()});
    return;
  }
  if (auto *MS = dyn_cast<AnyMemSetInst>(&I)) {
    Out.push_back({&I, MS->getRawDest(), true, 0, MS->getLength()});
    return;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    // Masked vector load/store: we report the whole vector span as one N
    // access even if some lanes are masked off. Slight over-reporting, but
    // the span stays within the object the vectoriser was working on.
    // Gathers/scatters (a vector of addresses) are not reported.
    switch (II->getIntrinsicID()) {
    case Intrinsic::masked_load:
      return addTyped(Out, &I, II->getArgOperand(0), II->getType(), false,
                      DL);
    case Intrinsic::masked_store:
      return addTyped(Out, &I, II->getArgOperand(1),
                      II->getArgOperand(0)->getType(), true, DL);
    default:
      return;
    }
  }
}

// Does I end the window in which a load can be merged into a later store?
// Any real call may write the location or synchronise with another thread;
// debug/lifetime/assume markers do not (and -g must not change the result).
static bool isMergeBarrier(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    return !II->isAssumeLikeIntrinsic();
  return true;
}

void collectAccesses(Function &F, const DataLayout &DL,
                     SmallVectorImpl<MemoryAccess> &Out) {
  PointerFilter Filter;
  SmallVector<MemoryAccess, 4> Tmp;
  SmallVector<MemoryAccess, 16> Block;
  // (pointer, size) written later in the block before any barrier.
  DenseSet<std::pair<const Value *, uint64_t>> LaterStores;

  for (BasicBlock &BB : F) {
    Block.clear();
    LaterStores.clear();
    // Walk backwards so that, at a load, we already know the later stores.
    for (Instruction &I : reverse(BB)) {
      if (I.getMetadata("nosanitize")) // MD_nosanitize is LLVM 15+
        continue; // emitted by another instrumentation for itself
      if (isMergeBarrier(I))
        LaterStores.clear();
      Tmp.clear();
      accessesOf(I, DL, Tmp);
      // Reverse so that after the final reverse they come out in order.
      for (MemoryAccess &A : reverse(Tmp)) {
        if (!Filter.isInteresting(A.Ptr))
          continue;
        if (isa<StoreInst>(A.Inst))
          LaterStores.insert({A.Ptr, A.Size});
        // Volatile loads too: `counter[id] = counter[id] + 1` on a volatile
        // array is one thread's read-modify-write of one line, which the
        // copy model decides the same from the store alone (its miss, the
        // copies it takes). Atomic loads stay: they synchronise.
        auto *LI = dyn_cast<LoadInst>(A.Inst);
        if (ClMergeLoadStore && LI && !LI->isAtomic() &&
            LaterStores.count({A.Ptr, A.Size}))
          continue; // the store's hook covers this address
        Block.push_back(A);
      }
    }
    Out.append(Block.rbegin(), Block.rend());
  }
}

} // namespace numaperf
