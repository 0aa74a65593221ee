; Hook declarations are nonlazybind, so code calls a hook through its GOT
; entry (bound when the program loads) rather than through a PLT stub: one
; indirect jump less per hook call.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s
; REQUIRES: llc
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 %s -o - \
; RUN:   | %llc -mtriple=x86_64-unknown-linux-gnu -relocation-model=pic -o - | FileCheck %s --check-prefix=ASM

define i64 @get(i64* %p) {
; ASM-LABEL: get:
; ASM: callq *__numaperf_load8@GOTPCREL(%rip)
; ASM-NOT: __numaperf_load8@PLT
  %v = load i64, i64* %p
  ret i64 %v
}

; CHECK: declare void @__numaperf_load8(ptr) #[[ATTRS:[0-9]+]]
; CHECK: attributes #[[ATTRS]] = { {{.*}}nonlazybind
