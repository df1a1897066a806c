#include "servebench/results/in_service_file.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

namespace servebench::results {
namespace {
namespace fs = std::filesystem;

TEST(InServiceFile, RoundTripsBothSnapshotsAndTheVerdict) {
  const auto dir = fs::temp_directory_path() / ("sb_in_service_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const RunLayout run(dir);
  EXPECT_EQ(in_service_file(run, "e7b"), dir / "arms/e7b/in_service.json");
  InServiceRecord r{"e7b", "http://127.0.0.1:30000", "facts", ServiceSnapshot{}, std::nullopt, std::nullopt, {}};
  r.before->at = "2026-12-02T13:00:00Z";
  r.before->healthy = true;
  r.before->health_status = 200;
  r.before->facts = wire::ServerFacts{};
  r.before->facts->max_running_requests = 32;
  ASSERT_TRUE(write_in_service(in_service_file(run, "e7b"), r));
  auto open = read_in_service(in_service_file(run, "e7b"));
  ASSERT_TRUE(open && *open);
  EXPECT_FALSE((*open)->restored.has_value()) << "not checked yet";
  EXPECT_FALSE((*open)->after.has_value());

  r.after = ServiceSnapshot{"2026-12-02T14:00:00Z", false, 0, std::nullopt, "connection refused"};
  r.restored = false;
  r.differences = {"not healthy after the after hook (connection refused)"};
  ASSERT_TRUE(write_in_service(in_service_file(run, "e7b"), r));
  auto back = read_in_service(in_service_file(run, "e7b"));
  ASSERT_TRUE(back && *back);
  EXPECT_EQ((*back)->restored, std::optional<bool>(false));
  EXPECT_EQ((*back)->before->facts->max_running_requests, 32);
  EXPECT_EQ((*back)->after->error, "connection refused");
  EXPECT_FALSE((*back)->after->facts.has_value());
  EXPECT_EQ((*back)->differences, r.differences);
  auto none = read_in_service(in_service_file(run, "other"));
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace servebench::results
