//===- LoopRanges.h - one hook per loop for strided accesses ----*- C++ -*-===//
//
// An access inside a loop whose address advances by a constant stride every
// iteration, and that runs on every iteration of a loop with a computable
// trip count, is reported once, before the loop, as a range: start, stride,
// count. So is a load of a loop-invariant address the loop does not store
// to (stride 0). The runtime then counts it page by page and line by line
// instead of access by access, and the loop keeps its vectorised body.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_LOOPRANGES_H
#define NUMAPERF_PASS_LOOPRANGES_H

#include "AccessSelection.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

namespace numaperf {

/// One access described for a whole loop.
struct RangeAccess {
  MemoryAccess Access;     ///< the access inside the loop (for its location)
  llvm::Instruction *InsertBefore; ///< the loop preheader's terminator, or the
                                   ///< top of an exit for a counted load
  llvm::Value *Start;      ///< address of the first iteration's access
  int64_t Stride;          ///< bytes between iterations (0: a load of one address)
  llvm::Value *Count;      ///< iterations per loop entry, or the counted
                           ///< load's count so far (i64)
};

/// Moves out of `Accesses` those that can be reported as ranges, expanding
/// their start and count in the loop preheaders (created where a loop has
/// none, by splitting the edge into its header), and appends them to
/// `Ranges`. Invariant loads of loops without a computable trip count get a
/// counter (appended to `Counters`) and a range at each exit of the loop.
void extractLoopRanges(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                       llvm::SmallVectorImpl<MemoryAccess> &Accesses,
                       llvm::SmallVectorImpl<RangeAccess> &Ranges,
                       llvm::SmallVectorImpl<llvm::AllocaInst *> &Counters);

/// Turns the counters of extractLoopRanges into registers, once the range
/// hooks that read them are emitted.
void promoteRangeCounters(llvm::Function &F,
                          llvm::ArrayRef<llvm::AllocaInst *> Counters);

} // namespace numaperf

#endif // NUMAPERF_PASS_LOOPRANGES_H
