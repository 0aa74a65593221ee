// Observed migrations (docs/threads.md): a worker, then the main thread, then
// a forked child each move themselves between two CPUs MOVES times with
// sched_setaffinity, which the kernel carries out as migrations. Each one's
// thread record must count at least that many. Prints "skip" where fewer
// than two CPUs are allowed.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define MOVES 50

static int cpus[2];
static cpu_set_t allowed;

static void move_around(void) {
  for (int i = 0; i < MOVES; ++i) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[i % 2], &one);
    sched_setaffinity(0, sizeof one, &one);
  }
  sched_setaffinity(0, sizeof allowed, &allowed);
}

static void *mover(void *arg) {
  (void)arg;
  move_around();
  return NULL;
}

int main(void) {
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 1;
  int found = 0;
  for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
    if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) {
    printf("skip\n");
    return 0;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, mover, NULL) != 0) return 1;
  pthread_join(t, NULL);
  move_around();
  fflush(stdout);
  pid_t child = fork();
  if (child < 0) return 1;
  if (child == 0) {
    move_around();
    return 0;
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return 1;
  printf("done %d\n", (int)child);
  return 0;
}
