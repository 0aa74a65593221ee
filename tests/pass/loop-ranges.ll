; A strided access made on every iteration of a counted loop is reported
; once, before the loop, by a range hook (start, stride, count, size); a
; loop without a preheader gets one. Loops whose trip count is not known on
; entry (an early exit), stores to a loop-invariant address (stride 0),
; atomics and volatiles keep one hook per access (loads of a loop-invariant
; address: loop-range-invariant-load.ll). -numaperf-loop-ranges=0 turns it off.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -numaperf-loop-ranges=0 -S %s | FileCheck %s --check-prefix=OFF

; for (i = 0; i < n; ++i) a[i] = 1.0;  (the guard branches into the header)
define void @fill(double* %a, i64 %n) {
; CHECK-LABEL: @fill(
; CHECK:       .preheader:
; CHECK:         call void @__numaperf_store_range(ptr %a, i64 8, i64 %{{.*}}, i64 8)
; CHECK:         br label %loop
; CHECK:       loop:
; CHECK-NOT:     call void @__numaperf
; CHECK:         store double
; OFF-LABEL:   @fill(
; OFF-NOT:       __numaperf_store_range
; OFF:           call void @__numaperf_store8(ptr %p)
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %p = getelementptr inbounds double, double* %a, i64 %i
  store double 1.0, double* %p
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Reads every fourth float, walking down: a negative stride.
define float @down(float* %a, i64 %n) {
; CHECK-LABEL: @down(
; CHECK:       pre:
; CHECK:         call void @__numaperf_load_range(ptr %{{.*}}, i64 -16, i64 %{{.*}}, i64 4)
; CHECK:       loop:
; CHECK-NOT:     call void @__numaperf
; CHECK:         load float
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %pre, label %exit
pre:
  %last = mul i64 %n, 4
  br label %loop
loop:
  %i = phi i64 [ %next, %loop ], [ %last, %pre ]
  %s = phi float [ %s2, %loop ], [ 0.0, %pre ]
  %p = getelementptr inbounds float, float* %a, i64 %i
  %v = load float, float* %p
  %s2 = fadd float %s, %v
  %next = sub nsw i64 %i, 4
  %done = icmp sle i64 %next, 0
  br i1 %done, label %exit, label %loop
exit:
  %r = phi float [ 0.0, %entry ], [ %s2, %loop ]
  ret float %r
}

; Leaves on the first negative element: the count is not known on entry.
define double @until(double* %a, i64 %n) {
; CHECK-LABEL: @until(
; CHECK-NOT:     __numaperf_load_range
; CHECK:         call void @__numaperf_load8(
; CHECK-NEXT:    load double
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %latch ], [ 0, %entry ]
  %p = getelementptr inbounds double, double* %a, i64 %i
  %v = load double, double* %p
  %neg = fcmp olt double %v, 0.0
  br i1 %neg, label %exit, label %latch
latch:
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double 0.0
}

; The same counter on every iteration (stride 0), and an atomic and a
; volatile strided access: their order against other threads matters.
define void @keep(i64* %c, i64* %a, i64 %n) {
; CHECK-LABEL: @keep(
; CHECK-NOT:     _range
; CHECK:       loop:
; CHECK:         call void @__numaperf_store8(ptr %c)
; CHECK:         call void @__numaperf_store8(ptr %pa)
; CHECK:         atomicrmw add
; CHECK:         call void @__numaperf_store8(ptr %pv)
; CHECK:         store volatile
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  store i64 %i, i64* %c
  %pa = getelementptr inbounds i64, i64* %a, i64 %i
  %old = atomicrmw add i64* %pa, i64 1 seq_cst
  %pv = getelementptr inbounds i64, i64* %a, i64 %i
  store volatile i64 %i, i64* %pv
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
