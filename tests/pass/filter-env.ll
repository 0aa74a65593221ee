; NUMAPERF_FILTER names the filter file when -numaperf-filter is not given
; (build systems; the wrappers' --numaperf-filter sets it); the option wins.
; RUN: split-file %s %t
; RUN: env NUMAPERF_FILTER=%t/drop-f.txt %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=ENV
; RUN: env NUMAPERF_FILTER=%t/drop-f.txt %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/drop-g.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=OPT

;--- drop-f.txt
fun:f
;--- drop-g.txt
fun:g
;--- a.ll
define void @f(i32* %p) {
  store i32 1, i32* %p
  ret void
}
define void @g(i32* %p) {
  store i32 1, i32* %p
  ret void
}

; ENV-LABEL: @f(
; ENV-NOT:   call void @__numaperf
; ENV-LABEL: @g(
; ENV-NEXT:  call void @__numaperf_store4

; OPT-LABEL: @f(
; OPT-NEXT:  call void @__numaperf_store4
; OPT-LABEL: @g(
; OPT-NOT:   call void @__numaperf
; OPT:       ret void
