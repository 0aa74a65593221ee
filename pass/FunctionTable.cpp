//===- FunctionTable.cpp - what the pass did to each function -------------===//
#include "FunctionTable.h"
#include "Compat.h"
#include "FunctionCounters.h"
#include "FunctionFilter.h"
#include "GlobalRegistration.h"
#include "StringPool.h"

#include "numaperf/hook_abi.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace numaperf {

// On the first entry (the entry counter was 0), tells the runtime which
// thread it is: `numaperf select` keeps functions that the thread which
// first touched an issue's pages ran first (docs/filters.md).
static void recordFirstEntry(Instruction *Before, Value *IsFirst,
                             ArrayRef<Constant *> AllCounters) {
  Module &M = *Before->getModule();
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Callee = M.getOrInsertFunction(
      NUMAPERF_FUNCTION_FIRST_ENTRY_NAME, Type::getVoidTy(Ctx), getVoidPtrTy(Ctx));
  Instruction *Then = SplitBlockAndInsertIfThen(IsFirst, Before, /*Unreachable=*/false,
                                                MDBuilder(Ctx).createBranchWeights(1, 1 << 20));
  IRBuilder<> IRB(Then);
  if (DISubprogram *SP = Before->getFunction()->getSubprogram())
    IRB.SetCurrentDebugLocation(DILocation::get(Ctx, 0, 0, SP));
  for (Constant *Counters : AllCounters)
    IRB.CreateCall(Callee, {ConstantExpr::getPointerCast(Counters, getVoidPtrTy(Ctx))});
}

// A function's three counter words, in their own cache line.
static GlobalVariable *newCounters(Module &M) {
  ArrayType *Ty = ArrayType::get(Type::getInt64Ty(M.getContext()), 3);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                ConstantAggregateZero::get(Ty), "__numaperf.counters");
  GV->setAlignment(Align(64));
  return GV;
}

static Constant *counterWord(GlobalVariable *GV, unsigned I) {
  Type *I32 = Type::getInt32Ty(GV->getContext());
  return ConstantExpr::getInBoundsGetElementPtr(
      GV->getValueType(), GV,
      ArrayRef<Constant *>{ConstantInt::get(I32, 0), ConstantInt::get(I32, I)});
}

// Mirrors struct numaperf_function_desc.
static StructType *descType(LLVMContext &Ctx) {
  Type *P = getVoidPtrTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  return StructType::get(Ctx, {P, P, I32, I32, I32, I32, P});
}

void FunctionTable::add(Function &F, unsigned Hooks, unsigned Filtered,
                        bool OwnCodeFiltered, Instruction *CounterAt) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *P = getVoidPtrTy(Ctx);
  Constant *Counter = ConstantPointerNull::get(cast<PointerType>(P));
  unsigned Flags = OwnCodeFiltered ? NUMAPERF_FUNCTION_FILTERED : 0;
  if (CounterAt) {
    // Three words in their own cache line, so that threads running
    // different functions do not share a line: entries of the instrumented
    // body, the accesses its hooks reported (FunctionCounters.h) and the
    // thread that entered first (NUMAPERF_FUNCTION_HOOK_COUNTS). Plain
    // (racy) increments: an estimate is enough, an atomic add would cost
    // more than the hooks it counts.
    GlobalVariable *GV = newCounters(M);
    // Code inlined from another function counts for that function (the
    // filter decides by it too): one more row per such source function,
    // with its hooks in F; the runtime sums rows of the same name and file.
    SmallVector<Constant *, 4> AllCounters{GV};
    countHookCalls(F, CounterAt, [&](const DISubprogram *Source, unsigned SourceHooks) {
      if (!Source)
        return counterWord(GV, 1);
      GlobalVariable *Inlined = newCounters(M);
      AllCounters.push_back(Inlined);
      FunctionIdentity SourceId = identityOf(*Source, &M);
      Rows.push_back(ConstantStruct::get(
          descType(Ctx),
          {Strings.get(SourceId.Mangled), Strings.get(SourceId.File),
           ConstantInt::get(I32, Source->getLine()), ConstantInt::get(I32, SourceHooks),
           ConstantInt::get(I32, 0), ConstantInt::get(I32, NUMAPERF_FUNCTION_HOOK_COUNTS),
           ConstantExpr::getPointerCast(Inlined, P)}));
      return counterWord(Inlined, 1);
    });
    IRBuilder<> IRB(CounterAt);
    Value *Old = IRB.CreateLoad(I64, counterWord(GV, 0));
    IRB.CreateStore(IRB.CreateAdd(Old, ConstantInt::get(I64, 1)), counterWord(GV, 0));
    // The thread that first ran F's body also first ran the code inlined
    // into it, as far as this copy goes.
    recordFirstEntry(CounterAt, IRB.CreateICmpEQ(Old, ConstantInt::get(I64, 0)), AllCounters);
    Flags |= NUMAPERF_FUNCTION_HOOK_COUNTS;
    Counter = ConstantExpr::getPointerCast(GV, P);
  }
  FunctionIdentity Id = identityOf(F);
  unsigned Line = 0;
  if (DISubprogram *SP = F.getSubprogram())
    Line = SP->getLine();
  Rows.push_back(ConstantStruct::get(
      descType(Ctx),
      {Strings.get(F.getName()), Strings.get(Id.File),
       ConstantInt::get(I32, Line), ConstantInt::get(I32, Hooks),
       ConstantInt::get(I32, Filtered),
       ConstantInt::get(I32, Flags),
       Counter}));
}

// Inserts a call to Name(Table, Count) before the return of the module
// function Holder.
static void callFrom(Module &M, StringRef Holder, StringRef Name,
                     Constant *Table, Constant *Count) {
  Function *F = M.getFunction(Holder);
  if (!F)
    return;
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Callee =
      M.getOrInsertFunction(Name, Type::getVoidTy(Ctx), getVoidPtrTy(Ctx),
                            Type::getInt64Ty(Ctx));
  IRBuilder<> IRB(F->getEntryBlock().getTerminator());
  IRB.CreateCall(Callee, {Table, Count});
}

void FunctionTable::emit() {
  if (Rows.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  ArrayType *ArrTy = ArrayType::get(descType(Ctx), Rows.size());
  auto *Arr = new GlobalVariable(M, ArrTy, /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage,
                                 ConstantArray::get(ArrTy, Rows),
                                 "__numaperf.functions");
  Constant *Table = ConstantExpr::getPointerCast(Arr, getVoidPtrTy(Ctx));
  Constant *Count = ConstantInt::get(Type::getInt64Ty(Ctx), Rows.size());
  // After __numaperf_register_module, which checks the ABI version first.
  callFrom(M, ModuleCtorName, NUMAPERF_REGISTER_FUNCTIONS_NAME, Table, Count);
  callFrom(M, ModuleDtorName, NUMAPERF_UNREGISTER_FUNCTIONS_NAME, Table, Count);
}

} // namespace numaperf
