; A load of a loop-invariant address that stays in the loop (a store in the
; loop may alias it, so the optimiser could not hoist it) is reported once
; before the loop as a range of stride 0: `count` reads of that address.
; A load of an address the loop also stores to (a counter, a running
; maximum) keeps its hook, and so does the store.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

; for (i = 0; i < n; ++i) out[i] = in[i] * *coef;
define void @scale(float* %out, float* %in, float* %coef, i64 %n) {
; CHECK-LABEL: @scale(
; CHECK-DAG:     call void @__numaperf_load_range(ptr %coef, i64 0, i64 %{{.*}}, i64 4)
; CHECK-DAG:     call void @__numaperf_load_range(ptr %in, i64 4, i64 %{{.*}}, i64 4)
; CHECK-DAG:     call void @__numaperf_store_range(ptr %out, i64 4, i64 %{{.*}}, i64 4)
; CHECK:       loop:
; CHECK-NOT:     call void @__numaperf
; CHECK:         br i1
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %pi = getelementptr inbounds float, float* %in, i64 %i
  %x = load float, float* %pi
  %c = load float, float* %coef
  %y = fmul float %x, %c
  %po = getelementptr inbounds float, float* %out, i64 %i
  store float %y, float* %po
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; for (i = 0; i < n; ++i) if (a[i] > *max) *max = a[i];  (a[] may alias *max)
define void @running_max(i64* %max, i64* %a, i64 %n) {
; CHECK-LABEL: @running_max(
; CHECK-NOT:     call void @__numaperf_load_range(ptr %max
; CHECK:       loop:
; CHECK:         call void @__numaperf_load8(ptr %max)
; CHECK:       update:
; CHECK:         call void @__numaperf_store8(ptr %max)
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %latch ], [ 0, %entry ]
  %pa = getelementptr inbounds i64, i64* %a, i64 %i
  %x = load i64, i64* %pa
  %m = load i64, i64* %max
  %more = icmp sgt i64 %x, %m
  br i1 %more, label %update, label %latch
update:
  store i64 %x, i64* %max
  br label %latch
latch:
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The same loop taking a lock (a call that may synchronise) around the read:
; another thread may change *coef between iterations, so the read keeps its
; hook and its interleaving with the writer; the strided accesses are still
; ranges.
declare void @lock_and_unlock()
define void @scale_locked(float* %out, float* %coef, i64 %n) {
; CHECK-LABEL: @scale_locked(
; CHECK-NOT:     call void @__numaperf_load_range(ptr %coef
; CHECK:         call void @__numaperf_store_range(ptr %out, i64 4, i64 %{{.*}}, i64 4)
; CHECK:       loop:
; CHECK:         call void @__numaperf_load4(ptr %coef)
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  call void @lock_and_unlock()
  %c = load float, float* %coef
  %po = getelementptr inbounds float, float* %out, i64 %i
  store float %c, float* %po
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
