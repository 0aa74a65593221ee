; atomicrmw and cmpxchg are reported as stores of the value size; atomic
; and volatile loads/stores are reported like plain ones (a volatile load
; followed by a store to the same address is merged: merge-load-store.ll).
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

define void @rmw(i32* %p, i64* %q, i8* %b) {
; CHECK-LABEL: @rmw(
; CHECK:      call void @__numaperf_store4(ptr %p)
; CHECK-NEXT: atomicrmw add ptr %p, i32 1 seq_cst
; CHECK-NEXT: call void @__numaperf_store8(ptr %q)
; CHECK-NEXT: atomicrmw xchg ptr %q, i64 2 acquire
; CHECK-NEXT: call void @__numaperf_store1(ptr %b)
; CHECK-NEXT: atomicrmw or ptr %b, i8 4 monotonic
  %1 = atomicrmw add i32* %p, i32 1 seq_cst
  %2 = atomicrmw xchg i64* %q, i64 2 acquire
  %3 = atomicrmw or i8* %b, i8 4 monotonic
  ret void
}

define void @cas(i64* %q, i16* %h) {
; CHECK-LABEL: @cas(
; CHECK:      call void @__numaperf_store8(ptr %q)
; CHECK-NEXT: cmpxchg ptr %q, i64 0, i64 1 seq_cst seq_cst
; CHECK-NEXT: call void @__numaperf_store2(ptr %h)
; CHECK-NEXT: cmpxchg weak ptr %h
  %1 = cmpxchg i64* %q, i64 0, i64 1 seq_cst seq_cst
  %2 = cmpxchg weak i16* %h, i16 0, i16 1 acq_rel monotonic
  ret void
}

define i32 @atomic_and_volatile(i32* %p, i32* %q) {
; CHECK-LABEL: @atomic_and_volatile(
; CHECK:      call void @__numaperf_load4(ptr %p)
; CHECK-NEXT: load atomic i32, ptr %p acquire
; CHECK-NEXT: call void @__numaperf_store4(ptr %p)
; CHECK-NEXT: store atomic i32
; CHECK-NEXT: call void @__numaperf_load4(ptr %q)
; CHECK-NEXT: load volatile i32, ptr %q
; CHECK-NEXT: call void @__numaperf_store4(ptr %p)
; CHECK-NEXT: store volatile i32
  %a = load atomic i32, i32* %p acquire, align 4
  store atomic i32 %a, i32* %p release, align 4
  %b = load volatile i32, i32* %q
  store volatile i32 %b, i32* %p
  ret i32 %b
}
