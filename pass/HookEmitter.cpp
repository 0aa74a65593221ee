//===- HookEmitter.cpp - calls to the __numaperf_load/store hooks ---------===//
#include "HookEmitter.h"
#include "Compat.h"

#include "numaperf/hook_abi.h"

#include "llvm/ADT/Twine.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace numaperf {

// Declares a hook. The hooks never unwind (the runtime is C-ABI), so the
// calls can sit inside EH regions without turning into invokes. They are
// bound when the program loads (nonlazybind): a call then goes through the
// hook's GOT entry directly instead of jumping to a PLT stub that jumps
// again, one indirect jump less on every call that leaves the inline test.
static FunctionCallee declareHook(Module &M, const Twine &Name,
                                  FunctionType *Ty) {
  FunctionCallee C = M.getOrInsertFunction(Name.str(), Ty);
  if (auto *F = dyn_cast<Function>(C.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::NonLazyBind);
  }
  return C;
}

HookEmitter::HookEmitter(Module &M) {
  LLVMContext &Ctx = M.getContext();
  VoidPtrTy = getVoidPtrTy(Ctx);
  Int64Ty = Type::getInt64Ty(Ctx);
  Type *VoidTy = Type::getVoidTy(Ctx);
  auto *FixedTy = FunctionType::get(VoidTy, {VoidPtrTy}, false);
  auto *SizedTy = FunctionType::get(VoidTy, {VoidPtrTy, Int64Ty}, false);
  auto *RangeTy =
      FunctionType::get(VoidTy, {VoidPtrTy, Int64Ty, Int64Ty, Int64Ty}, false);
  const char *Kind[2] = {"load", "store"};
  for (unsigned W = 0; W < 2; ++W) {
    for (unsigned L = 0; L < NumFixedSizes; ++L)
      Fixed[W][L] = declareHook(M, Twine(NUMAPERF_HOOK_PREFIX) + Kind[W] +
                                       Twine(1u << L),
                                FixedTy);
    Sized[W] = declareHook(M, Twine(NUMAPERF_HOOK_PREFIX) + Kind[W] + "N",
                           SizedTy);
    Range[W] = declareHook(M, Twine(NUMAPERF_HOOK_PREFIX) + Kind[W] + "_range",
                           RangeTy);
  }
}

// The verifier (and LTO) insist that calls in a function with debug info
// carry a location; line 0 says "compiler generated" to debuggers.
static DebugLoc locationFor(Instruction *I) {
  if (DebugLoc DL = I->getDebugLoc())
    return DL;
  if (DISubprogram *SP = I->getFunction()->getSubprogram())
    return DILocation::get(I->getContext(), 0, 0, SP);
  return DebugLoc();
}

static int fixedSizeIndex(uint64_t Size) {
  switch (Size) {
  case 1: return 0;
  case 2: return 1;
  case 4: return 2;
  case 8: return 3;
  case 16: return 4;
  default: return -1;
  }
}

void HookEmitter::emit(const MemoryAccess &A) {
  IRBuilder<> IRB(A.Inst);
  IRB.SetCurrentDebugLocation(locationFor(A.Inst));
  // A no-op with opaque pointers; a bitcast to i8* with typed pointers.
  Value *Addr = IRB.CreatePointerCast(A.Ptr, VoidPtrTy);
  unsigned W = A.IsWrite ? 1 : 0;
  if (A.DynSize) {
    Value *Len = IRB.CreateZExtOrTrunc(A.DynSize, Int64Ty);
    IRB.CreateCall(Sized[W], {Addr, Len});
    return;
  }
  int Idx = fixedSizeIndex(A.Size);
  if (Idx >= 0)
    IRB.CreateCall(Fixed[W][Idx], {Addr});
  else
    IRB.CreateCall(Sized[W], {Addr, ConstantInt::get(Int64Ty, A.Size)});
}

void HookEmitter::emitRange(const RangeAccess &R) {
  IRBuilder<> IRB(R.InsertBefore);
  IRB.SetCurrentDebugLocation(locationFor(R.Access.Inst));
  Value *Addr = IRB.CreatePointerCast(R.Start, VoidPtrTy);
  IRB.CreateCall(Range[R.Access.IsWrite ? 1 : 0],
                 {Addr, ConstantInt::get(Int64Ty, R.Stride, /*IsSigned=*/true),
                  R.Count, ConstantInt::get(Int64Ty, R.Access.Size)});
}

void HookEmitter::eraseUnusedDeclarations() {
  auto EraseIfUnused = [](FunctionCallee C) {
    auto *F = dyn_cast<Function>(C.getCallee());
    if (F && F->isDeclaration() && F->use_empty())
      F->eraseFromParent();
  };
  for (unsigned W = 0; W < 2; ++W) {
    for (FunctionCallee C : Fixed[W])
      EraseIfUnused(C);
    EraseIfUnused(Sized[W]);
    EraseIfUnused(Range[W]);
  }
}

} // namespace numaperf
