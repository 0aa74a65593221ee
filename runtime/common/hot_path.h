// The code and data that every malloc, free, new, delete and lock of the
// program reaches, also with profiling off, gathered on as few pages as
// possible. A program whose own accesses thrash the TLB (random accesses
// over a large heap) pays a page walk for each distinct page an interceptor
// touches: two extra data pages per lock slowed a hash table by 20%
// (docs/benchmarks.md, "Session 9"). tests/runtime/hot_path_layout_test.py
// fails when a function on that path lands elsewhere.
#pragma once

// The linker places .text.hot.* input sections together at the start of
// .text, and the input sections of one name next to each other.
#define NUMAPERF_HOT_PATH __attribute__((section(".text.hot.numaperf")))
#define NUMAPERF_HOT_DATA __attribute__((section(".data.numaperf_hot")))
