// Awkward things programs do (argv[1] picks one). The e2e case runs each
// mode natively and with numaperf and compares exit status and stdout; with
// numaperf each mode must also leave one complete profile.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

// ---- allocation before main ------------------------------------------------
static long *early;
__attribute__((constructor)) static void allocate_early(void) {
  early = malloc(4096 * sizeof *early);
  for (int i = 0; i < 4096; ++i) early[i] = i;
}

static long sum(const long *v, size_t n) {
  long s = 0;
  for (size_t i = 0; i < n; ++i) s += v[i];
  return s;
}

// ---- threads ---------------------------------------------------------------
static long slots[1024];
static pthread_barrier_t barrier;

static void *touch_slot(void *arg) {
  slots[(uintptr_t)arg % 1024] += 1;
  return NULL;
}

static void *live_worker(void *arg) {
  slots[(uintptr_t)arg] = (long)(uintptr_t)arg;
  pthread_barrier_wait(&barrier);  // all 1000 alive at once
  return NULL;
}

static int many_live_threads(void) {
  enum { LIVE = 1000 };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  pthread_barrier_init(&barrier, NULL, LIVE);
  pthread_t t[LIVE];
  for (uintptr_t i = 0; i < LIVE; ++i)
    if (pthread_create(&t[i], &attr, live_worker, (void *)i) != 0) return 2;
  for (int i = 0; i < LIVE; ++i) pthread_join(t[i], NULL);
  printf("live threads: %ld\n", sum(slots, LIVE));
  return 0;
}

static int thread_churn(long total) {
  enum { WAVE = 16 };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 64 * 1024);
  for (long done = 0; done < total; done += WAVE) {
    pthread_t t[WAVE];
    for (uintptr_t i = 0; i < WAVE; ++i)
      if (pthread_create(&t[i], &attr, touch_slot, (void *)(done + i)) != 0) return 2;
    for (int i = 0; i < WAVE; ++i) pthread_join(t[i], NULL);
  }
  printf("churned threads: %ld\n", sum(slots, 1024));
  return 0;
}

// ---- memory ----------------------------------------------------------------
static int realloc_grow_shrink(void) {
  size_t n = 16;
  long *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; ++i) v[i] = (long)i;
  for (int step = 0; step < 12; ++step) {  // grow to 64 Ki elements
    v = realloc(v, 2 * n * sizeof *v);
    for (size_t i = n; i < 2 * n; ++i) v[i] = (long)i;
    n *= 2;
  }
  long grown = sum(v, n);
  while (n > 16) {
    n /= 4;
    v = realloc(v, n * sizeof *v);
  }
  printf("realloc: %ld %ld\n", grown, sum(v, n));
  free(v);
  return 0;
}

static void *touch_pages(void *arg) {
  char *p = arg;
  for (int page = 0; page < 4; ++page) p[page * 4096] += 1;
  return NULL;
}

static int mapping_surgery(void) {
  long page = sysconf(_SC_PAGESIZE);
  char *m = mmap(NULL, 16 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 2;
  memset(m, 1, 16 * page);
  munmap(m + 4 * page, 4 * page);  // a hole: two mappings remain
  pthread_t t;
  pthread_create(&t, NULL, touch_pages, m + 8 * page);
  pthread_join(t, NULL);
  madvise(m + 8 * page, 4 * page, MADV_DONTNEED);  // reads back as zero
  int zero = m[8 * page] == 0 && m[11 * page] == 0;
  char *moved = mremap(m + 8 * page, 8 * page, 64 * page, MREMAP_MAYMOVE);
  if (moved == MAP_FAILED) return 3;
  memset(moved + 8 * page, 2, 56 * page);
  printf("mapping: zero after DONTNEED %d, first part %d, grown %d\n", zero, m[0], moved[63 * page]);
  munmap(m, 4 * page);
  munmap(moved, 64 * page);
  return 0;
}

static int huge_virtual(void) {
  size_t big = (size_t)32 << 30;  // 32 GiB of address space, a few pages used
  char *m = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED) return 2;
  for (size_t off = 0; off < big; off += (size_t)1 << 30) m[off] = 1;
  pthread_t t;
  pthread_create(&t, NULL, touch_pages, m + ((size_t)16 << 30));
  pthread_join(t, NULL);
  munmap(m, big);
  void *heap = malloc((size_t)20 << 30);  // may be refused; natively too
  printf("huge: mmap ok, malloc %s\n", heap ? "ok" : "refused");
  free(heap);
  return 0;
}

