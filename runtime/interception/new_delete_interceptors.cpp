// C++ operator new and delete in all their standard forms, routed through the
// interposed C allocator so that C++ objects get allocation sites too. The
// throwing forms keep the standard behaviour (new_handler loop, bad_alloc).
#include "common/hot_path.h"

#include <cstdlib>
#include <new>

#define NP_EXPORT __attribute__((visibility("default"))) NUMAPERF_HOT_PATH

namespace {

NUMAPERF_HOT_PATH void *allocateOrThrow(std::size_t size) {
  if (size == 0) size = 1;
  for (;;) {
    if (void *p = malloc(size)) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

NUMAPERF_HOT_PATH void *allocateAlignedOrThrow(std::size_t size, std::align_val_t alignment) {
  if (size == 0) size = 1;
  std::size_t align = static_cast<std::size_t>(alignment);
  if (align < sizeof(void *)) align = sizeof(void *);
  for (;;) {
    void *p = nullptr;
    if (posix_memalign(&p, align, size) == 0) return p;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

template <typename F>
void *noThrow(F &&allocate) noexcept {
  try {
    return allocate();
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

NP_EXPORT void *operator new(std::size_t n) { return allocateOrThrow(n); }
NP_EXPORT void *operator new[](std::size_t n) { return allocateOrThrow(n); }
NP_EXPORT void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  return noThrow([&] { return allocateOrThrow(n); });
}
NP_EXPORT void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  return noThrow([&] { return allocateOrThrow(n); });
}
NP_EXPORT void *operator new(std::size_t n, std::align_val_t a) {
  return allocateAlignedOrThrow(n, a);
}
NP_EXPORT void *operator new[](std::size_t n, std::align_val_t a) {
  return allocateAlignedOrThrow(n, a);
}
NP_EXPORT void *operator new(std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
  return noThrow([&] { return allocateAlignedOrThrow(n, a); });
}
NP_EXPORT void *operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept {
  return noThrow([&] { return allocateAlignedOrThrow(n, a); });
}

NP_EXPORT void operator delete(void *p) noexcept { free(p); }
NP_EXPORT void operator delete[](void *p) noexcept { free(p); }
NP_EXPORT void operator delete(void *p, const std::nothrow_t &) noexcept { free(p); }
NP_EXPORT void operator delete[](void *p, const std::nothrow_t &) noexcept { free(p); }
NP_EXPORT void operator delete(void *p, std::size_t) noexcept { free(p); }
NP_EXPORT void operator delete[](void *p, std::size_t) noexcept { free(p); }
NP_EXPORT void operator delete(void *p, std::align_val_t) noexcept { free(p); }
NP_EXPORT void operator delete[](void *p, std::align_val_t) noexcept { free(p); }
NP_EXPORT void operator delete(void *p, std::size_t, std::align_val_t) noexcept { free(p); }
NP_EXPORT void operator delete[](void *p, std::size_t, std::align_val_t) noexcept { free(p); }
NP_EXPORT void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept {
  free(p);
}
NP_EXPORT void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept {
  free(p);
}
