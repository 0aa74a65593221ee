//===- FunctionTwins.h - run-time switching between two bodies -*- C++ -*-===//
//
// Each instrumented function keeps an uninstrumented twin (a clone made
// before the hooks go in) and picks one at entry from the runtime's flag
// __numaperf_active: one load and one branch; when profiling is off the
// function tail-calls (musttail) its twin, so no hook runs and the plain
// code keeps its optimised form. See docs/switching.md.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_FUNCTIONTWINS_H
#define NUMAPERF_PASS_FUNCTIONTWINS_H

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace numaperf {

/// Clones F into an internal uninstrumented twin ("<name>.numaperf.off").
/// Call before F gets hooks. Null when F cannot have one (variadic
/// functions, inalloca/preallocated arguments): F then stays instrumented.
llvm::Function *cloneTwin(llvm::Function &F);

/// After F got its hooks: at F's entry (after its static allocas) loads the
/// flag and branches to F's body when on, to a musttail call of Twin when
/// off. Returns the first instruction of the instrumented path.
llvm::Instruction *insertDispatch(llvm::Function &F, llvm::Function &Twin);

/// Where the instrumented path of a function without a twin starts.
llvm::Instruction *bodyStart(llvm::Function &F);

} // namespace numaperf

#endif // NUMAPERF_PASS_FUNCTIONTWINS_H
