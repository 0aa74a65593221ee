//===- PrivatePageTest.h - inline test in front of small hooks -*- C++ -*-===//
//
// Turns each call to a 1- to 8-byte access hook into the inline private-page
// test of include/numaperf/hook_abi.h: compare the access's page with the
// page in the thread's numaperf_fast_page record; on a match add one to the
// record's load or store count, otherwise make the call. The common case of
// a thread working on memory it alone uses then costs a few instructions
// instead of a call (docs/design.md, "Shadow memory and the hot path").
//
// Runs after the hook calls and the per-function hook counters are in place,
// so the counters still count every access the hooks report, whichever way
// it is counted.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_PRIVATEPAGETEST_H
#define NUMAPERF_PASS_PRIVATEPAGETEST_H

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace numaperf {

/// Puts the test in front of every small hook call of F. `PathStart` is the
/// first instruction of F's instrumented path (see FunctionTwins.h): the
/// record's address is loaded there once, for every test it dominates.
/// Returns the number of tests inserted.
unsigned insertPrivatePageTests(llvm::Function &F, llvm::Instruction *PathStart);

} // namespace numaperf

#endif // NUMAPERF_PASS_PRIVATEPAGETEST_H
