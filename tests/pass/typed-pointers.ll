; With typed pointers (clang 14 default) the address is cast to i8*.
; REQUIRES: typed-pointers
; RUN: %opt-typed -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

@g = global i64 0

define i32 @f(i32* %p, i8* %d, i8* %s) {
; CHECK-LABEL: @f(
; CHECK:      [[C:%.*]] = bitcast i32* %p to i8*
; CHECK-NEXT: call void @__numaperf_load4(i8* [[C]])
; CHECK-NEXT: %v = load i32, i32* %p
; CHECK-NEXT: call void @__numaperf_store8(i8* bitcast (i64* @g to i8*))
; CHECK-NEXT: store i64 1, i64* @g
; CHECK-NEXT: call void @__numaperf_loadN(i8* %s, i64 8)
; CHECK-NEXT: call void @__numaperf_storeN(i8* %d, i64 8)
  %v = load i32, i32* %p
  store i64 1, i64* @g
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d, i8* %s, i64 8, i1 false)
  ret i32 %v
}

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)

; CHECK: @__numaperf.module_ctor()
; CHECK-NEXT: call void @__numaperf_register_module(i32 {{[0-9]+}}, i8* bitcast ([1 x { i8*, i64, i8*, i8*, i32, i32 }]* @__numaperf.globals to i8*), i64 1)
