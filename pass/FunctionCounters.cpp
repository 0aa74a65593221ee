//===- FunctionCounters.cpp - dynamic hook counts per function ------------===//
#include "FunctionCounters.h"
#include "Compat.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

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

void countHookCalls(Function &F, Instruction *OnPath, Value *Counter) {
  DominatorTree DT(F);
  BasicBlock *OnBlock = OnPath->getParent();
  Type *I64 = Type::getInt64Ty(F.getContext());
  // Per block: where its hooks are added (one add per block, before its
  // first return or call that does not return, else before its
  // terminator, so that the hook calls and their accesses stay adjacent),
  // and what is added.
  struct Bump {
    Instruction *At;
    SmallVector<Value *, 4> Weights;
  };
  SmallVector<Bump, 16> Bumps;
  SmallVector<Instruction *, 8> Flushes;
  for (BasicBlock &BB : F) {
    if (!DT.dominates(OnBlock, &BB))
      continue;
    Bump B{BB.getTerminator(), {}};
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
        if (Value *W = hookWeight(*CI))
          B.Weights.push_back(W);
      }
      if (Flush) {
        Flushes.push_back(Flush);
        B.At = Flush;
        break;  // what follows does not run
      }
    }
    if (!B.Weights.empty())
      Bumps.push_back(B);
  }
  if (Bumps.empty())
    return;
  // The local counter starts at 0 where the instrumented path begins; its
  // alloca sits in the entry block so that it can be promoted.
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Local = Entry.CreateAlloca(I64, nullptr, "numaperf.hooks");
  IRBuilder<> Start(OnPath);
  Start.CreateStore(ConstantInt::get(I64, 0), Local);
  for (Bump &B : Bumps) {
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
  for (Instruction *I : Flushes)
    flushAt(I, Local, Counter);
  DominatorTree Fresh(F);
  PromoteMemToReg({Local}, Fresh);
}

} // namespace numaperf
