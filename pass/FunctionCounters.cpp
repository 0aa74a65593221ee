//===- FunctionCounters.cpp - dynamic hook counts per function ------------===//
#include "FunctionCounters.h"
#include "Compat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <algorithm>

using namespace llvm;

namespace numaperf {

// What one hook call adds: 1, or the element count of a range hook (whose
// cost grows with it). Not a hook: nullptr.
static Value *hookWeight(CallInst &CI) {
  Function *Callee = CI.getCalledFunction();
  if (!Callee)
    return nullptr;
  StringRef Name = Callee->getName();
  if (!hasPrefix(Name, "__numaperf_load") && !hasPrefix(Name, "__numaperf_store"))
    return nullptr;
  Type *I64 = Type::getInt64Ty(CI.getContext());
  if (Name.size() > 6 && Name.substr(Name.size() - 6) == "_range" &&
      CI.arg_size() == 4 &&
      CI.getArgOperand(2)->getType() == I64)
    return CI.getArgOperand(2);
  return ConstantInt::get(I64, 1);
}

static void flushAt(Instruction *Before, AllocaInst *Local, Value *Counter) {
  Type *I64 = Local->getAllocatedType();
  IRBuilder<> IRB(Before);
  Value *Count = IRB.CreateLoad(I64, Local);
  // Plain (racy) add: an estimate is enough; a few lost counts when two
  // threads return at once do not change a ranking.
  Value *Old = IRB.CreateLoad(I64, Counter);
  IRB.CreateStore(IRB.CreateAdd(Old, Count), Counter);
}

// The source function of a hook: the inlined callee its access came from,
// or nullptr for F's own code (and code without a location).
static const DISubprogram *sourceOf(const CallInst &CI, const Function &F) {
  const DILocation *Loc = CI.getDebugLoc().get();
  if (!Loc)
    return nullptr;
  const DISubprogram *SP = Loc->getScope()->getSubprogram();
  return SP == F.getSubprogram() ? nullptr : SP;
}

void countHookCalls(
    Function &F, Instruction *OnPath,
    function_ref<Value *(const DISubprogram *, unsigned)> CounterFor) {
  DominatorTree DT(F);
  BasicBlock *OnBlock = OnPath->getParent();
  Type *I64 = Type::getInt64Ty(F.getContext());
  // Per block and source function: where its hooks are added (one add per
  // block, before its first return or call that does not return, else
  // before its terminator, so that the hook calls and their accesses stay
  // adjacent), and what is added.
  struct Bump {
    Instruction *At;
    const DISubprogram *Source;
    SmallVector<Value *, 4> Weights;
  };
  SmallVector<Bump, 16> Bumps;
  SmallVector<Instruction *, 8> Flushes;
  MapVector<const DISubprogram *, unsigned> Sources;  // hook calls per source
  for (BasicBlock &BB : F) {
    if (!DT.dominates(OnBlock, &BB))
      continue;
    size_t First = Bumps.size();
    Instruction *At = BB.getTerminator();
    for (Instruction &I : BB) {
      auto *CI = dyn_cast<CallInst>(&I);
      Instruction *Flush = nullptr;
      if (isa<ReturnInst>(&I)) {
        // Nothing may come between a musttail call and its return.
        CallInst *Tail = BB.getTerminatingMustTailCall();
        Flush = Tail ? static_cast<Instruction *>(Tail) : &I;
      } else if (CI && CI->doesNotReturn() && !CI->isMustTailCall()) {
        Flush = CI;  // exit() from main, pthread_exit()...
      } else if (CI) {
        if (Value *W = hookWeight(*CI)) {
          const DISubprogram *Source = sourceOf(*CI, F);
          ++Sources[Source];
          auto It = std::find_if(Bumps.begin() + First, Bumps.end(),
                                 [&](const Bump &B) { return B.Source == Source; });
          if (It == Bumps.end()) {
            Bumps.push_back({nullptr, Source, {}});
            It = Bumps.end() - 1;
          }
          It->Weights.push_back(W);
        }
      }
      if (Flush) {
        Flushes.push_back(Flush);
        At = Flush;
        break;  // what follows does not run
      }
    }
    for (size_t I = First; I < Bumps.size(); ++I)
      Bumps[I].At = At;
  }
  if (Bumps.empty())
    return;
  // One local counter per source function, starting at 0 where the
  // instrumented path begins; the allocas sit in the entry block so that
  // they can be promoted.
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  IRBuilder<> Start(OnPath);
  DenseMap<const DISubprogram *, AllocaInst *> Locals;
  SmallVector<AllocaInst *, 4> Promote;
  for (auto &[Source, Hooks] : Sources) {
    AllocaInst *Local = Entry.CreateAlloca(I64, nullptr, "numaperf.hooks");
    Start.CreateStore(ConstantInt::get(I64, 0), Local);
    Locals[Source] = Local;
    Promote.push_back(Local);
  }
  for (Bump &B : Bumps) {
    AllocaInst *Local = Locals[B.Source];
    IRBuilder<> IRB(B.At);
    uint64_t Constant = 0;
    Value *Sum = IRB.CreateLoad(I64, Local);
    for (Value *W : B.Weights) {
      if (auto *C = dyn_cast<ConstantInt>(W))
        Constant += C->getZExtValue();
      else
        Sum = IRB.CreateAdd(Sum, W);
    }
    if (Constant)
      Sum = IRB.CreateAdd(Sum, ConstantInt::get(I64, Constant));
    IRB.CreateStore(Sum, Local);
  }
  for (auto &[Source, Hooks] : Sources) {
    Value *Counter = CounterFor(Source, Hooks);
    for (Instruction *I : Flushes)
      flushAt(I, Locals[Source], Counter);
  }
  DominatorTree Fresh(F);
  PromoteMemToReg(Promote, Fresh);
}

} // namespace numaperf
