/* Shared helpers for the numaperf benchmark workloads (C and C++).
 *
 * Every workload takes its parameters as name=value arguments, for example
 *   ./stencil threads=4 n=2048 iters=40
 * prints one "checksum: <value>" line on stdout (the harness compares it
 * between the native and the instrumented builds, so it must not depend on
 * thread scheduling) and exits 0. Timing is done by the harness from outside
 * (wall clock of the whole process, report writing included). */
#ifndef NUMAPERF_BENCH_H
#define NUMAPERF_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value of argument "name=..." or def. Unknown names are reported and fatal,
 * so a typo in the harness's size table does not silently run the default. */
static inline long bench_arg(int argc, char **argv, const char *name, long def) {
  size_t len = strlen(name);
  for (int i = 1; i < argc; ++i)
    if (strncmp(argv[i], name, len) == 0 && argv[i][len] == '=') {
      char *end = NULL;
      long v = strtol(argv[i] + len + 1, &end, 0);
      if (!end || *end || v <= 0) {
        fprintf(stderr, "bad value for %s: '%s'\n", name, argv[i] + len + 1);
        exit(2);
      }
      return v;
    }
  return def;
}

/* Rejects arguments that are not in the list of known names (NULL-ended). */
static inline void bench_check_args(int argc, char **argv, const char *const *known) {
  for (int i = 1; i < argc; ++i) {
    int ok = 0;
    for (const char *const *k = known; *k; ++k) {
      size_t len = strlen(*k);
      if (strncmp(argv[i], *k, len) == 0 && argv[i][len] == '=') ok = 1;
    }
    if (!ok) {
      fprintf(stderr, "unknown argument '%s'; known:", argv[i]);
      for (const char *const *k = known; *k; ++k) fprintf(stderr, " %s=", *k);
      fprintf(stderr, "\n");
      exit(2);
    }
  }
}

/* splitmix64: small, fast, deterministic per-seed generator. */
static inline uint64_t bench_mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform double in [0, 1). */
static inline double bench_uniform(uint64_t *s) {
  return (double)(bench_mix(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Folds a double into an integer checksum at a fixed precision, so that the
 * checksum is an exact integer comparison. */
static inline uint64_t bench_quant(double x) { return (uint64_t)(int64_t)(x * 1e6); }

#endif
