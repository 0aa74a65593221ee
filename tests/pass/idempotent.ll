; Running the pass twice on a module (e.g. compile step and LTO link step
; both load the plugin) instruments it once: the constructor is the marker.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -numaperf-private-page-test=0 -passes=numaperf,numaperf -S %s | FileCheck %s

; CHECK: @llvm.global_ctors = appending global [1 x {{.*}} @__numaperf.module_ctor,
; CHECK-NOT: @__numaperf.module_ctor.1

define i32 @f(i32* %p) {
; CHECK-LABEL: @f(
; CHECK-NEXT: call void @__numaperf_load4(ptr %p)
; CHECK-NEXT: %v = load i32, ptr %p
  %v = load i32, i32* %p
  ret i32 %v
}

; CHECK: define internal void @__numaperf.module_ctor()
; CHECK-NOT: @__numaperf.module_ctor.1
