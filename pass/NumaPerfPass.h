//===- NumaPerfPass.h - the numaperf instrumentation pass ------*- C++ -*-===//
//
// Module pass: adds a hook call before every selected memory access
// (AccessSelection + HookEmitter) and the global-variable registration
// (GlobalRegistration). Registered with the pass builder in
// NumaPerfPlugin.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_NUMAPERFPASS_H
#define NUMAPERF_PASS_NUMAPERFPASS_H

#include "llvm/IR/PassManager.h"

namespace numaperf {

class NumaPerfPass : public llvm::PassInfoMixin<NumaPerfPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

  // Without this the new pass manager skips the pass for optnone functions,
  // i.e. for everything clang compiles at -O0.
  static bool isRequired() { return true; }
};

} // namespace numaperf

#endif // NUMAPERF_PASS_NUMAPERFPASS_H
