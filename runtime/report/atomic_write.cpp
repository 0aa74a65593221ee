#include "report/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace numaperf::report {

namespace {

std::atomic<unsigned> g_temp_counter{0};  // constant-initialized

std::string errnoText(int err) {
  char buf[256];
  // GNU strerror_r returns a pointer that may or may not be buf.
  const char* msg = strerror_r(err, buf, sizeof buf);
  return msg != nullptr ? std::string(msg) : std::string("error ") + std::to_string(err);
}

void setError(std::string* error, const std::string& what, const std::string& file, int err) {
  if (error != nullptr) *error = what + " '" + file + "': " + errnoText(err);
}

bool writeAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool doWrite(const std::string& path, const std::string& contents, std::string* error) {
  if (path.empty()) {
    if (error != nullptr) *error = "empty output path";
    return false;
  }
  if (path.back() == '/') {
    if (error != nullptr) *error = "output path '" + path + "' names a directory";
    return false;
  }
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string temp = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
                           "." + name + ".tmp." + std::to_string(::getpid()) + "." +
                           std::to_string(g_temp_counter.fetch_add(1));

  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    setError(error, "cannot create temporary file", temp, errno);
    return false;
  }
  const char* step = nullptr;
  int err = 0;
  if (!writeAll(fd, contents.data(), contents.size())) {
    step = "cannot write";
  } else if (::fsync(fd) != 0) {
    step = "cannot fsync";
  }
  if (step != nullptr) err = errno;
  if (::close(fd) != 0 && step == nullptr) {
    step = "cannot close";
    err = errno;
  }
  if (step == nullptr && ::rename(temp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(temp.c_str());
    setError(error, "cannot rename temporary file onto", path, err);
    return false;
  }
  if (step != nullptr) {
    ::unlink(temp.c_str());
    setError(error, step, temp, err);
    return false;
  }
  // Make the rename durable; failure here does not undo a complete write.
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

}  // namespace

bool writeFileAtomically(const std::string& path, const std::string& contents,
                         std::string* error) {
  try {
    return doWrite(path, contents, error);
  } catch (...) {
    try {
      if (error != nullptr) *error = "out of memory while writing '" + path + "'";
    } catch (...) {
    }
    return false;
  }
}

}  // namespace numaperf::report
