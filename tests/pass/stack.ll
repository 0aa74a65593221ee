; Stack slots whose address never escapes the function are thread-private:
; no hook. Once the address escapes (call argument, stored to memory,
; returned), other threads may reach it: hooked.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

declare void @sink(i32*)

define i32 @private_local() {
; CHECK-LABEL: @private_local(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret i32
  %x = alloca i32
  %a = alloca [8 x i32]
  store i32 1, i32* %x
  %e = getelementptr inbounds [8 x i32], [8 x i32]* %a, i64 0, i64 3
  store i32 2, i32* %e
  %v = load i32, i32* %x
  %w = load i32, i32* %e
  %r = add i32 %v, %w
  ret i32 %r
}

define i32 @escapes_via_call() {
; CHECK-LABEL: @escapes_via_call(
; CHECK:      call void @__numaperf_store4(ptr %x)
; CHECK-NEXT: store i32 1, ptr %x
; CHECK-NEXT: call void @sink(ptr %x)
; CHECK-NEXT: call void @__numaperf_load4(ptr %x)
; CHECK-NEXT: %v = load i32, ptr %x
  %x = alloca i32
  store i32 1, i32* %x
  call void @sink(i32* %x)
  %v = load i32, i32* %x
  ret i32 %v
}

; The capture check is on the whole alloca, not just the accessed element.
define i32 @escapes_other_element() {
; CHECK-LABEL: @escapes_other_element(
; CHECK:      call void @__numaperf_load4(ptr %e1)
; CHECK-NEXT: %v = load i32, ptr %e1
  %a = alloca [2 x i32]
  %e0 = getelementptr inbounds [2 x i32], [2 x i32]* %a, i64 0, i64 0
  %e1 = getelementptr inbounds [2 x i32], [2 x i32]* %a, i64 0, i64 1
  call void @sink(i32* %e0)
  %v = load i32, i32* %e1
  ret i32 %v
}

define void @escapes_via_store(i32** %out) {
; CHECK-LABEL: @escapes_via_store(
; CHECK:      call void @__numaperf_store8(ptr %out)
; CHECK-NEXT: store ptr %x, ptr %out
; CHECK-NEXT: call void @__numaperf_store4(ptr %x)
; CHECK-NEXT: store i32 7, ptr %x
  %x = alloca i32
  store i32* %x, i32** %out
  store i32 7, i32* %x
  ret void
}

define i32* @escapes_via_return() {
; CHECK-LABEL: @escapes_via_return(
; CHECK:      call void @__numaperf_store4(ptr %x)
; CHECK-NEXT: store i32 7, ptr %x
  %x = alloca i32
  store i32 7, i32* %x
  ret i32* %x
}
