//===- FunctionTable.h - what the pass did to each function ----*- C++ -*-===//
//
// One numaperf_function_desc per function that got hooks or lost some to
// the filter: its name, source, static hook count, filtered accesses and an
// entry counter bumped on its instrumented path. The module constructor
// hands the table to the runtime (__numaperf_register_functions), which
// reports the instrumented and filtered functions and estimates hook calls
// per function as entries x hooks (docs/filters.md, `numaperf select`).
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_FUNCTIONTABLE_H
#define NUMAPERF_PASS_FUNCTIONTABLE_H

#include "StringPool.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"

namespace llvm {
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace numaperf {

class FunctionTable {
public:
  explicit FunctionTable(llvm::Module &M) : M(M), Strings(M) {}

  /// Records F. With CounterAt, bumps F's entry counter there (the start
  /// of its instrumented path).
  void add(llvm::Function &F, unsigned Hooks, unsigned Filtered,
           bool OwnCodeFiltered, llvm::Instruction *CounterAt);

  /// Emits the table and the (un)registration calls into the module
  /// constructor and destructor (call after emitGlobalRegistration).
  void emit();

private:
  llvm::Module &M;
  StringPool Strings;
  llvm::SmallVector<llvm::Constant *, 32> Rows;
};

} // namespace numaperf

#endif // NUMAPERF_PASS_FUNCTIONTABLE_H
