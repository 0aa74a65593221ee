; Accesses that are not reported although the function is instrumented:
; !nosanitize (another instrumentation's own bookkeeping), pointers outside
; address space 0 (not plain process memory), swifterror slots.
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf -S %s | FileCheck %s

define i32 @skipped(i32* %p, i32 addrspace(256)* %seg) {
; CHECK-LABEL: @skipped(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret i32
  %a = load i32, i32* %p, !nosanitize !0
  %b = load i32, i32 addrspace(256)* %seg
  %r = add i32 %a, %b
  ret i32 %r
}

declare void @takes_err(i8** swifterror)

define void @swift(i8* %v) {
; CHECK-LABEL: @swift(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret void
  %err = alloca swifterror i8*
  store i8* %v, i8** %err
  call void @takes_err(i8** swifterror %err)
  %e = load i8*, i8** %err
  ret void
}

!0 = !{}
