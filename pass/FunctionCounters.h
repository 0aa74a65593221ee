//===- FunctionCounters.h - dynamic hook counts per function ---*- C++ -*-===//
//
// Counts, per instrumented function, the accesses its hooks report while
// profiling is on: a hook call counts 1, a range hook its element count.
// The count is kept in a local variable promoted to a register (bumped in
// every block by that block's hooks, no memory traffic in loops) and added
// to the function's counter once per call, at each return and before each
// call that does not return. `numaperf select` ranks functions by it
// (docs/filters.md).
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_FUNCTIONCOUNTERS_H
#define NUMAPERF_PASS_FUNCTIONCOUNTERS_H

namespace llvm {
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace numaperf {

/// Counts F's hook calls into the i64 at Counter. Only code dominated by
/// OnPath (the start of the instrumented path) counts and flushes, so the
/// uninstrumented dispatch path stays free of it. Call after every hook of
/// F was emitted.
void countHookCalls(llvm::Function &F, llvm::Instruction *OnPath,
                    llvm::Value *Counter);

} // namespace numaperf

#endif // NUMAPERF_PASS_FUNCTIONCOUNTERS_H
