; C++ names: sanitizer fun: entries match the mangled name, the demangled
; name, or the demangled name without its parameter list; Score-P patterns
; match the demangled forms, and the mangled name only after MANGLED.
; RUN: split-file %s %t
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/san.txt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=SAN
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/demangled.filt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=DEM
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-filter=%t/mangled.filt -numaperf-twins=0 -numaperf-entry-counters=0 -passes=numaperf -numaperf-private-page-test=0 -S %t/a.ll | FileCheck %s --check-prefix=MANG

;--- san.txt
fun:_ZN2ns3getEPi
fun:ns::Table::*

;--- demangled.filt
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE ns::get
  EXCLUDE _ZN2ns3putEPi   # a mangled name without MANGLED matches nothing
SCOREP_REGION_NAMES_END

;--- mangled.filt
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE MANGLED _ZN2ns3putEPi
SCOREP_REGION_NAMES_END

;--- a.ll
; ns::get(int*)
define void @_ZN2ns3getEPi(i32* %p) {
  store i32 1, i32* %p
  ret void
}
; ns::put(int*)
define void @_ZN2ns3putEPi(i32* %p) {
  store i32 1, i32* %p
  ret void
}
; ns::Table::find(int*) const
define void @_ZNK2ns5Table4findEPi(i32* %p) {
  store i32 1, i32* %p
  ret void
}

; SAN-LABEL: @_ZN2ns3getEPi(
; SAN-NOT:   call void @__numaperf
; SAN-LABEL: @_ZN2ns3putEPi(
; SAN-NEXT:  call void @__numaperf_store4
; SAN-LABEL: @_ZNK2ns5Table4findEPi(
; SAN-NOT:   call void @__numaperf
; SAN:       ret void

; DEM-LABEL: @_ZN2ns3getEPi(
; DEM-NOT:   call void @__numaperf
; DEM-LABEL: @_ZN2ns3putEPi(
; DEM-NEXT:  call void @__numaperf_store4
; DEM-LABEL: @_ZNK2ns5Table4findEPi(
; DEM-NEXT:  call void @__numaperf_store4

; MANG-LABEL: @_ZN2ns3getEPi(
; MANG-NEXT:  call void @__numaperf_store4
; MANG-LABEL: @_ZN2ns3putEPi(
; MANG-NOT:   call void @__numaperf
; MANG-LABEL: @_ZNK2ns5Table4findEPi(
; MANG-NEXT:  call void @__numaperf_store4
