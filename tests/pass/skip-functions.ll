; Functions that never get hooks: naked, disable_sanitizer_instrumentation,
; and the __numaperf* namespace (runtime, pass-generated code). optnone
; functions (all of clang -O0) ARE instrumented: the pass is required.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

define void @naked_fn(i32* %p) naked {
; CHECK-LABEL: @naked_fn(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret void
  store i32 1, i32* %p
  ret void
}

define void @no_instrumentation(i32* %p) disable_sanitizer_instrumentation {
; CHECK-LABEL: @no_instrumentation(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret void
  store i32 1, i32* %p
  ret void
}

define void @__numaperf_runtime_helper(i32* %p) {
; CHECK-LABEL: @__numaperf_runtime_helper(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret void
  store i32 1, i32* %p
  ret void
}

define void @optnone_fn(i32* %p) noinline optnone {
; CHECK-LABEL: @optnone_fn(
; CHECK-NEXT: call void @__numaperf_store4(ptr %p)
; CHECK-NEXT: store i32 1, ptr %p
  store i32 1, i32* %p
  ret void
}
