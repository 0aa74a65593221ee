//===- AccessSelection.h - which memory accesses get a hook ----*- C++ -*-===//
//
// Decides which instructions of a function are reported to the runtime.
// Kept apart from the code that emits the hooks so that the policy (what is
// worth profiling for NUMA placement) can be read and tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_ACCESSSELECTION_H
#define NUMAPERF_PASS_ACCESSSELECTION_H

#include "llvm/ADT/SmallVector.h"
#include <cstdint>

namespace llvm {
class DataLayout;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace numaperf {

/// One range of memory touched by an instruction. An instruction can yield
/// several (memcpy reads its source and writes its destination).
struct MemoryAccess {
  llvm::Instruction *Inst; ///< the access; the hook goes right before it
  llvm::Value *Ptr;        ///< start address
  bool IsWrite;
  uint64_t Size;           ///< bytes, when known at compile time (else 0)
  llvm::Value *DynSize;    ///< byte count for memory intrinsics, else null
};

/// False for functions that must not get hooks at all: the runtime's own
/// functions (and the pass's constructor), naked functions and functions
/// marked disable_sanitizer_instrumentation.
bool shouldInstrumentFunction(const llvm::Function &F);

/// Appends, in program order, the accesses of F that should be reported.
void collectAccesses(llvm::Function &F, const llvm::DataLayout &DL,
                     llvm::SmallVectorImpl<MemoryAccess> &Out);

} // namespace numaperf

#endif // NUMAPERF_PASS_ACCESSSELECTION_H
