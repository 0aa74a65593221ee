#include "common/log.h"

#include "common/stderr_identity.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <unistd.h>

namespace numaperf {

void logMessage(const char *fmt, ...) {
  // fd 2 closed, or reused by the program for one of its files: stay silent.
  if (!stderrIsOriginal()) return;
  int saved_errno = errno;  // the program must never see errno change
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "numaperf: ");
  va_list ap;
  va_start(ap, fmt);
  int m = vsnprintf(buf + n, sizeof buf - n - 1, fmt, ap);
  va_end(ap);
  if (m < 0) m = 0;
  size_t len = n + (size_t)m;
  if (len > sizeof buf - 2) len = sizeof buf - 2;
  buf[len++] = '\n';
  const char *p = buf;
  while (len > 0) {
    ssize_t w = write(2, p, len);
    if (w <= 0) break;
    p += w;
    len -= (size_t)w;
  }
  errno = saved_errno;
}

}  // namespace numaperf
