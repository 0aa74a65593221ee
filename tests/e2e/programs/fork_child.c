// fork() while another thread allocates and frees in a loop: the child must
// not deadlock on a lock the other thread held, runs instrumented code, and
// exits with its own status; parent and children each write their own profile
// (with _exit too: docs/process-life.md).
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int stop;

static void *churn(void *arg) {
  (void)arg;
  while (!stop) {
    void *p = malloc(64 + (rand() & 1023));
    free(p);
  }
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, churn, NULL);
  int status = 0;
  for (int i = 0; i < 20; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      long *v = malloc(1000 * sizeof *v);
      for (int k = 0; k < 1000; ++k) v[k] = k;
      free(v);
      _exit(i == 19 ? 5 : 0);
    }
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status)) return 2;
  }
  if (WEXITSTATUS(status) != 5) return 3;
  pid_t pid = fork();
  if (pid == 0) exit(4);  // a child that exits normally writes its profile
  waitpid(pid, &status, 0);
  stop = 1;
  pthread_join(t, NULL);
  return WIFEXITED(status) && WEXITSTATUS(status) == 4 ? 0 : 1;
}
