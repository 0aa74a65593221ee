; The plugin's optimizer-last callback instruments in the standard
; pipelines, at -O0 as well as -O2 (loaded once, run once).
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes='default<O0>' -numaperf-private-page-test=0 -S %s | FileCheck %s --check-prefixes=CHECK,O0
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes='default<O2>' -numaperf-private-page-test=0 -S %s | FileCheck %s --check-prefixes=CHECK,O2

@g = global i32 0

define i32 @get(i32* %p) {
; CHECK-LABEL: @get(
; CHECK:      call void @__numaperf_load4(ptr %p)
; CHECK-NEXT: load i32, ptr %p
  %v = load i32, i32* %p
  ret i32 %v
}

; -O2 merges the two loads before the pass runs: one hook left.
define i32 @twice(i32* %p) {
; CHECK-LABEL: @twice(
; CHECK:      call void @__numaperf_load4(ptr %p)
; O0:         call void @__numaperf_load4(ptr %p)
; O2-NOT:     call void @__numaperf_load4(ptr %p)
; CHECK:      ret i32
  %a = load i32, i32* %p
  %b = load i32, i32* %p
  %r = add i32 %a, %b
  ret i32 %r
}

define void @bump() noinline optnone {
; CHECK-LABEL: @bump(
; CHECK:      call void @__numaperf_store4(ptr @g)
; CHECK-NEXT: store i32
  %v = load i32, i32* @g
  %w = add i32 %v, 1
  store i32 %w, i32* @g
  ret void
}

; CHECK: define internal void @__numaperf.module_ctor()
; CHECK-NEXT: call void @__numaperf_register_module(i32 {{[0-9]+}}, ptr @__numaperf.globals, i64 1)
; CHECK-NOT: @__numaperf.module_ctor.1
