#include "servebench/util/embedded_data.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

using namespace servebench::util;

TEST(EmbeddedData, HoldsTheDataDirectory) {
  ASSERT_FALSE(embedded_files().empty());
  const auto r = read_data_file("hardware.yaml");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(r->find("h200"), std::string::npos);
}

TEST(EmbeddedData, MissingFileNamesPath) {
  const auto r = read_data_file("models/no-such-model.yaml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("models/no-such-model.yaml"), std::string::npos);
}

TEST(EmbeddedData, OverrideDirectoryWins) {
  const auto dir = std::filesystem::temp_directory_path() / ("sb_data_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "models");
  std::ofstream(dir / "models" / "mine.yaml") << "name: mine\n";
  ::setenv("SERVEBENCH_DATA_DIR", dir.c_str(), 1);
  const auto r = read_data_file("models/mine.yaml");
  const auto listed = list_data_files("models/");
  ::unsetenv("SERVEBENCH_DATA_DIR");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, "name: mine\n");
  EXPECT_NE(std::find(listed.begin(), listed.end(), "models/mine.yaml"), listed.end());
}
