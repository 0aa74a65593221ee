//===- Compat.h - LLVM API differences between 14 and 19 -------*- C++ -*-===//
//
// The pass must build against several LLVM releases (Debian ships 14, users
// bring 15/16/19). Every version-dependent call goes through this header so
// the rest of the pass reads like plain LLVM code.
//
//===----------------------------------------------------------------------===//
#ifndef NUMAPERF_PASS_COMPAT_H
#define NUMAPERF_PASS_COMPAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/TypeSize.h"

namespace numaperf {

// The hooks take `const void *`: i8* with typed pointers (LLVM <= 16 may run
// in that mode), `ptr` otherwise. Type::getInt8PtrTy returns `ptr` anyway
// when the context uses opaque pointers; it was removed in LLVM 18.
inline llvm::PointerType *getVoidPtrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::getUnqual(Ctx);
#else
  return llvm::Type::getInt8PtrTy(Ctx);
#endif
}

// TypeSize::getFixedSize was renamed getFixedValue in LLVM 16.
inline uint64_t fixedSize(llvm::TypeSize TS) {
#if LLVM_VERSION_MAJOR >= 16
  return TS.getFixedValue();
#else
  return TS.getFixedSize();
#endif
}

// LLVM 20 dropped the StoreCaptures flag (stores always capture).
inline bool pointerMayBeCaptured(const llvm::Value *V) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::PointerMayBeCaptured(V, /*ReturnCaptures=*/true);
#else
  return llvm::PointerMayBeCaptured(V, /*ReturnCaptures=*/true,
                                    /*StoreCaptures=*/true);
#endif
}

// StringRef::startswith became starts_with (LLVM 16) and the old spelling
// was later removed; this works everywhere.
inline bool hasPrefix(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.size() >= Prefix.size() && S.substr(0, Prefix.size()) == Prefix;
}

} // namespace numaperf

#endif // NUMAPERF_PASS_COMPAT_H
