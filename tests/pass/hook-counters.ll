; Per-function hook counts (docs/filters.md): a local counter, promoted to a
; register, grows by 1 per hook call and by the element count per range
; hook (its count operand), and is added to the function's second counter word at each return
; and before a call that does not return; the first entry calls
; __numaperf_function_first_entry. The uninstrumented path (twin dispatch)
; neither counts nor flushes.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

declare void @exit(i32) noreturn

define void @loop(i32* %p, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %q = getelementptr i32, i32* %p, i64 %i
  %v = load volatile i32, i32* %q
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %out, label %body
out:
  ret void
}

define i32 @sum(i32* %p, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %q = getelementptr i32, i32* %p, i64 %i
  %v = load i32, i32* %q
  %s1 = add i32 %s, %v
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %out, label %body
out:
  ret i32 %s1
}

define void @leaves(i32* %p) {
  store i32 1, i32* %p
  call void @exit(i32 0)
  unreachable
}

; CHECK: @__numaperf.counters{{[.0-9]*}} = internal global [3 x i64] zeroinitializer, align 64

; CHECK-LABEL: define void @loop(
; CHECK:       numaperf.off:
; CHECK-NEXT:    musttail call void @loop.numaperf.off(
; CHECK-NEXT:    ret void
; CHECK:       numaperf.on:
; CHECK-NEXT:    [[E:%[0-9]+]] = load i64, ptr {{.*}}[[C:@__numaperf.counters[.0-9]*]]
; CHECK-NEXT:    [[E1:%[0-9]+]] = add i64 [[E]], 1
; CHECK-NEXT:    store i64 [[E1]], ptr {{.*}}[[C]]
; CHECK-NEXT:    [[FIRST:%[0-9]+]] = icmp eq i64 [[E]], 0
; CHECK-NEXT:    br i1 [[FIRST]], label %[[THEN:[0-9]+]], label %[[TAIL:[0-9]+]], !prof
; CHECK:       [[THEN]]:
; CHECK-NEXT:    call void @__numaperf_function_first_entry(ptr [[C]])
; CHECK:       body:
; CHECK-NEXT:    [[H:%[a-z0-9.]+]] = phi i64 [ 0, %[[TAIL]] ], [ [[H1:%[0-9]+]], %body ]
; CHECK:         call void @__numaperf_load4(
; CHECK:         [[H1]] = add i64 [[H]], 1
; CHECK-NEXT:    br i1
; CHECK:       out:
; CHECK-NEXT:    [[OLD:%[0-9]+]] = load i64, ptr getelementptr inbounds ([3 x i64], ptr [[C]], i32 0, i32 1)
; CHECK-NEXT:    [[NEW:%[0-9]+]] = add i64 [[OLD]], [[H1]]
; CHECK-NEXT:    store i64 [[NEW]], ptr getelementptr inbounds ([3 x i64], ptr [[C]], i32 0, i32 1)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define i32 @sum(
; CHECK:         call void @__numaperf_load_range(ptr %p, i64 4, i64 [[N:%[0-9]+]], i64 4)
; CHECK-NEXT:    [[R:%[0-9]+]] = add i64 0, [[N]]
; CHECK:       out:
; CHECK-NEXT:    [[O:%[0-9]+]] = load i64, ptr getelementptr inbounds ([3 x i64], ptr [[C3:@__numaperf.counters[.0-9]*]], i32 0, i32 1)
; CHECK-NEXT:    [[O1:%[0-9]+]] = add i64 [[O]], [[R]]
; CHECK-NEXT:    store i64 [[O1]], ptr getelementptr inbounds ([3 x i64], ptr [[C3]], i32 0, i32 1)
; CHECK-NEXT:    ret i32

; The block's count is added before the call that does not return.
; CHECK-LABEL: define void @leaves(
; CHECK:         call void @__numaperf_store4(
; CHECK-NEXT:    store i32 1
; CHECK-NEXT:    [[L0:%[0-9]+]] = add i64 0, 1
; CHECK-NEXT:    [[L:%[0-9]+]] = load i64, ptr getelementptr inbounds ([3 x i64], ptr [[C2:@__numaperf.counters[.0-9]*]], i32 0, i32 1)
; CHECK-NEXT:    [[L1:%[0-9]+]] = add i64 [[L]], [[L0]]
; CHECK-NEXT:    store i64 [[L1]], ptr getelementptr inbounds ([3 x i64], ptr [[C2]], i32 0, i32 1)
; CHECK-NEXT:    call void @exit(i32 0)
