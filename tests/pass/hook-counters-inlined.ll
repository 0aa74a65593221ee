; Hooks of code the inliner copied into a function count for the function
; they come from (the filter's rule, docs/filters.md): @outer gets a second
; table row for the inlined @_Z5innerPi with its own counters, and the
; first entry records the thread in both.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -S %s | FileCheck %s

define void @outer(i32* %p, i32* %q) !dbg !4 {
  store i32 1, i32* %p, !dbg !10
  store i32 2, i32* %q, !dbg !11
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.cpp", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "outer", scope: !1, file: !1, line: 7, type: !5, scopeLine: 7, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = distinct !DISubprogram(name: "inner", linkageName: "_Z5innerPi", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 8, column: 3, scope: !4)
!11 = !DILocation(line: 4, column: 3, scope: !7, inlinedAt: !12)
!12 = distinct !DILocation(line: 9, column: 3, scope: !4)

; CHECK-DAG: [[INNER:@__numaperf.str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"_Z5innerPi\00"
; CHECK-DAG: @__numaperf.functions = private constant [2 x {{.*}}] [{{.*}} { ptr [[INNER]], ptr {{@__numaperf.str[.0-9]*}}, i32 3, i32 1, i32 0, i32 2, ptr [[CI:@__numaperf.counters[.0-9]*]] }, {{.*}} i32 7, i32 2, i32 0, i32 2, ptr [[CO:@__numaperf.counters[.0-9]*]] }]

; CHECK-LABEL: define void @outer(
; CHECK:         call void @__numaperf_function_first_entry(ptr [[CO]])
; CHECK-NEXT:    call void @__numaperf_function_first_entry(ptr [[CI]])
; CHECK:         call void @__numaperf_store4(ptr %p)
; CHECK:         call void @__numaperf_store4(ptr %q)
; CHECK:         [[OWN:%[0-9]+]] = load i64, ptr getelementptr inbounds ([3 x i64], ptr [[CO]], i32 0, i32 1)
; CHECK-NEXT:    [[OWN1:%[0-9]+]] = add i64 [[OWN]],
; CHECK-NEXT:    store i64 [[OWN1]], ptr getelementptr inbounds ([3 x i64], ptr [[CO]], i32 0, i32 1)
; CHECK-NEXT:    [[IN:%[0-9]+]] = load i64, ptr getelementptr inbounds ([3 x i64], ptr [[CI]], i32 0, i32 1)
; CHECK-NEXT:    [[IN1:%[0-9]+]] = add i64 [[IN]],
; CHECK-NEXT:    store i64 [[IN1]], ptr getelementptr inbounds ([3 x i64], ptr [[CI]], i32 0, i32 1)
; CHECK-NEXT:    ret void
