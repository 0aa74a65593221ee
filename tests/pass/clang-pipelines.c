// clang -fpass-plugin instruments at -O0 (optnone functions) and at -O2.
// REQUIRES: clang
// RUN: %clang -O0 -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -mllvm -numaperf-private-page-test=0 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang -O2 -Xclang -load -Xclang %plugin -fpass-plugin=%plugin -mllvm -numaperf-private-page-test=0 -S -emit-llvm -o - %s | FileCheck %s --check-prefixes=CHECK,O2

int shared_counter;

// O0: Function Attrs: {{.*}}optnone
// CHECK-LABEL: define {{.*}}i32 @read_it(
// The -O0 spill slot of p is a private alloca: not reported.
// O0-NOT: @__numaperf_load8
// CHECK: call void @__numaperf_load4({{i8\*|ptr}} {{%[0-9]+|%p}})
// CHECK-NEXT: load i32, {{i32\*|ptr}}
int read_it(int *p) { return *p; }

// CHECK-LABEL: define {{.*}}void @bump(
// CHECK: call void @__numaperf_store4({{.*}}@shared_counter
// CHECK-NEXT: store i32 {{.*}}@shared_counter
void bump(void) { shared_counter += 1; }

// -O2 merges the two loads before the pass runs: one hook left.
// CHECK-LABEL: define {{.*}}i32 @twice(
// CHECK: call void @__numaperf_load4(
// O0: call void @__numaperf_load4(
// O2-NOT: call void @__numaperf_load4(
// CHECK: ret i32
int twice(int *p) { return *p + *p; }

// CHECK: define internal void @__numaperf.module_ctor()
// CHECK-NEXT: call void @__numaperf_register_module(i32 {{[0-9]+}}, {{.*}}@__numaperf.globals{{.*}}, i64 1)
