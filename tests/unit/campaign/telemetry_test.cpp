#include "support/temp_dir.hpp"
#include "servebench/campaign/telemetry.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::campaign {
namespace {

// Sets PATH for one test and restores it.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& path) : m_old(std::getenv("PATH") ? std::getenv("PATH") : "") {
    setenv("PATH", path.c_str(), 1);
  }
  ~ScopedPath() { setenv("PATH", m_old.c_str(), 1); }

 private:
  std::string m_old;
};

using servebench::testing::fresh_dir;

TEST(Telemetry, WithoutNvidiaSmiItSaysSo) {
  const auto dir = fresh_dir("campaign_telemetry", "none");
  ScopedPath path((dir / "empty-bin").string());
  Telemetry t(results::RunLayout(dir), std::chrono::seconds(30));
  EXPECT_FALSE(t.available());
  t.stop();
  const auto manifest = util::parse_json(util::read_file(dir / "telemetry/telemetry.json").value_or(""), "manifest");
  ASSERT_TRUE(manifest);
  EXPECT_EQ(util::json_bool(manifest->as_object(), "available"), false);
  EXPECT_EQ(util::json_string(manifest->as_object(), "reason"), "nvidia-smi is not on PATH");
  EXPECT_FALSE(std::filesystem::exists(dir / "telemetry/gpu_inventory_idle.csv"));
}

TEST(Telemetry, WithNvidiaSmiItWritesInventoriesAndATimeline) {
  const auto dir = fresh_dir("campaign_telemetry", "fake");
  std::filesystem::create_directories(dir / "bin");
  // A stand-in nvidia-smi: a header unless noheader was asked for, then one GPU row.
  ASSERT_TRUE(util::write_file_atomic(dir / "bin/nvidia-smi",
                                      "#!/bin/sh\ncase \"$*\" in *noheader*) ;; *) echo 'header';; esac\necho '0, 1024'\n"));
  std::filesystem::permissions(dir / "bin/nvidia-smi", std::filesystem::perms::owner_all);
  ScopedPath path((dir / "bin").string() + ":/bin:/usr/bin");
  {
    Telemetry t(results::RunLayout(dir), std::chrono::seconds(1));
    EXPECT_TRUE(t.available());
  }
  EXPECT_EQ(util::read_file(dir / "telemetry/gpu_inventory_idle.csv").value_or(""), "header\n0, 1024\n");
  EXPECT_EQ(util::read_file(dir / "telemetry/gpu_inventory_final.csv").value_or(""), "header\n0, 1024\n");
  const auto timeline = util::read_file(dir / "telemetry/vram_timeline.csv").value_or("");
  EXPECT_TRUE(timeline.starts_with("header\n0, 1024\n")) << timeline;
  EXPECT_EQ(capture_output("echo hi"), "hi\n");
  EXPECT_EQ(capture_output("exit 3"), "");
}

}  // namespace
}  // namespace servebench::campaign
