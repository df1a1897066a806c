#include "servebench/util/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace servebench::util {
namespace {

Result<void> write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return failf(ErrorKind::io, "cannot write {}: {}", path.string(), std::strerror(errno));
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

Result<void> sync_and_close(int fd, const std::filesystem::path& path) {
  const bool synced = ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!synced) return failf(ErrorKind::io, "cannot fsync {}: {}", path.string(), std::strerror(saved));
  return {};
}

void sync_dir(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

// Only regular files: /dev/zero or a FIFO given as a ledger or dataset would be read forever
// (until bad_alloc).
Result<std::string> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (!ec && type != std::filesystem::file_type::regular && type != std::filesystem::file_type::not_found) {
    return failf(ErrorKind::bad_input, "cannot read {}: not a regular file", path.string());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return failf(ErrorKind::io, "cannot open {}: {}", path.string(), std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return failf(ErrorKind::io, "cannot create {}: {}", tmp.string(), std::strerror(errno));
  if (auto r = write_all(fd, content, tmp); !r) {
    ::close(fd);
    return r;
  }
  if (auto r = sync_and_close(fd, tmp); !r) return r;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return failf(ErrorKind::io, "cannot rename {} to {}: {}", tmp.string(), path.string(), std::strerror(errno));
  }
  sync_dir(path.parent_path());
  return {};
}

Result<void> append_durable(const std::filesystem::path& path, std::string_view content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return failf(ErrorKind::io, "cannot open {} for append: {}", path.string(), std::strerror(errno));
  if (auto r = write_all(fd, content, path); !r) {
    ::close(fd);
    return r;
  }
  return sync_and_close(fd, path);
}

Result<void> make_dirs(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return failf(ErrorKind::io, "cannot create directory {}: {}", path.string(), ec.message());
  return {};
}

}  // namespace servebench::util
