// Frees made while nothing has been profiled yet, held back per thread and
// passed on kHeldFrees at a time.
//
// With profiling off since the start, a free has nothing to record: a small
// block's map entry stays (ObjectRegistry::skipsUnprofiledFree). Still, in a
// program that frees a linked structure in address-random order, each free
// sits between two of the program's cache misses, and the runtime's checks
// plus glibc's free (a locked instruction for the fastbin push) cost more
// there, one free at a time, than in a batch of 32 right after one another:
// `hashtable`'s teardown ran 1.46x native without holding and 1.24x with it
// (docs/benchmarks.md, "Session 27"; until then holding also let the map
// entries' misses overlap, "Session 26").
//
// A block freed within the same 4 KiB as the thread's previous free is not
// held (holding it would change which block the program's next malloc gets
// back).
//
// A held block stays allocated until its batch is passed on. Only blocks up
// to kHeldMaxBytes are held (at most 32 KiB per thread), and only on
// threads whose end the runtime sees (its trampoline for pthread_create,
// and the main thread): a thread passes its blocks on when it ends, and
// frees after that (thread-local destructors) are not held.
#pragma once

namespace numaperf {

constexpr unsigned kHeldFrees = 32;
constexpr unsigned long kHeldMaxBytes = 1024;

// Takes `p` (a block the program frees, tracked by the runtime) into the
// calling thread's held frees; false when the caller must retire and free it
// now (something was profiled already, the block is large, the thread may
// not hold). Passes the batch on when it is full, and a batch left over
// from before profiling started when it returns false.
bool holdFree(void *p);

// This thread may hold frees from now on (the runtime sees its end).
void allowHeldFrees();

// Passes on this thread's held frees (retired, then freed) and holds no
// more: the thread is ending.
void endHeldFrees();

}  // namespace numaperf
