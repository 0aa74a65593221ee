//===- FunctionTwins.cpp - run-time switching between two bodies ----------===//
#include "FunctionTwins.h"
#include "Compat.h"

#include "numaperf/hook_abi.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace numaperf {

Function *cloneTwin(Function &F) {
  // musttail cannot forward these portably; such functions keep their
  // hooks whatever the flag says (docs/switching.md).
  if (F.isVarArg())
    return nullptr;
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr())
      return nullptr;
  // A coroutine not yet split (the pass can run before CoroSplit at -O0)
  // must not be duplicated: its frame and resume functions are built later.
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->getCalledFunction() &&
            hasPrefix(II->getCalledFunction()->getName(), "llvm.coro."))
          return nullptr;
  ValueToValueMapTy VMap;
  // Clones the body and (LocalChangesOnly) gives the twin its own
  // DISubprogram with the same names, so both symbolize as F.
  Function *Twin = CloneFunction(&F, VMap);
  Twin->setName(F.getName() + ".numaperf.off");
  Twin->setLinkage(GlobalValue::InternalLinkage);
  Twin->setVisibility(GlobalValue::DefaultVisibility);
  Twin->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  // In F's comdat: discarded together with F when the linker keeps another
  // module's copy.
  Twin->setComdat(F.getComdat());
  Twin->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  // Called only from F's dispatch; keep it out of line (it would otherwise
  // be a second copy of F inlined into F).
  Twin->addFnAttr(Attribute::NoInline);
  Twin->removeFnAttr(Attribute::AlwaysInline);
  // CloneFunction appends to the module; keep the twin next to F.
  Twin->removeFromParent();
  F.getParent()->getFunctionList().insertAfter(F.getIterator(), Twin);
  return Twin;
}

static BasicBlock::iterator afterStaticAllocas(BasicBlock &Entry) {
  // Allocas must stay in the entry block to remain static (fixed frame).
  BasicBlock::iterator IP = Entry.getFirstInsertionPt();
  while (IP != Entry.end() && isa<AllocaInst>(*IP) &&
         cast<AllocaInst>(*IP).isStaticAlloca())
    ++IP;
  return IP;
}

Instruction *bodyStart(Function &F) {
  return &*afterStaticAllocas(F.getEntryBlock());
}

Instruction *insertDispatch(Function &F, Function &Twin) {
  Module &M = *F.getParent();
  LLVMContext &Ctx = F.getContext();
  Type *FlagTy = Type::getInt8Ty(Ctx);
  // Defined by the runtime; read with a relaxed atomic load (a plain mov)
  // since a signal or another thread may flip it at any time.
  Constant *Flag = M.getOrInsertGlobal(NUMAPERF_ACTIVE_FLAG_NAME, FlagTy);

  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock *Body = Entry.splitBasicBlock(afterStaticAllocas(Entry),
                                           "numaperf.on");
  BasicBlock *Off = BasicBlock::Create(Ctx, "numaperf.off", &F, Body);

  Entry.getTerminator()->eraseFromParent();
  IRBuilder<> IRB(&Entry);
  LoadInst *On = IRB.CreateLoad(FlagTy, Flag, "numaperf.active");
  On->setAtomic(AtomicOrdering::Monotonic);
  On->setAlignment(Align(1));
  IRB.CreateCondBr(IRB.CreateICmpNE(On, ConstantInt::get(FlagTy, 0)), Body,
                   Off);

  IRB.SetInsertPoint(Off);
  // Calls in a function with debug info need a location (LTO verifier).
  if (DISubprogram *SP = F.getSubprogram())
    IRB.SetCurrentDebugLocation(DILocation::get(Ctx, 0, 0, SP));
  SmallVector<Value *, 8> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  CallInst *Call = IRB.CreateCall(Twin.getFunctionType(), &Twin, Args);
  Call->setCallingConv(F.getCallingConv());
  // musttail wants the ABI attributes of the caller's parameters repeated.
  AttributeList FA = F.getAttributes();
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
    ParamAttrs.push_back(FA.getParamAttrs(I));
  Call->setAttributes(
      AttributeList::get(Ctx, AttributeSet(), FA.getRetAttrs(), ParamAttrs));
  Call->setTailCallKind(CallInst::TCK_MustTail);
  if (F.getReturnType()->isVoidTy())
    IRB.CreateRetVoid();
  else
    IRB.CreateRet(Call);
  return &*Body->getFirstInsertionPt();
}

} // namespace numaperf
