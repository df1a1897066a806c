#include "servebench/load/request_log.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "run_fixture.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::load {
namespace {

TEST(RequestLog, OneLinePerRequestWithLatenciesAndErrors) {
  const RunResult r = testing::small_run();
  const std::string text = request_log_text(r);
  const auto lines = util::split(text, '\n');
  ASSERT_EQ(lines.size(), 4u);  // three records and the empty rest after the final newline
  auto first = util::parse_json(lines[0], "line 1");
  ASSERT_TRUE(first);
  const auto& o = first->as_object();
  EXPECT_EQ(o.at("schema"), "servebench.request/1");
  EXPECT_EQ(util::json_number(o, "ttft_ms"), 100.0);
  EXPECT_EQ(util::json_number(o, "tpot_ms"), 15.0);  // (130 - 100) / 2
  EXPECT_NEAR(*util::json_number(o, "send_lag_ms"), 0.005, 1e-12);
  EXPECT_EQ(o.at("output_tokens").as_int64(), 3);
  EXPECT_TRUE(o.at("error").is_null());
  auto failed = util::parse_json(lines[2], "line 3");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->as_object().at("error"), "timeout");
  EXPECT_TRUE(failed->as_object().at("ttft_ms").is_null());
  EXPECT_TRUE(failed->as_object().at("output_tokens").is_null());
}

TEST(RequestLog, WritesTheFileCreatingDirectories) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "reqlog" / "arm" / "chat" / "c2.jsonl";
  std::filesystem::remove_all(path.parent_path());
  ASSERT_TRUE(write_request_log(path, testing::small_run()));
  auto text = util::read_file(path);
  ASSERT_TRUE(text);
  EXPECT_EQ(std::count(text->begin(), text->end(), '\n'), 3);
}

}  // namespace
}  // namespace servebench::load
