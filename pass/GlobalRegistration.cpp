//===- GlobalRegistration.cpp - describe a module's globals ---------------===//
#include "GlobalRegistration.h"
#include "Compat.h"
#include "StringPool.h"

#include "numaperf/hook_abi.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace numaperf {

// Runs before ordinary C++ static constructors (65535) so the ABI version is
// checked and the table is known before any instrumented initialiser runs;
// same slot the sanitizers use. Destructors with this priority run last.
static constexpr int CtorPriority = 1;

// Should GV get a record? Only storage this module really defines, that all
// threads share and that is user data.
static bool isRegistered(const GlobalVariable &GV, const DataLayout &DL) {
  if (GV.isDeclaration() || GV.hasAvailableExternallyLinkage())
    return false; // defined (and registered) by another module
  if (GV.isThreadLocal())
    return false; // one copy per thread: no single address to attribute
  StringRef Name = GV.getName();
  if (hasPrefix(Name, "llvm.") || hasPrefix(Name, "__numaperf"))
    return false; // llvm.used, llvm.global_ctors, our own tables
  if (GV.hasSection()) {
    StringRef Sec = GV.getSection();
    if (Sec == "llvm.metadata" || hasPrefix(Sec, "__llvm"))
      return false; // metadata, profile counters
  }
  // Private unnamed_addr constants are compiler-made anonymous data (string
  // literals, switch tables, constant pools): no name a user would know,
  // and read-only. Their accesses are still hooked, just not attributed.
  if (GV.hasPrivateLinkage() && GV.hasGlobalUnnamedAddr() && GV.isConstant())
    return false;
  if (GV.getAddressSpace() != 0)
    return false; // not addressable through a plain `const void *`
  Type *Ty = GV.getValueType();
  if (!Ty->isSized() || DL.getTypeAllocSize(Ty).isScalable() ||
      fixedSize(DL.getTypeAllocSize(Ty)) == 0)
    return false;
  // A local symbol inside a comdat lives in a section the linker may
  // discard; a reference to it from our (non-comdat) table would then be a
  // link error. Non-local comdat members (linkonce_odr: C++ inline
  // variables, template statics) are fine: the reference binds to the copy
  // the linker keeps, and the runtime dedups by address.
  if (GV.hasComdat() && GV.hasLocalLinkage())
    return false;
  return true;
}

namespace {
/// Source location of a global from its debug info, if any.
struct SourceLoc {
  std::string File;
  unsigned Line = 0;
};
} // namespace

static SourceLoc sourceLocOf(const GlobalVariable &GV) {
  SmallVector<DIGlobalVariableExpression *, 1> GVEs;
  GV.getDebugInfo(GVEs);
  for (DIGlobalVariableExpression *GVE : GVEs) {
    DIGlobalVariable *Var = GVE->getVariable();
    if (!Var)
      continue;
    SourceLoc L;
    L.Line = Var->getLine();
    if (DIFile *File = Var->getFile()) {
      // Absolute path when we can build one, so the report does not depend
      // on the directory it is run from.
      SmallString<256> Path(File->getFilename());
      if (!sys::path::is_absolute(Path) && !File->getDirectory().empty()) {
        Path = File->getDirectory();
        sys::path::append(Path, File->getFilename());
      }
      sys::path::remove_dots(Path); // "dir/./a.h" -> "dir/a.h"
      L.File = std::string(Path.str());
    }
    return L;
  }
  return {};
}


// void name(void) with internal linkage and no comdat, so each module keeps
// its own copy whatever the linker does with comdat groups.
static Function *createModuleFunction(Module &M, StringRef Name) {
  auto *Ty = FunctionType::get(Type::getVoidTy(M.getContext()), false);
  Function *F =
      Function::Create(Ty, GlobalValue::InternalLinkage, Name, &M);
  F->addFnAttr(Attribute::NoUnwind);
  BasicBlock::Create(M.getContext(), "", F);
  return F;
}

void emitGlobalRegistration(Module &M) {
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *VoidPtrTy = getVoidPtrTy(Ctx);
  Type *Int32Ty = Type::getInt32Ty(Ctx);
  Type *Int64Ty = Type::getInt64Ty(Ctx);

  // Mirrors struct numaperf_global_desc; LLVM lays it out with the target's
  // C rules, so the layouts agree on every target.
  StructType *DescTy = StructType::get(
      Ctx, {VoidPtrTy, Int64Ty, VoidPtrTy, VoidPtrTy, Int32Ty, Int32Ty});

  // Collect first: the string constants we create must not be described.
  SmallVector<GlobalVariable *, 32> Globals;
  for (GlobalVariable &GV : M.globals())
    if (isRegistered(GV, DL))
      Globals.push_back(&GV);

  StringPool Strings(M);
  SmallVector<Constant *, 32> Descs;
  for (GlobalVariable *GV : Globals) {
    SourceLoc Loc = sourceLocOf(*GV);
    Descs.push_back(ConstantStruct::get(
        DescTy,
        {ConstantExpr::getPointerCast(GV, VoidPtrTy),
         ConstantInt::get(Int64Ty,
                          fixedSize(DL.getTypeAllocSize(GV->getValueType()))),
         Strings.get(GV->getName()), Strings.get(Loc.File),
         ConstantInt::get(Int32Ty, Loc.Line), ConstantInt::get(Int32Ty, 0)}));
  }

  // With no globals we pass a null table and count 0 (the ctor still runs,
  // so the runtime sees the ABI version of every module).
  Constant *Table = ConstantPointerNull::get(cast<PointerType>(VoidPtrTy));
  if (!Descs.empty()) {
    ArrayType *ArrTy = ArrayType::get(DescTy, Descs.size());
    auto *Arr = new GlobalVariable(M, ArrTy, /*isConstant=*/true,
                                   GlobalValue::PrivateLinkage,
                                   ConstantArray::get(ArrTy, Descs),
                                   "__numaperf.globals");
    Table = ConstantExpr::getPointerCast(Arr, VoidPtrTy);
  }
  Constant *Count = ConstantInt::get(Int64Ty, Descs.size());

  FunctionCallee Register = M.getOrInsertFunction(
      NUMAPERF_REGISTER_MODULE_NAME, Type::getVoidTy(Ctx), Int32Ty,
      VoidPtrTy, Int64Ty);
  FunctionCallee Unregister = M.getOrInsertFunction(
      NUMAPERF_UNREGISTER_MODULE_NAME, Type::getVoidTy(Ctx), VoidPtrTy,
      Int64Ty);

  Function *Ctor = createModuleFunction(M, ModuleCtorName);
  IRBuilder<> IRB(&Ctor->getEntryBlock());
  IRB.CreateCall(Register,
                 {ConstantInt::get(Int32Ty, NUMAPERF_HOOK_ABI_VERSION), Table,
                  Count});
  IRB.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, CtorPriority);

  Function *Dtor = createModuleFunction(M, ModuleDtorName);
  IRB.SetInsertPoint(&Dtor->getEntryBlock());
  IRB.CreateCall(Unregister, {Table, Count});
  IRB.CreateRetVoid();
  appendToGlobalDtors(M, Dtor, CtorPriority);
}

} // namespace numaperf