// One big block carved into objects by the program's own bump allocator:
// numaperf sees one heap object (the block) and attributes to its site.
static char *arena;
static size_t arena_used;
static void *carve(size_t n) {
  void *p = arena + arena_used;
  arena_used += (n + 63) & ~(size_t)63;
  return p;
}
static void *fill_carved(void *arg) {
  long *v = arg;
  for (int r = 0; r < 8; ++r)
    for (int i = 0; i < 65536; ++i) v[i] += i;
  return NULL;
}
static int custom_allocator(void) {
  arena = malloc(8 << 20);
  long *objects[4];
  for (int i = 0; i < 4; ++i) objects[i] = carve(65536 * sizeof(long));
  memset(arena, 0, arena_used);
  pthread_t t[4];
  for (int i = 0; i < 4; ++i) pthread_create(&t[i], NULL, fill_carved, objects[i]);
  for (int i = 0; i < 4; ++i) pthread_join(t[i], NULL);
  printf("carved: %ld\n", sum(objects[3], 65536));
  free(arena);
  return 0;
}

// ---- control flow ----------------------------------------------------------
static jmp_buf jump;
static void dive(long *v, int depth) {
  v[depth] = depth;
  if (depth == 50) longjmp(jump, 1);
  dive(v, depth + 1);
}
static void *jumper(void *arg) {
  long *v = arg;
  for (int r = 0; r < 100; ++r)
    if (!setjmp(jump)) dive(v, 0);
  return NULL;
}
static int long_jumps(void) {
  long *v = calloc(64, sizeof *v);
  pthread_t t;
  pthread_create(&t, NULL, jumper, v);
  pthread_join(t, NULL);
  printf("longjmp: %ld\n", sum(v, 64));
  return 0;
}

static __thread long tls_array[512];
static void *use_tls(void *arg) {
  for (int i = 0; i < 512; ++i) tls_array[i] = i + (long)(uintptr_t)arg;
  return (void *)(uintptr_t)sum(tls_array, 512);
}
static int thread_locals(void) {
  pthread_t t[4];
  long total = 0;
  for (uintptr_t i = 0; i < 4; ++i) pthread_create(&t[i], NULL, use_tls, (void *)i);
  for (int i = 0; i < 4; ++i) {
    void *r;
    pthread_join(t[i], &r);
    total += (long)(uintptr_t)r;
  }
  printf("tls: %ld\n", total);
  return 0;
}

static char *alt_base;
static volatile int on_alt_stack;
static void on_usr1(int sig) {
  char here;
  on_alt_stack = &here >= alt_base && &here < alt_base + SIGSTKSZ * 4;
  early[sig] += 1;  // instrumented code in the handler
}
static int alternate_stack(void) {
  stack_t ss = {0};
  alt_base = malloc(SIGSTKSZ * 4);
  ss.ss_sp = alt_base;
  ss.ss_size = SIGSTKSZ * 4;
  if (sigaltstack(&ss, NULL) != 0) return 2;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1);
  printf("sigaltstack: handler ran on it %d\n", on_alt_stack);
  return 0;
}

