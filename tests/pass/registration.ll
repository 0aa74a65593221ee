; Every module gets a private descriptor table of the globals it defines, a
; constructor (priority 1) passing it with ABI version 2 to
; __numaperf_register_module, and a destructor unregistering it.
; RUN: %opt -load=%plugin -load-pass-plugin=%plugin -passes=numaperf -numaperf-private-page-test=0 -S %s | FileCheck %s

$inl = comdat any

; Registered: with debug info (file = directory + relative name, or the
; absolute name as is; "./" dropped), without debug info ("" and 0), and linkonce_odr in
; a comdat (C++ inline variable: the runtime dedups by address).
@counter = global i64 0, !dbg !0
@table = internal global [16 x i32] zeroinitializer, !dbg !5
@nodbg = global i8 0
@inl = linkonce_odr global i32 0, comdat

; Not registered: thread-local, declarations, zero-sized, local symbols in a
; comdat (would be a reference into a discardable section), llvm.*,
; llvm.metadata, profile counters, available_externally, our own prefix,
; anonymous compiler constants (private unnamed_addr constant: literals).
@tls = thread_local global i32 0
@ext = external global i32
@empty = global {} zeroinitializer
@in_comdat = internal global i32 0, comdat($inl)
@__profc_f = private global [1 x i64] zeroinitializer, section "__llvm_prf_cnts"
@ae = available_externally global i32 0
@__numaperf_x = global i32 0
@.str = private unnamed_addr constant [3 x i8] c"hi\00"
@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @in_comdat to i8*)], section "llvm.metadata"

; CHECK-DAG: @[[N_COUNTER:__numaperf.str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"counter\00"
; CHECK-DAG: @[[F_APP:__numaperf.str[.0-9]*]] = private unnamed_addr constant [23 x i8] c"/home/u/proj/src/app.c\00"
; CHECK-DAG: @[[N_TABLE:__numaperf.str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"table\00"
; CHECK-DAG: @[[F_TAB:__numaperf.str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"/abs/tab.h\00"
; CHECK-DAG: @[[N_NODBG:__numaperf.str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"nodbg\00"
; CHECK-DAG: @[[F_NONE:__numaperf.str[.0-9]*]] = private unnamed_addr constant [1 x i8] zeroinitializer
; CHECK-DAG: @[[N_INL:__numaperf.str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"inl\00"

; CHECK:      @__numaperf.globals = private constant [4 x { ptr, i64, ptr, ptr, i32, i32 }]
; CHECK-SAME: { ptr @counter, i64 8, ptr @[[N_COUNTER]], ptr @[[F_APP]], i32 7, i32 0 }
; CHECK-SAME: { ptr @table, i64 64, ptr @[[N_TABLE]], ptr @[[F_TAB]], i32 12, i32 0 }
; CHECK-SAME: { ptr @nodbg, i64 1, ptr @[[N_NODBG]], ptr @[[F_NONE]], i32 0, i32 0 }
; CHECK-SAME: { ptr @inl, i64 4, ptr @[[N_INL]], ptr @[[F_NONE]], i32 0, i32 0 }]
; CHECK-NOT:  @__numaperf.globals.

; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__numaperf.module_ctor, ptr null }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr @__numaperf.module_dtor, ptr null }]

; CHECK: declare void @__numaperf_register_module(i32, ptr, i64)
; CHECK: declare void @__numaperf_unregister_module(ptr, i64)

; Internal, no comdat (the attribute group is directly followed by the body).
; CHECK-LABEL: define internal void @__numaperf.module_ctor() #{{[0-9]+}} {
; CHECK-NEXT:  call void @__numaperf_register_module(i32 5, ptr @__numaperf.globals, i64 4)
; CHECK-NEXT:  ret void

; CHECK-LABEL: define internal void @__numaperf.module_dtor() #{{[0-9]+}} {
; CHECK-NEXT:  call void @__numaperf_unregister_module(ptr @__numaperf.globals, i64 4)
; CHECK-NEXT:  ret void


!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!10, !11}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "counter", scope: !2, file: !3, line: 7, type: !4, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C99, file: !3, producer: "test", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !9)
!3 = !DIFile(filename: "./src/app.c", directory: "/home/u/proj")
!4 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "table", scope: !2, file: !7, line: 12, type: !8, isLocal: true, isDefinition: true)
!7 = !DIFile(filename: "/abs/tab.h", directory: "/home/u/proj")
!8 = !DICompositeType(tag: DW_TAG_array_type, baseType: !12, size: 512, elements: !13)
!9 = !{!0, !5}
!10 = !{i32 7, !"Dwarf Version", i32 5}
!11 = !{i32 2, !"Debug Info Version", i32 3}
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!13 = !{!14}
!14 = !DISubrange(count: 16)
