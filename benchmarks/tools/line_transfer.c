/* line_transfer: how long one cache line takes to move between two CPUs.
 *
 *   line_transfer [ROUND_TRIPS]
 *
 * Two threads, pinned to the first two CPUs the process may run on, take
 * turns incrementing one counter (each waits for the other's value, then
 * writes its own), so every step moves the line from one core to the
 * other. Prints "line_transfer_ns=<mean ns per one-way transfer> cpus=A,B"
 * and exits 0, or prints "line_transfer_ns=none" when fewer than two CPUs
 * are available.
 *
 * Why the benchmark harness runs it: on a virtual machine the host may move
 * the two vCPUs between sibling hyperthreads, one core complex, or further
 * apart, and a line that changes hands costs several times more in the
 * last case. numaperf's costs on lines and pages threads share follow that
 * price (a workload's ratio moved 1.4x with it in one session), so each
 * result records it next to the times. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static _Alignas(64) atomic_long g_turn;
static long g_round_trips = 200000;

struct side {
  int cpu;
  long parity; /* 0: writes even values, 1: odd ones */
};

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *play(void *arg) {
  const struct side *s = arg;
  /* A side that cannot be pinned still plays its turns (the other one waits
   * for them), and the result is reported as not measured. */
  void *result = pin(s->cpu) != 0 ? (void *)1 : NULL;
  for (long i = s->parity; i < 2 * g_round_trips; i += 2) {
    while (atomic_load_explicit(&g_turn, memory_order_acquire) != i) {
    }
    atomic_store_explicit(&g_turn, i + 1, memory_order_release);
  }
  return result;
}

int main(int argc, char **argv) {
  if (argc > 2) {
    fprintf(stderr, "usage: line_transfer [ROUND_TRIPS]\n");
    return 2;
  }
  if (argc == 2) {
    char *end = NULL;
    g_round_trips = strtol(argv[1], &end, 10);
    if (!end || *end || g_round_trips <= 0 || g_round_trips > 100000000) {
      fprintf(stderr, "line_transfer: bad round-trip count '%s'\n", argv[1]);
      return 2;
    }
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    printf("line_transfer_ns=none\n");
    return 0;
  }
  int cpus[2], found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) {
    printf("line_transfer_ns=none\n");
    return 0;
  }
  struct side a = {cpus[0], 0}, b = {cpus[1], 1};
  pthread_t ta, tb;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (pthread_create(&ta, NULL, play, &a) != 0) {
    printf("line_transfer_ns=none\n");
    return 0;
  }
  if (pthread_create(&tb, NULL, play, &b) != 0) {
    /* a waits for turns nobody will take: end the process, not a thread */
    printf("line_transfer_ns=none\n");
    fflush(stdout);
    _exit(0);
  }
  void *ra, *rb;
  pthread_join(ta, &ra);
  pthread_join(tb, &rb);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (ra || rb) {
    printf("line_transfer_ns=none\n");
    return 0;
  }
  const double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
  printf("line_transfer_ns=%.1f cpus=%d,%d\n", ns / (2.0 * (double)g_round_trips), cpus[0], cpus[1]);
  return 0;
}
