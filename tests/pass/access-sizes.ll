; Loads and stores through a pointer argument (heap or any shared memory)
; get the fixed-size hook matching the store size of the accessed type, or
; the N variant with the size in bytes.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

; Stores go to other pointers (q*) so that no load is merged into a store.
define void @sizes(i8* %p1, i16* %p2, i32* %p4, i64* %p8, i128* %p16,
                   i8* %q1, i16* %q2, i32* %q4, i64* %q8, i128* %q16) {
; CHECK-LABEL: @sizes(
; CHECK:      call void @__numaperf_load1(ptr %p1)
; CHECK-NEXT: %v1 = load i8, ptr %p1
; CHECK-NEXT: call void @__numaperf_store1(ptr %q1)
; CHECK-NEXT: store i8
; CHECK-NEXT: call void @__numaperf_load2(ptr %p2)
; CHECK-NEXT: %v2 = load i16, ptr %p2
; CHECK-NEXT: call void @__numaperf_store2(ptr %q2)
; CHECK-NEXT: store i16
; CHECK-NEXT: call void @__numaperf_load4(ptr %p4)
; CHECK-NEXT: %v4 = load i32, ptr %p4
; CHECK-NEXT: call void @__numaperf_store4(ptr %q4)
; CHECK-NEXT: store i32
; CHECK-NEXT: call void @__numaperf_load8(ptr %p8)
; CHECK-NEXT: %v8 = load i64, ptr %p8
; CHECK-NEXT: call void @__numaperf_store8(ptr %q8)
; CHECK-NEXT: store i64
; CHECK-NEXT: call void @__numaperf_load16(ptr %p16)
; CHECK-NEXT: %v16 = load i128, ptr %p16
; CHECK-NEXT: call void @__numaperf_store16(ptr %q16)
; CHECK-NEXT: store i128
; CHECK:      ret void
  %v1 = load i8, i8* %p1
  store i8 1, i8* %q1
  %v2 = load i16, i16* %p2
  store i16 1, i16* %q2
  %v4 = load i32, i32* %p4
  store i32 1, i32* %q4
  %v8 = load i64, i64* %p8
  store i64 1, i64* %q8
  %v16 = load i128, i128* %p16
  store i128 1, i128* %q16
  ret void
}

; Pointers and floating point use their store size too; i1 is one byte.
define void @other_scalars(double* %d, float* %f, i8** %pp, i1* %b) {
; CHECK-LABEL: @other_scalars(
; CHECK:      call void @__numaperf_load8(ptr %d)
; CHECK-NEXT: load double
; CHECK:      call void @__numaperf_store4(ptr %f)
; CHECK-NEXT: store float
; CHECK:      call void @__numaperf_load8(ptr %pp)
; CHECK-NEXT: load ptr
; CHECK:      call void @__numaperf_load1(ptr %b)
; CHECK-NEXT: load i1
  %x = load double, double* %d
  store float 1.0, float* %f
  %q = load i8*, i8** %pp
  %y = load i1, i1* %b
  ret void
}

; Sizes without a dedicated hook go through loadN/storeN.
%struct.three = type { i32, i32, i32 }

define void @odd_sizes(<3 x float>* %v, <3 x float>* %v2, %struct.three* %s, i24* %i, <8 x i32>* %w) {
; CHECK-LABEL: @odd_sizes(
; CHECK:      call void @__numaperf_loadN(ptr %v, i64 12)
; CHECK-NEXT: load <3 x float>
; CHECK:      call void @__numaperf_storeN(ptr %v2, i64 12)
; CHECK-NEXT: store <3 x float>
; CHECK:      call void @__numaperf_loadN(ptr %s, i64 12)
; CHECK-NEXT: load %struct.three
; CHECK:      call void @__numaperf_storeN(ptr %i, i64 3)
; CHECK-NEXT: store i24
; CHECK:      call void @__numaperf_loadN(ptr %w, i64 32)
; CHECK-NEXT: load <8 x i32>
; <4 x i32> is 16 bytes: the fixed hook.
; CHECK:      call void @__numaperf_load16(
; CHECK-NEXT: load <4 x i32>
  %a = load <3 x float>, <3 x float>* %v
  store <3 x float> %a, <3 x float>* %v2
  %b = load %struct.three, %struct.three* %s
  store i24 7, i24* %i
  %c = load <8 x i32>, <8 x i32>* %w
  %w4 = bitcast <8 x i32>* %w to <4 x i32>*
  %d = load <4 x i32>, <4 x i32>* %w4
  ret void
}

; Scalable vectors have no compile-time size: not reported.
define void @scalable(<vscale x 4 x i32>* %p) {
; CHECK-LABEL: @scalable(
; CHECK-NOT:  call void @__numaperf
; CHECK:      load <vscale x 4 x i32>
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret void
  %v = load <vscale x 4 x i32>, <vscale x 4 x i32>* %p
  store <vscale x 4 x i32> %v, <vscale x 4 x i32>* %p
  ret void
}
