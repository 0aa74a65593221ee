#include "common/stderr_identity.h"

#include <cerrno>
#include <sys/stat.h>

namespace numaperf {
namespace {

// Plain globals: written once at start-up before other threads use them.
bool g_known = false;
bool g_open_at_start = false;
dev_t g_dev = 0;
ino_t g_ino = 0;

}  // namespace

void rememberStderr() {
  int saved_errno = errno;
  struct stat st;
  g_open_at_start = fstat(2, &st) == 0;
  if (g_open_at_start) {
    g_dev = st.st_dev;
    g_ino = st.st_ino;
  }
  g_known = true;
  errno = saved_errno;
}

bool stderrIsOriginal() {
  int saved_errno = errno;  // fstat on a closed fd sets EBADF
  struct stat st;
  bool open = fstat(2, &st) == 0;
  errno = saved_errno;
  if (!open) return false;
  if (!g_known) return true;
  return g_open_at_start && st.st_dev == g_dev && st.st_ino == g_ino;
}

}  // namespace numaperf
