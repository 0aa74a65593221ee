/* measure: runs a command and reports its wall time and peak RSS.
 *
 *   measure RESULT_FILE PROGRAM [ARGS...]
 *
 * Writes one line "status=<wait status> wall_ns=<n> cpu_ns=<n> maxrss_kib=<n>"
 * (cpu_ns: user + system time of the program and its waited-for children) to
 * RESULT_FILE and exits 0 once the program has ended (whatever its status).
 * The benchmark harness uses this small launcher instead of spawning from
 * Python because ru_maxrss is a high-water mark that survives exec: a
 * program forked from the Python interpreter would report at least the
 * interpreter's own resident size, hiding the RSS of small workloads. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: measure RESULT_FILE PROGRAM [ARGS...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("measure: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "measure: cannot run %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0)
    if (errno != EINTR) {
      perror("measure: wait4");
      return 2;
    }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec);
  FILE *f = fopen(argv[1], "w");
  if (!f) {
    perror("measure: result file");
    return 2;
  }
  long long cpu = ((long long)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ll +
                  ((long long)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ll;
  fprintf(f, "status=%d wall_ns=%lld cpu_ns=%lld maxrss_kib=%ld\n", status, ns, cpu,
          ru.ru_maxrss);
  return fclose(f) == 0 ? 0 : 2;
}
