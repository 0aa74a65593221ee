; An unrolled or vectorised loop that makes k accesses of z bytes per
; iteration at offsets 0, z, .., (k-1)z with a stride of k*z reports one
; range of stride z and k times the count: the same elements, one hook
; instead of k. Only accesses of one kind, size and source line are joined;
; a tile with a hole stays as it is.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

; s += a[2i] + a[2i+1]: one range of 4-byte elements, 2n of them.
define i32 @pairs(i32* %a, i64 %n) {
; CHECK-LABEL: @pairs(
; CHECK:       loop.preheader:
; CHECK:         [[M:%.*]] = shl nuw nsw i64 [[L:%.*]], 1
; CHECK-NEXT:    [[C:%.*]] = add nuw nsw i64 [[M]], 2
; CHECK-NEXT:    call void @__numaperf_load_range(ptr %a, i64 4, i64 [[C]], i64 4)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     call void @__numaperf
; CHECK:       exit:
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %s = phi i32 [ %s2, %loop ], [ 0, %entry ]
  %j = shl nuw nsw i64 %i, 1
  %p0 = getelementptr inbounds i32, i32* %a, i64 %j
  %j1 = or i64 %j, 1
  %p1 = getelementptr inbounds i32, i32* %a, i64 %j1
  %v0 = load i32, i32* %p0
  %v1 = load i32, i32* %p1
  %t = add i32 %v0, %v1
  %s2 = add i32 %s, %t
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %s2, %loop ]
  ret i32 %r
}

; A vectorised body unrolled four times, the highest vector first in
; program order: one range of 16-byte elements from %b, 4n of them. The
; stores of the same vectors to %c are joined apart from the loads.
define void @vectors(<2 x double>* %b, <2 x double>* %c, i64 %n) {
; CHECK-LABEL: @vectors(
; CHECK:         call void @__numaperf_load_range(ptr %b, i64 16, i64 [[LC:%.*]], i64 16)
; CHECK-NEXT:    call void @__numaperf_store_range(ptr %c, i64 16, i64 [[LC]], i64 16)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     call void @__numaperf
; CHECK:       exit:
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %j = shl nuw nsw i64 %i, 2
  %j1 = or i64 %j, 1
  %j2 = or i64 %j, 2
  %j3 = or i64 %j, 3
  %q3 = getelementptr inbounds <2 x double>, <2 x double>* %b, i64 %j3
  %q0 = getelementptr inbounds <2 x double>, <2 x double>* %b, i64 %j
  %q1 = getelementptr inbounds <2 x double>, <2 x double>* %b, i64 %j1
  %q2 = getelementptr inbounds <2 x double>, <2 x double>* %b, i64 %j2
  %v3 = load <2 x double>, <2 x double>* %q3
  %v0 = load <2 x double>, <2 x double>* %q0
  %v1 = load <2 x double>, <2 x double>* %q1
  %v2 = load <2 x double>, <2 x double>* %q2
  %r0 = getelementptr inbounds <2 x double>, <2 x double>* %c, i64 %j
  %r1 = getelementptr inbounds <2 x double>, <2 x double>* %c, i64 %j1
  %r2 = getelementptr inbounds <2 x double>, <2 x double>* %c, i64 %j2
  %r3 = getelementptr inbounds <2 x double>, <2 x double>* %c, i64 %j3
  store <2 x double> %v0, <2 x double>* %r0
  store <2 x double> %v1, <2 x double>* %r1
  store <2 x double> %v2, <2 x double>* %r2
  store <2 x double> %v3, <2 x double>* %r3
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; a[3i] and a[3i+1]: two of three elements per stride, a hole between
; tiles. Two ranges of stride 12.
define i32 @hole(i32* %a, i64 %n) {
; CHECK-LABEL: @hole(
; CHECK:         call void @__numaperf_load_range(ptr %a, i64 12, i64 [[HC:%.*]], i64 4)
; CHECK-NEXT:    call void @__numaperf_load_range(ptr {{%.*}}, i64 12, i64 [[HC]], i64 4)
; CHECK-NEXT:    br label %loop
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %s = phi i32 [ %s2, %loop ], [ 0, %entry ]
  %j = mul nuw nsw i64 %i, 3
  %p0 = getelementptr inbounds i32, i32* %a, i64 %j
  %j1 = add nuw nsw i64 %j, 1
  %p1 = getelementptr inbounds i32, i32* %a, i64 %j1
  %v0 = load i32, i32* %p0
  %v1 = load i32, i32* %p1
  %t = add i32 %v0, %v1
  %s2 = add i32 %s, %t
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %s2, %loop ]
  ret i32 %r
}

; p[i].x on one source line, p[i].y on the next: a report names each line's
; own accesses, so they keep a range each.
define i32 @lines(i32* %a, i64 %n) !dbg !4 {
; CHECK-LABEL: @lines(
; CHECK:         call void @__numaperf_load_range(ptr %a, i64 8, i64 [[DC:%.*]], i64 4), !dbg [[X:![0-9]+]]
; CHECK-NEXT:    call void @__numaperf_load_range(ptr {{%.*}}, i64 8, i64 [[DC]], i64 4), !dbg [[Y:![0-9]+]]
; CHECK-NEXT:    br label %loop
entry:
  %guard = icmp sgt i64 %n, 0
  br i1 %guard, label %loop, label %exit
loop:
  %i = phi i64 [ %next, %loop ], [ 0, %entry ]
  %s = phi i32 [ %s2, %loop ], [ 0, %entry ]
  %j = shl nuw nsw i64 %i, 1
  %p0 = getelementptr inbounds i32, i32* %a, i64 %j
  %j1 = or i64 %j, 1
  %p1 = getelementptr inbounds i32, i32* %a, i64 %j1
  %v0 = load i32, i32* %p0, !dbg !10
  %v1 = load i32, i32* %p1, !dbg !11
  %t = add i32 %v0, %v1
  %s2 = add i32 %s, %t
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %s2, %loop ]
  ret i32 %r
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "tiles.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "lines", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!10 = !DILocation(line: 10, column: 3, scope: !4)
!11 = !DILocation(line: 11, column: 3, scope: !4)
