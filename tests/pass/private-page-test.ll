; The inline private-page test (hook_abi.h, docs/hook-abi.md): each 1- to
; 8-byte hook call sits behind compares of the access's page with the pages
; of the two ways of the thread's numaperf_fast_page record, loaded once
; where the instrumented path starts; a match adds one to that way's load
; count (8 bytes into the way) or store count (16) instead of calling; ways
; are 24 bytes apart. Wider and variable-size accesses and range hooks keep
; a plain call. The hook counters still count every access (they are added
; before the split).
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf,verify -S %s | FileCheck %s
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-private-page-test=0 -passes=numaperf -S %s | FileCheck %s --check-prefix=OFF

; CHECK: @__numaperf_fast_page = external thread_local(initialexec) global ptr
; OFF-NOT: @__numaperf_fast_page

define i64 @rw(ptr %p, ptr %q) {
; CHECK-LABEL: define i64 @rw(
; CHECK: numaperf.on:
; CHECK: %numaperf.fast = load ptr, ptr @__numaperf_fast_page
; CHECK: [[A:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: [[PG:%.*]] = lshr i64 [[A]], 12
; CHECK-NEXT: [[CUR:%.*]] = load i64, ptr %numaperf.fast
; CHECK-NEXT: [[HIT:%.*]] = icmp eq i64 [[PG]], [[CUR]]
; CHECK-NEXT: br i1 [[HIT]], label %[[FAST:.*]], label %[[SLOW:.*]], !prof [[W:![0-9]+]]
; CHECK: [[FAST]]:
; CHECK-NEXT: [[SLOT:%.*]] = getelementptr i8, ptr %numaperf.fast, i64 8
; CHECK-NEXT: [[N:%.*]] = load i64, ptr [[SLOT]]
; CHECK-NEXT: [[N1:%.*]] = add i64 [[N]], 1
; CHECK-NEXT: store i64 [[N1]], ptr [[SLOT]]
; CHECK: [[SLOW]]:
; CHECK-NEXT: [[W1:%.*]] = getelementptr i8, ptr %numaperf.fast, i64 24
; CHECK-NEXT: [[CUR1:%.*]] = load i64, ptr [[W1]]
; CHECK-NEXT: [[HIT1:%.*]] = icmp eq i64 [[PG]], [[CUR1]]
; CHECK-NEXT: br i1 [[HIT1]], label %[[FAST1:.*]], label %[[SLOW1:.*]], !prof [[W]]
; CHECK: [[FAST1]]:
; CHECK-NEXT: [[SLOT1:%.*]] = getelementptr i8, ptr %numaperf.fast, i64 32
; CHECK-NEXT: [[M:%.*]] = load i64, ptr [[SLOT1]]
; CHECK-NEXT: [[M1:%.*]] = add i64 [[M]], 1
; CHECK-NEXT: store i64 [[M1]], ptr [[SLOT1]]
; CHECK: [[SLOW1]]:
; CHECK-NEXT: call void @__numaperf_load8(ptr %p)
; CHECK: load i64, ptr %p
; The store: counts[1] 16 bytes into each way (16, 40).
; CHECK: lshr i64 {{%.*}}, 12
; CHECK: getelementptr i8, ptr %numaperf.fast, i64 16
; CHECK: getelementptr i8, ptr %numaperf.fast, i64 40
; CHECK: call void @__numaperf_store4(ptr %q)
; CHECK: store i32 7, ptr %q
; OFF-LABEL: define i64 @rw(
; OFF-NOT: lshr
; OFF: call void @__numaperf_load8(ptr %p)
; OFF-NEXT: load i64, ptr %p
  %v = load i64, ptr %p
  store i32 7, ptr %q
  ret i64 %v
}

; A 16-byte access keeps its plain call.
define void @wide(ptr %p) {
; CHECK-LABEL: define void @wide(
; CHECK-NOT: lshr
; CHECK: call void @__numaperf_store16(ptr %p)
; CHECK-NEXT: store <4 x i32> zeroinitializer, ptr %p
  store <4 x i32> zeroinitializer, ptr %p
  ret void
}

; CHECK: [[W]] = !{!"branch_weights", i32 64, i32 1}
