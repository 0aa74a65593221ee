; Accesses to ordinary globals are reported; thread-local globals and
; compiler/profiler/numaperf bookkeeping are not.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

@g = global i32 0
@arr = internal global [4 x i64] zeroinitializer
@tls = thread_local global i32 0
@__profc_f = private global [1 x i64] zeroinitializer, section "__llvm_prf_cnts"
@__numaperf_state = global i32 0
@meta = global i32 0, section "llvm.metadata"

define i32 @global_access() {
; CHECK-LABEL: @global_access(
; CHECK:      call void @__numaperf_load4(ptr @g)
; CHECK-NEXT: %a = load i32, ptr @g
; CHECK:      %e = getelementptr inbounds [4 x i64], ptr @arr, i64 0, i64 2
; CHECK-NEXT: call void @__numaperf_store8(ptr %e)
; CHECK-NEXT: store i64 5, ptr %e
  %a = load i32, i32* @g
  %e = getelementptr inbounds [4 x i64], [4 x i64]* @arr, i64 0, i64 2
  store i64 5, i64* %e
  ret i32 %a
}

define i32 @ignored_globals() {
; CHECK-LABEL: @ignored_globals(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret i32
  %t = load i32, i32* @tls
  store i32 1, i32* @tls
  %c = load i64, i64* getelementptr inbounds ([1 x i64], [1 x i64]* @__profc_f, i64 0, i64 0)
  store i64 1, i64* getelementptr inbounds ([1 x i64], [1 x i64]* @__profc_f, i64 0, i64 0)
  %s = load i32, i32* @__numaperf_state
  %m = load i32, i32* @meta
  ret i32 %t
}
