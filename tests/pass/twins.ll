; Run-time switching: every function with hooks keeps an uninstrumented
; twin, chosen at entry (after the static allocas) from the runtime's flag;
; off tail-calls the twin with the same arguments and ABI attributes.
; Functions without hooks get neither twin nor check; variadic functions
; cannot be forwarded and stay instrumented.
; RUN: %opt -load-pass-plugin=%plugin -passes=numaperf,verify -S %s | FileCheck %s
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -numaperf-twins=0 -passes=numaperf -S %s | FileCheck %s --check-prefix=NOTWIN

@g = global i32 0

define i32 @get(i32* %p, i64 signext %n) !dbg !4 {
  %slot = alloca i32*
  store i32* %p, i32** %slot
  call void @escape(i32** %slot)
  %v = load i32, i32* %p, !dbg !8
  ret i32 %v, !dbg !8
}
; CHECK-LABEL: define i32 @get(
; CHECK-NEXT:    %slot = alloca ptr
; CHECK-NEXT:    %numaperf.active = load atomic i8, ptr @__numaperf_active monotonic, align 1
; CHECK-NEXT:    [[ON:%.*]] = icmp ne i8 %numaperf.active, 0
; CHECK-NEXT:    br i1 [[ON]], label %numaperf.on, label %numaperf.off
; CHECK:       numaperf.off:
; CHECK-NEXT:    [[R:%.*]] = musttail call i32 @get.numaperf.off(ptr %p, i64 signext %n), !dbg [[L0:![0-9]+]]
; CHECK-NEXT:    ret i32 [[R]]
; CHECK:       numaperf.on:
; CHECK-NEXT:    [[C:%.*]] = load i64, ptr {{.*}}@__numaperf.counters
; CHECK-NEXT:    [[C1:%.*]] = add i64 [[C]], 1
; CHECK-NEXT:    store i64 [[C1]], ptr {{.*}}@__numaperf.counters
; CHECK:         call void @__numaperf_store8(ptr %slot)
; CHECK:         call void @__numaperf_load4(ptr %p)

; The twin: same body, no hook, internal, kept out of line.
; CHECK-LABEL: define internal i32 @get.numaperf.off(ptr %p, i64 signext %n)
; CHECK-SAME:  #[[TWINATTR:[0-9]+]]
; CHECK-NOT:     call void @__numaperf
; CHECK-NOT:     @__numaperf_active
; CHECK:         load i32, ptr %p
; CHECK-NEXT:    ret i32

define void @no_access() {
  ret void
}
; CHECK-LABEL: define void @no_access()
; CHECK-NEXT:    ret void
; CHECK-NOT:   @no_access.numaperf.off

define void @store_g() {
  store i32 1, i32* @g
  ret void
}
; CHECK-LABEL: define void @store_g()
; CHECK:         musttail call void @store_g.numaperf.off()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @store_g.numaperf.off()

define void @vararg(i32* %p, ...) {
  store i32 1, i32* %p
  ret void
}
; CHECK-LABEL: define void @vararg(ptr %p, ...)
; CHECK-NOT:     @__numaperf_active
; CHECK:         call void @__numaperf_store4(ptr %p)
; CHECK-NOT:   @vararg.numaperf.off

; A coroutine before CoroSplit (the -O0 pipeline) is not duplicated.
define i8* @coro(i32* %p) {
  %id = call token @llvm.coro.id(i32 0, i8* null, i8* null, i8* null)
  store i32 1, i32* %p
  ret i8* null
}
; CHECK-LABEL: define ptr @coro(ptr %p)
; CHECK-NOT:     @__numaperf_active
; CHECK:         call void @__numaperf_store4(ptr %p)
; CHECK-NOT:   @coro.numaperf.off

declare void @escape(i32**)
declare token @llvm.coro.id(i32, i8*, i8*, i8*)

; CHECK: attributes #[[TWINATTR]] = { noinline }
; CHECK-DAG: [[L0]] = !DILocation(line: 0, scope: !{{[0-9]+}})

; NOTWIN-LABEL: define i32 @get(
; NOTWIN-NOT:   @__numaperf_active
; NOTWIN:       call void @__numaperf_load4(ptr %p)
; NOTWIN-NOT:   .numaperf.off

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "get", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!8 = !DILocation(line: 2, column: 3, scope: !4)
