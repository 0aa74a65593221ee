//===- GlobalRegistration.h - describe a module's globals ------*- C++ -*-===//
//
// Emits, per module, the table of numaperf_global_desc records for the
// globals it defines plus the constructor/destructor that hand the table to
// the runtime (__numaperf_register_module / __numaperf_unregister_module).
// This is what lets the runtime attribute accesses to named data objects.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_GLOBALREGISTRATION_H
#define NUMAPERF_PASS_GLOBALREGISTRATION_H

namespace llvm {
class Module;
}

namespace numaperf {

/// Name of the constructor the pass adds; its presence marks a module as
/// already instrumented (the pass can be reached twice, e.g. via
/// -fpass-plugin at compile time and again at LTO link time).
inline constexpr const char *ModuleCtorName = "__numaperf.module_ctor";
inline constexpr const char *ModuleDtorName = "__numaperf.module_dtor";

/// Adds the descriptor table, constructor and destructor to M. Call after the
/// functions have been instrumented (the new globals are never hooked).
void emitGlobalRegistration(llvm::Module &M);

} // namespace numaperf

#endif // NUMAPERF_PASS_GLOBALREGISTRATION_H
