#include "common/internal_alloc.h"

#include "common/memory_budget.h"
#include "common/spin_lock.h"

#include <atomic>
#include <cstring>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace numaperf {
namespace {

// Raw system calls: the runtime interposes mmap/munmap for the program, and
// its own memory must never be seen as the program's.
void *rawMmap(size_t size, int extra_flags) {
  long r = syscall(SYS_mmap, nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
  if (r == -1) return MAP_FAILED;
  return reinterpret_cast<void *>(r);
}
void rawMunmap(void *p, size_t size) { syscall(SYS_munmap, p, size); }

// Power-of-two size classes from 16 bytes to 64 KiB; larger blocks are
// mapped directly.
constexpr size_t kMinShift = 4;
constexpr size_t kMaxShift = 16;
constexpr size_t kClasses = kMaxShift - kMinShift + 1;
constexpr size_t kChunk = 1 << 20;

struct FreeBlock {
  FreeBlock *next;
};

struct SizeClass {
  SpinLock lock;
  FreeBlock *free_list = nullptr;
  char *bump = nullptr;
  char *bump_end = nullptr;
};

SizeClass g_classes[kClasses];
std::atomic<uint64_t> g_mapped{0};

size_t classIndex(size_t size) {
  size_t shift = kMinShift;
  while ((size_t(1) << shift) < size) ++shift;
  return shift - kMinShift;
}

// `populate`: fault every page in now, writable. Large blocks are tables
// whose slots are read before they are written (probing): on a lazily mapped
// page that read maps the shared zero page, and the write after it costs a
// copy-on-write fault whose TLB flush interrupts every CPU the process runs
// on (hash tables growing under thousands of allocations per second).
void *mapFresh(size_t size, bool populate) {
  void *p = rawMmap(size, populate ? MAP_POPULATE : 0);
  if (p == MAP_FAILED) return nullptr;
  g_mapped.fetch_add(size, std::memory_order_relaxed);
  return p;
}

}  // namespace

void *internalAlloc(size_t size) {
  if (size == 0) size = 1;
  if (size > (size_t(1) << kMaxShift)) return mapFresh(size, true);
  size_t ci = classIndex(size);
  size_t block = size_t(1) << (ci + kMinShift);
  SizeClass &c = g_classes[ci];
  SpinLockGuard guard(c.lock);
  if (c.free_list) {
    FreeBlock *b = c.free_list;
    c.free_list = b->next;
    memset(b, 0, block);
    return b;
  }
  if (c.bump == nullptr || c.bump + block > c.bump_end) {
    char *chunk = static_cast<char *>(mapFresh(kChunk, false));
    if (!chunk) return nullptr;
    c.bump = chunk;
    c.bump_end = chunk + kChunk;
  }
  void *p = c.bump;  // fresh mmap memory is already zero
  c.bump += block;
  return p;
}

void *internalAllocDetail(size_t size) {
  return detailAllocationAllowed() ? internalAlloc(size) : nullptr;
}

void internalFree(void *p, size_t size) {
  if (!p) return;
  if (size == 0) size = 1;
  if (size > (size_t(1) << kMaxShift)) {
    rawMunmap(p, size);
    g_mapped.fetch_sub(size, std::memory_order_relaxed);
    return;
  }
  SizeClass &c = g_classes[classIndex(size)];
  SpinLockGuard guard(c.lock);
  auto *b = static_cast<FreeBlock *>(p);
  b->next = c.free_list;
  c.free_list = b;
}

void internalAllocLockAll() {
  for (SizeClass &c : g_classes) c.lock.lock();
}

void internalAllocUnlockAll() {
  for (SizeClass &c : g_classes) c.lock.unlock();
}

uint64_t internalBytesMapped() { return g_mapped.load(std::memory_order_relaxed); }

void *reserveAddressSpace(size_t size) {
  void *p = rawMmap(size, MAP_NORESERVE);
  return p == MAP_FAILED ? nullptr : p;
}

void releaseAddressSpace(void *p, size_t size) { rawMunmap(p, size); }

}  // namespace numaperf
