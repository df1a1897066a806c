#include "servebench/results/ledger.hpp"

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "servebench/util/file_io.hpp"

using namespace servebench::results;
namespace fs = std::filesystem;

namespace {
PointRecord point(const std::string& arm, std::int64_t c, PointStatus s, double out_tps) {
  PointRecord r;
  r.campaign = "t";
  r.arm = arm;
  r.scenario = "chat";
  r.concurrency = c;
  r.status = s;
  r.throughput.output_tok_per_s = out_tps;
  return r;
}

fs::path temp_file(const char* name) {
  const auto dir = fs::temp_directory_path() / ("sb_ledger_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto p = dir / name;
  fs::remove(p);
  return p;
}
}  // namespace

TEST(Ledger, LastRecordPerPointWinsInFirstSeenOrder) {
  std::string text;
  text += to_json_line(point("a", 1, PointStatus::invalid, 10)) + "\n";
  text += to_json_line(point("a", 8, PointStatus::ok, 80)) + "\n";
  text += to_json_line(point("a", 1, PointStatus::ok, 11)) + "\n";
  const Ledger l = parse_ledger(text);
  EXPECT_EQ(l.records.size(), 3u);
  const auto latest = l.latest();
  ASSERT_EQ(latest.size(), 2u);
  EXPECT_EQ(latest[0].concurrency, 1);
  EXPECT_EQ(latest[0].status, PointStatus::ok);
  EXPECT_DOUBLE_EQ(latest[0].throughput.output_tok_per_s, 11);
  EXPECT_TRUE(l.issues.empty());
}

TEST(Ledger, TornLastLineIsReportedAndIgnored) {
  std::string text = to_json_line(point("a", 1, PointStatus::ok, 10)) + "\n";
  const std::string second = to_json_line(point("a", 8, PointStatus::ok, 80));
  text += second.substr(0, second.size() / 2);
  const Ledger l = parse_ledger(text);
  ASSERT_EQ(l.records.size(), 1u);
  ASSERT_EQ(l.issues.size(), 1u);
  EXPECT_EQ(l.issues[0].line, 2u);
  EXPECT_NE(l.issues[0].message.find("torn"), std::string::npos);
}

TEST(Ledger, GarbageInTheMiddleIsSkippedNotFatal) {
  std::string text = "{not json\n" + to_json_line(point("a", 1, PointStatus::ok, 10)) + "\n";
  const Ledger l = parse_ledger(text);
  EXPECT_EQ(l.records.size(), 1u);
  ASSERT_EQ(l.issues.size(), 1u);
  EXPECT_NE(l.issues[0].message.find("line 1"), std::string::npos);
}

TEST(Ledger, OtherSchemasAreKeptApart) {
  std::string text = R"({"schema":"servebench.cursor/1","next_window":42})" "\n";
  text += to_json_line(point("a", 1, PointStatus::ok, 10)) + "\n";
  const Ledger l = parse_ledger(text);
  ASSERT_EQ(l.others.size(), 1u);
  EXPECT_EQ(l.others[0].at("next_window").as_int64(), 42);
  EXPECT_EQ(l.records.size(), 1u);
}

TEST(Ledger, AppendAfterTornLineStartsAFreshLine) {
  const auto path = temp_file("torn.jsonl");
  ASSERT_TRUE(servebench::util::append_durable(path, R"({"schema":"servebench.point/1","arm":)"));
  ASSERT_TRUE(append_point(path, point("b", 4, PointStatus::ok, 40)));
  const auto l = read_ledger(path);
  ASSERT_TRUE(l);
  ASSERT_EQ(l->records.size(), 1u);
  EXPECT_EQ(l->records[0].arm, "b");
  EXPECT_EQ(l->issues.size(), 1u);  // the torn fragment, now a complete-but-invalid line
}

TEST(Ledger, MissingFileIsEmpty) {
  const auto l = read_ledger("/nonexistent/servebench/ledger.jsonl");
  ASSERT_TRUE(l);
  EXPECT_TRUE(l->records.empty());
}
