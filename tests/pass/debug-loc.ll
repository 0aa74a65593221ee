; Each hook call carries the debug location of the access it reports, or
; line 0 in the function's scope when the access has none (a call without a
; location in a function with debug info fails verification under LTO).
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -numaperf-private-page-test=0 -passes=numaperf,verify -S %s | FileCheck %s

define i32 @f(i32* %p, i32* %q) !dbg !4 {
; CHECK-LABEL: define i32 @f(
; CHECK:      call void @__numaperf_load4(ptr %p), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT: %a = load i32, ptr %p, align 4, !dbg [[LOC]]
; CHECK-NEXT: call void @__numaperf_store4(ptr %q), !dbg [[L0:![0-9]+]]
; CHECK-NEXT: store i32 %a, ptr %q, align 4{{$}}
  %a = load i32, i32* %p, !dbg !8
  store i32 %a, i32* %q
  ret i32 %a, !dbg !9
}

; No debug info at all: no location.
define void @nodebug(i32* %p) {
; CHECK-LABEL: define void @nodebug(
; CHECK-NEXT: call void @__numaperf_store4(ptr %p){{$}}
  store i32 0, i32* %p
  ret void
}

; CHECK-DAG: [[SP:![0-9]+]] = distinct !DISubprogram(name: "f"
; CHECK-DAG: [[LOC]] = !DILocation(line: 3, column: 7, scope: [[SP]])
; CHECK-DAG: [[L0]] = !DILocation(line: 0, scope: [[SP]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !7)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !{}
!8 = !DILocation(line: 3, column: 7, scope: !4)
!9 = !DILocation(line: 4, column: 3, scope: !4)
