; Masked vector loads/stores are reported as one loadN/storeN over the whole
; vector span (masked-off lanes included). Gathers/scatters are not reported.
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf -S %s | FileCheck %s

declare <8 x i32> @llvm.masked.load.v8i32.p0v8i32(<8 x i32>*, i32, <8 x i1>, <8 x i32>)
declare void @llvm.masked.store.v4f64.p0v4f64(<4 x double>, <4 x double>*, i32, <4 x i1>)
declare <4 x i32> @llvm.masked.gather.v4i32.v4p0i32(<4 x i32*>, i32, <4 x i1>, <4 x i32>)

define <8 x i32> @mload(<8 x i32>* %p, <8 x i1> %m) {
; CHECK-LABEL: @mload(
; CHECK:      call void @__numaperf_loadN(ptr %p, i64 32)
; CHECK-NEXT: call <8 x i32> @llvm.masked.load
  %v = call <8 x i32> @llvm.masked.load.v8i32.p0v8i32(<8 x i32>* %p, i32 4, <8 x i1> %m, <8 x i32> zeroinitializer)
  ret <8 x i32> %v
}

define void @mstore(<4 x double>* %p, <4 x double> %v, <4 x i1> %m) {
; CHECK-LABEL: @mstore(
; CHECK:      call void @__numaperf_storeN(ptr %p, i64 32)
; CHECK-NEXT: call void @llvm.masked.store
  call void @llvm.masked.store.v4f64.p0v4f64(<4 x double> %v, <4 x double>* %p, i32 8, <4 x i1> %m)
  ret void
}

define <4 x i32> @gather(<4 x i32*> %ps, <4 x i1> %m) {
; CHECK-LABEL: @gather(
; CHECK-NOT:  call void @__numaperf
; CHECK:      ret
  %v = call <4 x i32> @llvm.masked.gather.v4i32.v4p0i32(<4 x i32*> %ps, i32 4, <4 x i1> %m, <4 x i32> undef)
  ret <4 x i32> %v
}
