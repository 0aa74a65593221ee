; A module without globals still gets the constructor, so the runtime checks
; the ABI version of every instrumented module: null table, count 0.
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf -S %s | FileCheck %s

@tls = thread_local global i32 0

define i32 @f(i32* %p) {
  %v = load i32, i32* %p
  ret i32 %v
}

; CHECK-NOT: @__numaperf.globals
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__numaperf.module_ctor, ptr null }]
; CHECK-LABEL: define internal void @__numaperf.module_ctor()
; CHECK-NEXT:  call void @__numaperf_register_module(i32 {{[0-9]+}}, ptr null, i64 0)
; CHECK-LABEL: define internal void @__numaperf.module_dtor()
; CHECK-NEXT:  call void @__numaperf_unregister_module(ptr null, i64 0)
