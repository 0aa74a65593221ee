//===- HookEmitter.h - calls to the __numaperf_load/store hooks -*- C++ -*-===//
//
// Turns a selected MemoryAccess into a call to the matching hook of
// include/numaperf/hook_abi.h, inserted right before the access.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_HOOKEMITTER_H
#define NUMAPERF_PASS_HOOKEMITTER_H

#include "AccessSelection.h"
#include "LoopRanges.h"

#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class Module;
}

namespace numaperf {

class HookEmitter {
public:
  explicit HookEmitter(llvm::Module &M);

  /// Inserts the hook call for A before A.Inst, with A.Inst's debug location
  /// (or line 0 in the function's scope).
  void emit(const MemoryAccess &A);

  /// Inserts the range hook for R before R.InsertBefore (the loop
  /// preheader's terminator), with the access's debug location.
  void emitRange(const RangeAccess &R);

  /// Drops the hook declarations nothing ended up calling (keeps -O0 IR
  /// and the symbol table tidy).
  void eraseUnusedDeclarations();

private:
  static constexpr unsigned NumFixedSizes = 5; // 1, 2, 4, 8, 16 bytes
  llvm::FunctionCallee Fixed[2][NumFixedSizes]; // [IsWrite][log2(size)]
  llvm::FunctionCallee Sized[2];                // loadN, storeN
  llvm::FunctionCallee Range[2];                // load_range, store_range
  llvm::Type *VoidPtrTy;
  llvm::IntegerType *Int64Ty;
};

} // namespace numaperf

#endif // NUMAPERF_PASS_HOOKEMITTER_H
