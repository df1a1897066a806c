#include "servebench/load/time_base.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

using namespace servebench::load;
using namespace std::chrono_literals;

TEST(SimTimeScale, ReadFromTheSimBlockOnly) {
  EXPECT_EQ(sim_time_scale(boost::json::parse(R"({"sim":{"time_scale":0.2}})")), 0.2);
  EXPECT_EQ(sim_time_scale(boost::json::parse(R"({"sim":{"time_scale":1}})")), std::nullopt);
  EXPECT_EQ(sim_time_scale(boost::json::parse(R"({"sim":{"time_scale":0}})")), std::nullopt);
  EXPECT_EQ(sim_time_scale(boost::json::parse(R"({"time_scale":0.2})")), std::nullopt);
  EXPECT_EQ(sim_time_scale(boost::json::value(nullptr)), std::nullopt);
}

TEST(ToSimulatedTime, DividesEveryOffsetByTheScale) {
  std::vector<RequestRecord> records(1);
  records[0].intended = 10ms;
  records[0].released = 10ms;
  records[0].sent = 12ms;
  records[0].written = 13ms;
  records[0].first_token = 52ms;
  records[0].last_token = 212ms;
  records[0].done = 213ms;
  std::vector<ChunkMark> chunks{{52'000'000, 0, 1}, {212'000'000, 0, 1}};
  servebench::util::Nanos span = 203ms;
  to_simulated_time(records, chunks, span, 0.2);
  EXPECT_EQ(records[0].sent, 60ms);
  EXPECT_EQ(*records[0].first_token, 260ms);  // TTFT 40 ms real -> 200 ms simulated
  EXPECT_EQ(*records[0].last_token, 1060ms);
  EXPECT_EQ(records[0].done, 1065ms);
  EXPECT_EQ(chunks[1].at_ns, 1'060'000'000);
  EXPECT_EQ(span, 1015ms);
}
