// Every way a process can end (argv[1] picks one). The e2e case runs each
// mode natively and with numaperf and compares exit status and stdout; with
// numaperf each mode must also leave a complete profile.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { N = 1 << 16 };
static long *shared;
static const char *self;

static void *fill(void *arg) {  // instrumented work before the end
  long base = (long)arg;
  for (long i = 0; i < N; ++i) shared[i] += base + i;
  return NULL;
}

static void work(void) {
  shared = calloc(N, sizeof *shared);
  pthread_t t;
  pthread_create(&t, NULL, fill, (void *)1);
  pthread_join(t, NULL);
  fill((void *)2);
}

static void *exit_from_thread(void *arg) {
  (void)arg;
  fflush(stdout);
  exit(9);
}

static void *raise_term(void *arg) {
  (void)arg;
  raise(SIGTERM);
  return NULL;
}

static void *late_worker(void *arg) {
  (void)arg;
  fill((void *)3);
  printf("worker done\n");
  return NULL;
}

static int *volatile bad_address = (int *)16;  // in the never-mapped first page
static volatile sig_atomic_t flag;
static void on_int(int sig) { flag = sig; }
static void on_segv(int sig) {
  char msg[] = "caught 11\n";
  msg[7] = (char)('0' + sig / 10);
  msg[8] = (char)('0' + sig % 10);
  write(1, msg, sizeof msg - 1);
  _exit(42);
}
static void on_quick_exit(void) { printf("quick exit handler\n"); fflush(stdout); }

static void *churn(void *arg) {  // keeps the allocator's locks busy
  (void)arg;
  for (;;) free(malloc(64 + (rand() & 1023)));
  return NULL;
}

static int wait_ok(pid_t pid) {
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

// fork+exec, system, posix_spawn and vfork+exec of this program ("child")
// while two threads allocate.
static int spawn_children(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, churn, NULL);
  char *argv[] = {(char *)self, "child", NULL};
  int ok = 0;
  pid_t pid = fork();
  if (pid == 0) {
    execv(self, argv);
    _exit(127);
  }
  ok += wait_ok(pid);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' child", self);
  int st = system(cmd);
  ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (posix_spawn(&pid, self, NULL, NULL, argv, environ) == 0) ok += wait_ok(pid);
  pid = vfork();
  if (pid == 0) {
    execv(self, argv);
    _exit(127);
  }
  ok += wait_ok(pid);
  printf("children ok: %d\n", ok);
  fflush(stdout);
  _exit(ok == 4 ? 0 : 1);  // the churning threads never end
}

int main(int argc, char **argv) {
  self = argv[0];
  const char *mode = argc > 1 ? argv[1] : "";
  work();
  if (!strcmp(mode, "exit_thread")) {
    pthread_t t;
    pthread_create(&t, NULL, exit_from_thread, NULL);
    pthread_join(t, NULL);
    return 1;  // not reached
  }
  if (!strcmp(mode, "pthread_exit_main")) {
    pthread_t t;
    pthread_create(&t, NULL, late_worker, NULL);
    pthread_exit(NULL);
  }
  if (!strcmp(mode, "abort")) abort();
  if (!strcmp(mode, "_exit")) {
    printf("buffered output is lost\n");
    _exit(5);
  }
  if (!strcmp(mode, "_Exit")) _Exit(6);
  if (!strcmp(mode, "quick_exit")) {
    at_quick_exit(on_quick_exit);
    quick_exit(7);
  }
  if (!strcmp(mode, "segv")) {
    struct sigaction old;
    sigaction(SIGSEGV, NULL, &old);
    printf("SIGSEGV action: %s\n", old.sa_handler == SIG_DFL ? "default" : "other");
    fflush(stdout);
    *bad_address = 1;
    return 1;
  }
  if (!strcmp(mode, "segv_handler")) {
    signal(SIGSEGV, on_segv);
    *bad_address = 1;
    return 1;
  }
  if (!strcmp(mode, "sigterm_thread")) {
    pthread_t t;
    pthread_create(&t, NULL, raise_term, NULL);
    pthread_join(t, NULL);
    for (;;) pause();
  }
  if (!strcmp(mode, "sigint_handler")) {
    sighandler_t before = signal(SIGINT, on_int);
    raise(SIGINT);
    sighandler_t mine = signal(SIGINT, SIG_DFL);
    printf("before default: %d, flag %d, got mine back: %d\n", before == SIG_DFL, (int)flag,
           mine == on_int);
    fflush(stdout);
    kill(getpid(), SIGINT);
    for (;;) pause();
  }
  if (!strcmp(mode, "sigterm_ignored")) {
    signal(SIGTERM, SIG_IGN);
    raise(SIGTERM);
    printf("survived\n");
    return 0;
  }
  if (!strcmp(mode, "stderr_reused")) {
    // fd 2 closed and reused for the program's own file: nothing else may
    // land in it.
    close(2);
    int fd = open("own.log", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd != 2) return 2;
    dprintf(fd, "program data\n");
    return 0;
  }
  if (!strcmp(mode, "spawn")) return spawn_children();
  if (!strcmp(mode, "child")) return 0;
  fprintf(stderr, "unknown mode '%s'\n", mode);
  return 64;
}
