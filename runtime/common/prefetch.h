// Prefetch for a coming write. The runtime's line records and counters are
// written by several threads; asking for such a line in exclusive state
// costs one coherence transaction instead of a read miss followed by an
// upgrade, and issued ahead of use it overlaps the miss with other work.
#pragma once

namespace numaperf {

// (x86-64 processors without PREFETCHW run it as a no-op. __builtin_prefetch
// with the write hint emits PREFETCHW only when the compiler targets it.)
inline void prefetchForWrite(const void *p) {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char *>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

}  // namespace numaperf
