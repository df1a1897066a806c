#include "servebench/util/file_io.hpp"

#include <filesystem>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace servebench::util;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir(const char* name) {
  auto d = fs::temp_directory_path() / fmt::format("sb_fileio_{}_{}", name, ::getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST(FileIo, AtomicWriteReplacesContent) {
  const auto d = temp_dir("atomic");
  ASSERT_TRUE(write_file_atomic(d / "f", "one"));
  ASSERT_TRUE(write_file_atomic(d / "f", "two"));
  EXPECT_EQ(*read_file(d / "f"), "two");
  EXPECT_FALSE(fs::exists(d / "f.tmp"));
}

TEST(FileIo, AppendDurableAppends) {
  const auto d = temp_dir("append");
  ASSERT_TRUE(append_durable(d / "l", "a\n"));
  ASSERT_TRUE(append_durable(d / "l", "b\n"));
  EXPECT_EQ(*read_file(d / "l"), "a\nb\n");
}

TEST(FileIo, ReadMissingFileFailsNamingIt) {
  const auto r = read_file("/nonexistent/servebench/file");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("/nonexistent/servebench/file"), std::string::npos);
}
