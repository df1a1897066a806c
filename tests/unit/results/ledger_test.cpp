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

TEST(Ledger, AUtf8ByteOrderMarkDoesNotCostTheFirstRecord) {
  std::string text = "\xEF\xBB\xBF" + to_json_line(point("a", 1, PointStatus::ok, 10)) + "\n";
  text += to_json_line(point("a", 8, PointStatus::ok, 80)) + "\n";
  const Ledger l = parse_ledger(text);
  EXPECT_EQ(l.records.size(), 2u);
  EXPECT_TRUE(l.issues.empty());
  const auto path = temp_file("bom.jsonl");
  ASSERT_TRUE(servebench::util::write_file_atomic(path, text));
  const auto streamed = read_latest(path);
  ASSERT_TRUE(streamed);
  EXPECT_EQ(streamed->records.size(), 2u);
  EXPECT_TRUE(streamed->issues.empty());
}

TEST(Ledger, ADeviceIsNotALedger) {
  for (const auto& read : {read_ledger, read_latest}) {
    const auto l = read("/dev/zero");
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().kind, servebench::util::ErrorKind::bad_input);
    EXPECT_EQ(l.error().message, "cannot read /dev/zero: not a regular file");
  }
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

TEST(Ledger, StreamedReadKeepsTheLatestRecordsOfTheWholeRead) {
  const auto path = temp_file("stream.jsonl");
  std::string text;
  text += to_json_line(point("a", 1, PointStatus::invalid, 10)) + "\n";
  text += R"({"schema":"servebench.cursor/1","offset":7})" "\n";
  text += "{not json\n\n";
  text += to_json_line(point("a", 8, PointStatus::ok, 80)) + "\n";
  text += to_json_line(point("a", 1, PointStatus::ok, 11)) + "\n";
  const std::string torn = to_json_line(point("b", 2, PointStatus::ok, 5));
  text += torn.substr(0, torn.size() / 2);
  ASSERT_TRUE(servebench::util::write_file_atomic(path, text));
  const auto streamed = read_latest(path);
  ASSERT_TRUE(streamed);
  const Ledger whole = parse_ledger(text);
  const auto latest = whole.latest();
  ASSERT_EQ(streamed->records.size(), latest.size());
  for (std::size_t i = 0; i < latest.size(); ++i) EXPECT_EQ(to_json_line(streamed->records[i]), to_json_line(latest[i]));
  EXPECT_DOUBLE_EQ(streamed->records[0].throughput.output_tok_per_s, 11);
  ASSERT_EQ(streamed->others.size(), 1u);
  EXPECT_EQ(streamed->others[0].at("offset").as_int64(), 7);
  ASSERT_EQ(streamed->issues.size(), whole.issues.size());
  for (std::size_t i = 0; i < whole.issues.size(); ++i) EXPECT_EQ(streamed->issues[i].message, whole.issues[i].message);
  EXPECT_NE(streamed->issues.back().message.find("line 7: torn"), std::string::npos);
  EXPECT_TRUE(read_latest(temp_file("none.jsonl")).value().records.empty());
}
