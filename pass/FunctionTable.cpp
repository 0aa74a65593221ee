//===- FunctionTable.cpp - what the pass did to each function -------------===//
#include "FunctionTable.h"
#include "Compat.h"
#include "FunctionFilter.h"
#include "GlobalRegistration.h"
#include "StringPool.h"

#include "numaperf/hook_abi.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace numaperf {

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
  if (CounterAt) {
    // One cache line per counter: threads running different functions do
    // not share a line. A plain (racy) increment: an estimate is enough,
    // an atomic add would cost more than the hooks it counts.
    auto *GV = new GlobalVariable(M, I64, /*isConstant=*/false,
                                  GlobalValue::InternalLinkage,
                                  ConstantInt::get(I64, 0),
                                  "__numaperf.entries");
    GV->setAlignment(Align(64));
    IRBuilder<> IRB(CounterAt);
    Value *Old = IRB.CreateLoad(I64, GV);
    IRB.CreateStore(IRB.CreateAdd(Old, ConstantInt::get(I64, 1)), GV);
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
       ConstantInt::get(I32, OwnCodeFiltered ? NUMAPERF_FUNCTION_FILTERED : 0),
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
