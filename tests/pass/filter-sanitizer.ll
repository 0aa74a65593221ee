; Sanitizer-style filter: fun: and src: entries with wildcards; entries
; before any section (or under [ignore]) drop functions; when an [allow]
; section has entries only the functions matching one are kept; ignore wins
; over allow.
; RUN: split-file %s %t
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/ignore.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=IGN
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/allow.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=ALLOW
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/src.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=SRC

;--- ignore.txt
# drop the helpers
fun:helper_*
[ignore]
fun:sk?p

;--- allow.txt
[allow]
fun:kernel
fun:helper_*
[ignore]
fun:helper_b

;--- src.txt
src:*/lib/vendor.c

;--- a.ll
source_filename = "main.c"

define void @kernel(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @helper_a(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @helper_b(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @skip(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @vendor(i32* %p) !dbg !4 {
  store i32 1, i32* %p
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "lib/vendor.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "vendor", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}

; IGN-LABEL: @kernel(
; IGN-NEXT:  call void @__numaperf_store4
; IGN-LABEL: @helper_a(
; IGN-NOT:   call void @__numaperf
; IGN-LABEL: @helper_b(
; IGN-NOT:   call void @__numaperf
; IGN-LABEL: @skip(
; IGN-NOT:   call void @__numaperf
; IGN-LABEL: @vendor(
; IGN-NEXT:  call void @__numaperf_store4

; ALLOW-LABEL: @kernel(
; ALLOW-NEXT:  call void @__numaperf_store4
; ALLOW-LABEL: @helper_a(
; ALLOW-NEXT:  call void @__numaperf_store4
; ALLOW-LABEL: @helper_b(
; ALLOW-NOT:   call void @__numaperf
; ALLOW-LABEL: @skip(
; ALLOW-NOT:   call void @__numaperf
; ALLOW-LABEL: @vendor(
; ALLOW-NOT:   call void @__numaperf
; ALLOW:       ret void

; SRC-LABEL: @kernel(
; SRC-NEXT:  call void @__numaperf_store4
; SRC-LABEL: @skip(
; SRC-NEXT:  call void @__numaperf_store4
; SRC-LABEL: @vendor(
; SRC-NOT:   call void @__numaperf
; SRC:       ret void
