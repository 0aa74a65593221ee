; A load followed in the same basic block by a store of the same size to the
; same pointer, with no call in between, is covered by the store's hook (as
; in ThreadSanitizer): `x += y` reports one store. -numaperf-merge-load-store=0
; reports both (cl::opts of a plugin need -load=<plugin> too, so that they
; exist when the command line is parsed).
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s --check-prefix=MERGE
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -numaperf-merge-load-store=0 -S %s | FileCheck %s --check-prefix=ALL

declare void @callee()
declare void @llvm.assume(i1)

define void @inc(i32* %p) {
; MERGE-LABEL: @inc(
; MERGE-NEXT:  %v = load i32, ptr %p
; MERGE-NEXT:  %w = add i32 %v, 1
; MERGE-NEXT:  call void @llvm.assume
; MERGE-NEXT:  call void @__numaperf_store4(ptr %p)
; MERGE-NEXT:  store i32 %w, ptr %p
; ALL-LABEL:   @inc(
; ALL-NEXT:    call void @__numaperf_load4(ptr %p)
; ALL-NEXT:    %v = load i32, ptr %p
; ALL:         call void @__numaperf_store4(ptr %p)
; ALL-NEXT:    store i32 %w, ptr %p
  %v = load i32, i32* %p
  %w = add i32 %v, 1
  call void @llvm.assume(i1 true)
  store i32 %w, i32* %p
  ret void
}

; A call in between may write *p or synchronise: both reported.
define void @call_between(i32* %p) {
; MERGE-LABEL: @call_between(
; MERGE-NEXT:  call void @__numaperf_load4(ptr %p)
; MERGE-NEXT:  %v = load i32, ptr %p
; MERGE-NEXT:  call void @callee()
; MERGE-NEXT:  call void @__numaperf_store4(ptr %p)
  %v = load i32, i32* %p
  call void @callee()
  store i32 %v, i32* %p
  ret void
}

; Different block, different pointer value (even if the same address) or a
; smaller store: both reported. Markers such as llvm.assume or llvm.dbg.*
; are not calls for this purpose (so -g does not change the hooks).
define void @not_merged(i32* %p, i32* %q, i1 %c) {
; MERGE-LABEL: @not_merged(
; MERGE:       call void @__numaperf_load4(ptr %p)
; MERGE-NEXT:  %a = load i32, ptr %p
; MERGE-NEXT:  call void @__numaperf_store4(ptr %q)
; MERGE-NEXT:  store i32 %a, ptr %q
; MERGE-NEXT:  call void @__numaperf_load4(ptr %p)
; MERGE-NEXT:  %c8 = load i32, ptr %p
; MERGE-NEXT:  %p8 = bitcast
; MERGE-NEXT:  call void @__numaperf_store1(ptr %p8)
; MERGE-NEXT:  store i8 0, ptr %p8
; MERGE-NEXT:  call void @__numaperf_load4(ptr %q)
; MERGE-NEXT:  %d = load i32, ptr %q
; MERGE-NEXT:  br label %next
; MERGE:       next:
; MERGE-NEXT:  call void @__numaperf_store4(ptr %q)
  %a = load i32, i32* %p
  store i32 %a, i32* %q
  %c8 = load i32, i32* %p
  %p8 = bitcast i32* %p to i8*
  store i8 0, i8* %p8
  %d = load i32, i32* %q
  br label %next
next:
  store i32 %d, i32* %q
  ret void
}

; A volatile load is merged like a plain one (a read-modify-write of a
; volatile counter reports one store); an atomic load is not: it
; synchronises.
define void @volatile_and_atomic(i64* %p, i64* %q) {
; MERGE-LABEL: @volatile_and_atomic(
; MERGE-NEXT:  %v = load volatile i64, ptr %p
; MERGE-NEXT:  %w = add i64 %v, 1
; MERGE-NEXT:  call void @__numaperf_store8(ptr %p)
; MERGE-NEXT:  store volatile i64 %w, ptr %p
; MERGE-NEXT:  call void @__numaperf_load8(ptr %q)
; MERGE-NEXT:  %a = load atomic i64, ptr %q acquire
; MERGE-NEXT:  call void @__numaperf_store8(ptr %q)
; MERGE-NEXT:  store i64 %a, ptr %q
; ALL-LABEL:   @volatile_and_atomic(
; ALL-NEXT:    call void @__numaperf_load8(ptr %p)
  %v = load volatile i64, i64* %p
  %w = add i64 %v, 1
  store volatile i64 %w, i64* %p
  %a = load atomic i64, i64* %q acquire, align 8
  store i64 %a, i64* %q
  ret void
}
