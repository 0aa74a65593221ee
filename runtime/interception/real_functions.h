// Addresses of the interposed libc functions, resolved with dlsym(RTLD_NEXT).
// dlsym itself may allocate; those requests are served from a small static
// bootstrap arena (see bootstrap_arena.h) so resolution never recurses.
#pragma once

#include <cstddef>
#include <pthread.h>

namespace numaperf {

struct RealFunctions {
  void *(*malloc)(size_t) = nullptr;
  void *(*calloc)(size_t, size_t) = nullptr;
  void *(*realloc)(void *, size_t) = nullptr;
  void (*free)(void *) = nullptr;
  int (*posix_memalign)(void **, size_t, size_t) = nullptr;
  void *(*aligned_alloc)(size_t, size_t) = nullptr;
  void *(*memalign)(size_t, size_t) = nullptr;
  void *(*valloc)(size_t) = nullptr;
  void *(*pvalloc)(size_t) = nullptr;
  int (*pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *) = nullptr;
};

// Resolves every entry once; safe to call from any interceptor, any thread.
// Returns false while resolution is in progress on this thread (the caller
// must then use the bootstrap arena).
bool resolveRealFunctions();
const RealFunctions &real();

}  // namespace numaperf
