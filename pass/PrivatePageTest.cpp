//===- PrivatePageTest.cpp - inline test in front of small hooks ----------===//
#include "PrivatePageTest.h"
#include "Compat.h"

#include "numaperf/hook_abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace numaperf {

// 1: a load hook, 2: a store hook of 1, 2, 4 or 8 bytes; 0: anything else.
static unsigned smallHookKind(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || CI.arg_size() != 1)
    return 0;
  StringRef Name = Callee->getName();
  StringRef Prefix(NUMAPERF_HOOK_PREFIX);
  if (!hasPrefix(Name, Prefix))
    return 0;
  Name = Name.substr(Prefix.size());
  unsigned Kind = hasPrefix(Name, "load") ? 1 : hasPrefix(Name, "store") ? 2 : 0;
  if (!Kind)
    return 0;
  StringRef Size = Name.substr(Kind == 1 ? 4 : 5);
  return Size == "1" || Size == "2" || Size == "4" || Size == "8" ? Kind : 0;
}

// The runtime's thread-local pointer to the calling thread's record. The
// initial-exec model makes each read one load from the thread pointer: the
// runtime is loaded with the program (linked or preloaded), so its TLS is in
// the static block.
static GlobalVariable *recordPointer(Module &M) {
  PointerType *PtrTy = getVoidPtrTy(M.getContext());
  auto *GV = cast<GlobalVariable>(M.getOrInsertGlobal(NUMAPERF_FAST_PAGE_NAME, PtrTy));
  GV->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
  return GV;
}

namespace {
struct SmallHookCall {
  CallInst *Call;
  unsigned Kind;
  bool OnPath; // PathStart dominates it
};
} // namespace

unsigned insertPrivatePageTests(Function &F, Instruction *PathStart) {
  // A thread has its record before it runs instrumented code (the runtime
  // registers it at start-up or in its pthread_create trampoline), so one
  // load where the instrumented path starts serves every test below it.
  // Decided before any block is split.
  DominatorTree DT(F);
  SmallVector<SmallHookCall, 32> Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (unsigned Kind = smallHookKind(*CI))
          Calls.push_back({CI, Kind, CI == PathStart || DT.dominates(PathStart, CI)});
  if (Calls.empty())
    return 0;

  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  GlobalVariable *Record = recordPointer(M);
  PointerType *PtrTy = getVoidPtrTy(Ctx);
  Type *I8 = Type::getInt8Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  PointerType *I64Ptr = PointerType::getUnqual(I64);
  IntegerType *IntPtr = DL.getIntPtrType(Ctx);
  Value *PathRecord = IRBuilder<>(PathStart).CreateLoad(PtrTy, Record, "numaperf.fast");
  MDNode *LikelyHit = MDBuilder(Ctx).createBranchWeights(64, 1);

  for (const SmallHookCall &C : Calls) {
    CallInst *CI = C.Call;
    IRBuilder<> IRB(CI);
    IRB.SetCurrentDebugLocation(CI->getDebugLoc());
    Value *Rec =
        C.OnPath ? PathRecord : IRB.CreateLoad(PtrTy, Record, "numaperf.fast");
    Value *Addr = IRB.CreatePtrToInt(CI->getArgOperand(0), IntPtr);
    Value *Page = IRB.CreateLShr(IRB.CreateZExtOrTrunc(Addr, I64), NUMAPERF_FAST_PAGE_SHIFT);
    // Way after way: on a match count inline, else (in the miss block,
    // where the hook call is moved each time) try the next way.
    for (unsigned Way = 0; Way < NUMAPERF_FAST_PAGE_WAYS; ++Way) {
      IRBuilder<> W(CI);
      const uint64_t WayOffset = sizeof(numaperf_fast_way) * Way;
      Value *WayPtr = WayOffset ? W.CreateConstGEP1_64(I8, Rec, WayOffset) : Rec;
      Value *PagePtr = W.CreatePointerCast(WayPtr, I64Ptr);
      Value *Current = W.CreateLoad(I64, PagePtr, "numaperf.page");
      Value *Hit = W.CreateICmpEQ(Page, Current);
      Instruction *HitTerm = nullptr, *MissTerm = nullptr;
      SplitBlockAndInsertIfThenElse(Hit, CI, &HitTerm, &MissTerm, LikelyHit);
      // counts[0] (loads) 8 bytes into the way, counts[1] (stores) 16.
      IRBuilder<> H(HitTerm);
      Value *Slot = H.CreateConstGEP1_64(I8, Rec, WayOffset + 8 * C.Kind);
      Value *CountPtr = H.CreatePointerCast(Slot, I64Ptr);
      Value *Count = H.CreateLoad(I64, CountPtr);
      H.CreateStore(H.CreateAdd(Count, ConstantInt::get(I64, 1)), CountPtr);
      CI->moveBefore(MissTerm);
    }
  }
  return unsigned(Calls.size());
}

} // namespace numaperf
