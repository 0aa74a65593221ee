; The pass runs after inlining. An access is instrumented when the function
; its code was written in is kept: for code inlined from g into f that is g
; (the innermost subprogram of the access's debug location), otherwise the
; function itself. Without a debug location the containing function decides.
; RUN: split-file %s %t
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/drop-callee.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=CALLEE
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/drop-caller.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=CALLER

;--- drop-callee.txt
fun:_ZN3ops5touchEPi
;--- drop-caller.txt
fun:caller
;--- a.ll
define void @caller(i32* %p, i32* %q, i32* %r) !dbg !4 {
  store i32 1, i32* %p, !dbg !10
  store i32 2, i32* %q, !dbg !11
  store i32 3, i32* %r
  ret void, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "test", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.cpp", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = distinct !DISubprogram(name: "touch", linkageName: "_ZN3ops5touchEPi", scope: !1, file: !1, line: 9, type: !5, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!10 = !DILocation(line: 2, column: 3, scope: !4)
!11 = !DILocation(line: 10, column: 5, scope: !7, inlinedAt: !12)
!12 = !DILocation(line: 3, column: 3, scope: !4)

; CALLEE-LABEL: @caller(
; CALLEE-NEXT:  call void @__numaperf_store4(ptr %p)
; CALLEE-NEXT:  store i32 1, ptr %p
; CALLEE-NEXT:  store i32 2, ptr %q
; CALLEE-NEXT:  call void @__numaperf_store4(ptr %r)

; CALLER-LABEL: @caller(
; CALLER-NEXT:  store i32 1, ptr %p
; CALLER-NEXT:  call void @__numaperf_store4(ptr %q)
; CALLER-NEXT:  store i32 2, ptr %q
; CALLER-NEXT:  store i32 3, ptr %r
