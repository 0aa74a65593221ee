//===- StringPool.h - private string constants of a module -----*- C++ -*-===//
//
// The tables the pass hands to the runtime (globals, functions) name things
// with C strings; one private constant per distinct text.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_STRINGPOOL_H
#define NUMAPERF_PASS_STRINGPOOL_H

#include "Compat.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

namespace numaperf {

class StringPool {
  llvm::Module &M;
  llvm::StringMap<llvm::Constant *> Cache;

public:
  explicit StringPool(llvm::Module &M) : M(M) {}
  /// A `const char *` constant holding S.
  llvm::Constant *get(llvm::StringRef S) {
    llvm::Constant *&Slot = Cache[S];
    if (!Slot) {
      llvm::Constant *Init =
          llvm::ConstantDataArray::getString(M.getContext(), S);
      auto *GV = new llvm::GlobalVariable(
          M, Init->getType(), /*isConstant=*/true,
          llvm::GlobalValue::PrivateLinkage, Init, "__numaperf.str");
      GV->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
      GV->setAlignment(llvm::Align(1));
      Slot = llvm::ConstantExpr::getPointerCast(GV,
                                                getVoidPtrTy(M.getContext()));
    }
    return Slot;
  }
};

} // namespace numaperf

#endif // NUMAPERF_PASS_STRINGPOOL_H