// ---- coroutines on stacks of the program's own ------------------------------
// A ucontext coroutine allocates deep in a recursion on an mmap'd stack;
// then the stack's top is unmapped and a second coroutine, on what is left,
// calls malloc from exactly the same frame address, now only a few frames
// below the new top. Whatever the runtime noted about the first call's
// frames must not make it read them again: they are gone.
struct co_node {
  struct co_node *next;
  long v;
};
static ucontext_t co_main, co_ctx;
static struct co_node *co_list;
static char *co_frame[2];  // frame addresses at depth 1 and 0
// Recurses `depth` levels, then allocates n nodes.
static __attribute__((noinline)) void co_allocate(int depth, int n) {
  volatile char pad[200];  // frames of one size, no tail call
  pad[0] = (char)depth;
  if (depth < 2) co_frame[depth] = __builtin_frame_address(0);
  if (depth > 0) {
    co_allocate(depth - 1, n);
    pad[1] = pad[0];
    return;
  }
  for (int i = 0; i < n; ++i) {
    struct co_node *x = malloc(sizeof *x);
    x->v = i;
    x->next = co_list;
    co_list = x;
  }
}
static void co_body(int depth) { co_allocate(depth, 300); }
static int run_coroutine(char *base, size_t size, int depth) {
  if (getcontext(&co_ctx) != 0) return 2;
  co_ctx.uc_stack.ss_sp = base;
  co_ctx.uc_stack.ss_size = size;
  co_ctx.uc_link = &co_main;
  makecontext(&co_ctx, (void (*)(void))co_body, 1, depth);
  return swapcontext(&co_main, &co_ctx) != 0 ? 2 : 0;
}
static int coroutines(void) {
  co_allocate(1, 0);
  const size_t frame = (size_t)(co_frame[1] - co_frame[0]);  // bytes per recursion level
  if (frame == 0 || frame > 4096) return 3;
  size_t cut = 4096;  // a whole number of pages and of frames
  while (cut % frame) cut += 4096;
  const size_t size = cut + 64 * 1024;
  const int near_top = 5;  // levels under the second coroutine's top
  char *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return 2;
  if (run_coroutine(base, size, near_top + (int)(cut / frame))) return 2;
  munmap(base + size - cut, cut);
  if (run_coroutine(base, size - cut, near_top)) return 2;
  munmap(base, size - cut);
  long total = 0, nodes = 0;
  while (co_list) {
    struct co_node *next = co_list->next;
    total += co_list->v;
    ++nodes;
    free(co_list);
    co_list = next;
  }
  printf("coroutines: %ld nodes, sum %ld\n", nodes, total);
  return 0;
}

static int dynamic_library(const char *path) {
  long total = 0;
  for (int round = 0; round < 3; ++round) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      printf("dlopen failed: %s\n", dlerror());
      return 2;
    }
    long (*work)(int) = (long (*)(int))dlsym(h, "plugin_work");
    total += work(4);
    dlclose(h);  // its globals are unregistered; the report must not touch them
  }
  printf("plugin: %ld\n", total);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (sum(early, 4096) != 4096L * 4095 / 2) return 10;
  if (!strcmp(mode, "ctor_alloc")) return printf("early: %ld\n", sum(early, 4096)) < 0;
  if (!strcmp(mode, "live_threads")) return many_live_threads();
  if (!strcmp(mode, "thread_churn")) return thread_churn(argc > 2 ? atol(argv[2]) : 100000);
  if (!strcmp(mode, "realloc")) return realloc_grow_shrink();
  if (!strcmp(mode, "mappings")) return mapping_surgery();
  if (!strcmp(mode, "huge_virtual")) return huge_virtual();
  if (!strcmp(mode, "custom_allocator")) return custom_allocator();
  if (!strcmp(mode, "longjmp")) return long_jumps();
  if (!strcmp(mode, "tls")) return thread_locals();
  if (!strcmp(mode, "sigaltstack")) return alternate_stack();
  if (!strcmp(mode, "coroutines")) return coroutines();
  if (!strcmp(mode, "dlopen")) return argc > 2 ? dynamic_library(argv[2]) : 64;
  fprintf(stderr, "unknown mode '%s'\n", mode);
  return 64;
}
