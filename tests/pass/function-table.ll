; The module constructor registers, after the ABI check, one
; numaperf_function_desc per function that got hooks or lost some to the
; filter: name, file, line, static hook count, filtered accesses, flags
; (1 = its own code is filtered, 2 = hook counts follow the entry counter)
; and its counters (null without hooks).
; RUN: split-file %s %t
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/drop.txt -passes=numaperf -S %t/a.ll | FileCheck %s

;--- drop.txt
fun:dropped
;--- a.ll
define void @two(i32* %p, i32* %q) !dbg !4 {
  store i32 1, i32* %p
  store i32 2, i32* %q
  ret void
}
define void @dropped(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @nothing() {
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "two", scope: !1, file: !1, line: 7, type: !5, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}

; CHECK-DAG: @__numaperf.counters = internal global [3 x i64] zeroinitializer, align 64
; CHECK-DAG: [[TWO:@__numaperf.str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"two\00"
; CHECK-DAG: [[FILE:@__numaperf.str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"/src/t.c\00"
; CHECK-DAG: [[DROPPED:@__numaperf.str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"dropped\00"
; CHECK-DAG: @__numaperf.functions = private constant [2 x { ptr, ptr, i32, i32, i32, i32, ptr }] [{ ptr, ptr, i32, i32, i32, i32, ptr } { ptr [[TWO]], ptr [[FILE]], i32 7, i32 2, i32 0, i32 2, ptr @__numaperf.counters }, { ptr, ptr, i32, i32, i32, i32, ptr } { ptr [[DROPPED]], ptr {{@__numaperf.str[.0-9]*}}, i32 0, i32 0, i32 1, i32 1, ptr null }]

; CHECK-LABEL: define internal void @__numaperf.module_ctor()
; CHECK-NEXT:  call void @__numaperf_register_module(i32 {{[0-9]+}},
; CHECK-NEXT:  call void @__numaperf_register_functions(ptr @__numaperf.functions, i64 2)
; CHECK-NEXT:  ret void
; CHECK-LABEL: define internal void @__numaperf.module_dtor()
; CHECK-NEXT:  call void @__numaperf_unregister_module(
; CHECK-NEXT:  call void @__numaperf_unregister_functions(ptr @__numaperf.functions, i64 2)
