; A load of a loop-invariant address in a loop whose trip count is not known
; before it runs is counted: a counter bumped where the load runs, reported
; at every exit of the loop as a range of stride 0 (`count` reads of that
; address). Only in loops that cannot acquire from another thread: a call
; that may read memory and synchronise, an atomic or a volatile access keeps
; the load's own hook.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -numaperf-twins=0 -S %s | FileCheck %s

%struct.work = type { i64, i64 }

declare double @exp(double) #0
declare void @unknown()

; for (i = 0; i < w->count; ++i) out[i] = exp(in[i]);
; exp writes errno, so w->count is reloaded every iteration.
define void @bound_reloaded(%struct.work* %w, double* %out, double* %in) {
; CHECK-LABEL: @bound_reloaded(
; CHECK:       loop:
; CHECK:         [[N:%numaperf.reads[0-9.]*]] = phi i64 [ 0, %{{.*}} ], [ [[NEXT:%[0-9]+]], %loop ]
; CHECK-NOT:     call void @__numaperf_load8(ptr %pc)
; CHECK:         [[NEXT]] = add i64 [[N]], 1
; CHECK-NOT:     call void @__numaperf_load8(ptr %pc)
; CHECK:       exit:
; CHECK-NEXT:    call void @__numaperf_load_range(ptr %w, i64 0, i64 [[NEXT]], i64 8)
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pi = getelementptr inbounds double, double* %in, i64 %i
  %x = load double, double* %pi
  %y = call double @exp(double %x)
  %po = getelementptr inbounds double, double* %out, i64 %i
  store double %y, double* %po
  %i.next = add nuw nsw i64 %i, 1
  %pc = getelementptr inbounds %struct.work, %struct.work* %w, i64 0, i32 0
  %count = load i64, i64* %pc
  %more = icmp slt i64 %i.next, %count
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; The same loop calling a function that may take a lock: the load keeps its
; hook in the loop.
define void @may_synchronise(%struct.work* %w) {
; CHECK-LABEL: @may_synchronise(
; CHECK-NOT:     @__numaperf_load_range
; CHECK:       loop:
; CHECK:         call void @__numaperf_load8(ptr %pc)
; CHECK-NOT:     @__numaperf_load_range
; CHECK:         ret void
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @unknown()
  %i.next = add nuw nsw i64 %i, 1
  %pc = getelementptr inbounds %struct.work, %struct.work* %w, i64 0, i32 0
  %count = load i64, i64* %pc
  %more = icmp slt i64 %i.next, %count
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; An atomic load in the loop (a flag another thread sets) is an acquire:
; the plain load next to it keeps its hook too.
define void @with_atomic(%struct.work* %w, i64* %flag) {
; CHECK-LABEL: @with_atomic(
; CHECK-NOT:     @__numaperf_load_range
; CHECK:       loop:
; CHECK:         call void @__numaperf_load8(ptr %pc)
; CHECK-NOT:     @__numaperf_load_range
; CHECK:         ret void
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %f = load atomic i64, i64* %flag acquire, align 8
  %i.next = add nuw nsw i64 %i, %f
  %pc = getelementptr inbounds %struct.work, %struct.work* %w, i64 0, i32 0
  %count = load i64, i64* %pc
  %more = icmp slt i64 %i.next, %count
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; Two ways out (a search that stops at a match) and a load that runs only on
; some iterations: every exit reports what was counted up to there.
define i64 @two_exits(%struct.work* %w, i64* %a) {
; CHECK-LABEL: @two_exits(
; CHECK-NOT:     call void @__numaperf_load8(ptr %limit)
; CHECK:       found:
; CHECK:         call void @__numaperf_load_range(ptr %limit, i64 0, i64 %{{.*}}, i64 8)
; CHECK:       done:
; CHECK:         call void @__numaperf_load_range(ptr %limit, i64 0, i64 %{{.*}}, i64 8)
entry:
  %limit = getelementptr inbounds %struct.work, %struct.work* %w, i64 0, i32 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %pa = getelementptr inbounds i64, i64* %a, i64 %i
  %x = load i64, i64* %pa
  %odd = and i64 %x, 1
  %check = icmp ne i64 %odd, 0
  br i1 %check, label %test, label %latch
test:
  %l = load i64, i64* %limit
  %hit = icmp eq i64 %x, %l
  br i1 %hit, label %found, label %latch
latch:
  %i.next = add nuw nsw i64 %i, 1
  %c = load i64, i64* %a
  %more = icmp slt i64 %i.next, %c
  br i1 %more, label %loop, label %done
found:
  ret i64 %i
done:
  ret i64 -1
}

attributes #0 = { nounwind willreturn writeonly }
