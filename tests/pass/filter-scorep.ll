; Score-P filter file: rules in file order, the last matching one decides,
; default include; a function in an excluded file is excluded whatever the
; region rules say; a rule's patterns may span lines; # comments.
; RUN: split-file %s %t
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/regions.filt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=REG
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/files.filt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=FILE

;--- regions.filt
# everything off, then two kernels back on
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE kernel_*
          main   # continues the INCLUDE
  EXCLUDE kernel_slow
SCOREP_REGION_NAMES_END

;--- files.filt
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */vendor/*
SCOREP_FILE_NAMES_END
SCOREP_REGION_NAMES_BEGIN
  INCLUDE vendor_hot
SCOREP_REGION_NAMES_END

;--- a.ll
define void @kernel_fast(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @kernel_slow(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @main(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @other(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @vendor_hot(i32* %p) !dbg !4 {
  store i32 1, i32* %p
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "vendor/v.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "vendor_hot", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}

; REG-LABEL: @kernel_fast(
; REG-NEXT:  call void @__numaperf_store4
; REG-LABEL: @kernel_slow(
; REG-NOT:   call void @__numaperf
; REG-LABEL: @main(
; REG-NEXT:  call void @__numaperf_store4
; REG-LABEL: @other(
; REG-NOT:   call void @__numaperf
; REG-LABEL: @vendor_hot(
; REG-NOT:   call void @__numaperf
; REG:       ret void

; FILE-LABEL: @kernel_slow(
; FILE-NEXT:  call void @__numaperf_store4
; FILE-LABEL: @other(
; FILE-NEXT:  call void @__numaperf_store4
; FILE-LABEL: @vendor_hot(
; FILE-NOT:   call void @__numaperf
; FILE:       ret void
