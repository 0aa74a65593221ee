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

#include "llvm/ADT/STLExtras.h"

namespace llvm {
class DISubprogram;
class Function;
class Instruction;
class Value;
} // namespace llvm

namespace numaperf {

/// Counts F's hook calls. Hooks of code the inliner copied into F count
/// for the function they come from (the innermost subprogram of their debug
/// location, as the filter decides: docs/filters.md), F's own for F:
/// CounterFor(SP, Hooks) gives the i64 to add to for the source function SP
/// (nullptr: F itself) that has Hooks hook calls in F. Only code dominated
/// by OnPath (the start of the instrumented path) counts and flushes, so
/// the uninstrumented dispatch path stays free of it. Call after every hook
/// of F was emitted.
void countHookCalls(
    llvm::Function &F, llvm::Instruction *OnPath,
    llvm::function_ref<llvm::Value *(const llvm::DISubprogram *, unsigned)> CounterFor);

} // namespace numaperf

#endif // NUMAPERF_PASS_FUNCTIONCOUNTERS_H
