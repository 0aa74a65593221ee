// Shared by the ground-truth sharing programs: workers start their loops
// together, so their accesses interleave even when the machine is busy.
#pragma once
#include <sched.h>

static int ready;
static void start_together(int workers) {
  __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < workers) sched_yield();
}
