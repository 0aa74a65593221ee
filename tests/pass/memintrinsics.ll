; memcpy/memmove: loadN(src, len) then storeN(dst, len); memset: storeN.
; The intrinsic itself is kept. Non-escaping locals are still skipped.
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf -S %s | FileCheck %s

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @llvm.memmove.p0i8.p0i8.i32(i8*, i8*, i32, i1)
declare void @llvm.memset.p0i8.i64(i8*, i8, i64, i1)

define void @copy(i8* %d, i8* %s, i64 %n) {
; CHECK-LABEL: @copy(
; CHECK:      call void @__numaperf_loadN(ptr %s, i64 %n)
; CHECK-NEXT: call void @__numaperf_storeN(ptr %d, i64 %n)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d, i8* %s, i64 %n, i1 false)
  ret void
}

; A 32-bit length is widened for the hook.
define void @move(i8* %d, i8* %s, i32 %n) {
; CHECK-LABEL: @move(
; CHECK:      [[LEN:%.*]] = zext i32 %n to i64
; CHECK-NEXT: call void @__numaperf_loadN(ptr %s, i64 [[LEN]])
; CHECK-NEXT: [[LEN2:%.*]] = zext i32 %n to i64
; CHECK-NEXT: call void @__numaperf_storeN(ptr %d, i64 [[LEN2]])
; CHECK-NEXT: call void @llvm.memmove.p0.p0.i32(ptr %d, ptr %s, i32 %n, i1 false)
  call void @llvm.memmove.p0i8.p0i8.i32(i8* %d, i8* %s, i32 %n, i1 false)
  ret void
}

define void @set(i8* %d) {
; CHECK-LABEL: @set(
; CHECK:      call void @__numaperf_storeN(ptr %d, i64 64)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 64, i1 false)
  call void @llvm.memset.p0i8.i64(i8* %d, i8 0, i64 64, i1 false)
  ret void
}

; Copying out of a private local reads nothing shared: only the store hook.
define void @copy_from_local(i8* %d) {
; CHECK-LABEL: @copy_from_local(
; CHECK-NOT:  @__numaperf_loadN
; CHECK:      call void @__numaperf_storeN(ptr %d, i64 16)
; CHECK-NEXT: call void @llvm.memcpy
; CHECK-NOT:  @__numaperf_loadN
; CHECK:      ret void
  %buf = alloca [16 x i8]
  %b = getelementptr inbounds [16 x i8], [16 x i8]* %buf, i64 0, i64 0
  call void @llvm.memset.p0i8.i64(i8* %b, i8 1, i64 16, i1 false)
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %d, i8* %b, i64 16, i1 false)
  ret void
}
