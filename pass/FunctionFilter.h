//===- FunctionFilter.h - which functions get hooks ------------*- C++ -*-===//
//
// The compile-time filter: -numaperf-filter=FILE (or NUMAPERF_FILTER, which
// the wrappers' --numaperf-filter sets) names a sanitizer-style list or a
// Score-P filter file. Decides per function, and per access for code the
// inliner moved from one function into another (see docs/filters.md).
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_FUNCTIONFILTER_H
#define NUMAPERF_PASS_FUNCTIONFILTER_H

#include "AccessSelection.h"
#include "FilterRules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class DISubprogram;
class Function;
class Module;
} // namespace llvm

namespace numaperf {

class FunctionFilter {
public:
  /// Reads the filter file named by the option or the environment, if any.
  /// False with *Error = "FILE:LINE: what" (or "FILE: cannot read ...").
  bool load(std::string *Error);
  /// Parses Text as a filter file of either format (detected by content).
  bool loadText(const std::string &Path, const std::string &Text,
                std::string *Error);

  bool active() const { return Loaded; }
  const std::string &path() const { return Rules.Path; }

  /// Is F's own code instrumented?
  bool keepFunction(const llvm::Function &F);

  /// Drops the accesses whose source function (the innermost subprogram of
  /// the access's debug location: the inlined callee for inlined code, else
  /// F itself) is filtered out.
  void removeFiltered(llvm::Function &F,
                      llvm::SmallVectorImpl<MemoryAccess> &Accesses);

  /// The decision for one identity (exposed for the rule order).
  bool keep(const FunctionIdentity &Id) const;

private:
  bool keepSubprogram(const llvm::DISubprogram *SP, const llvm::Function &F);

  bool Loaded = false;
  FilterRules Rules;
  llvm::DenseMap<const llvm::DISubprogram *, bool> SubprogramCache;
};

/// Names of F as filters see them.
FunctionIdentity identityOf(const llvm::Function &F);
/// Names of the source function of code inlined from SP (as the filter
/// matches it: linkage name, else name).
FunctionIdentity identityOf(const llvm::DISubprogram &SP, const llvm::Module *M);

} // namespace numaperf

#endif // NUMAPERF_PASS_FUNCTIONFILTER_H
