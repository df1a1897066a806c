#include "servebench/wire/disaggregation_facts.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

TEST(DisaggregationFacts, APartIsReadFromSglangsServerArgument) {
  const auto info = boost::json::parse(R"({"disaggregation_mode": "decode", "disaggregation_transfer_backend": "nixl",
      "sim": {"kv_transfer_bytes_per_token": 1000, "kv_transfer_bytes_per_token_per_gpu": 500,
              "kv_transfer_link_gbs": 10, "kv_transfer_latency_us": 20}})").as_object();
  const auto d = disaggregation_of_server_info(info);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mode, "decode");
  ASSERT_TRUE(d->kv_transfer.has_value());
  EXPECT_EQ(d->kv_transfer->backend, "nixl");
  // 2,000 tokens x 500 B / 10 GB/s = 0.1 ms, + 20 µs
  EXPECT_NEAR(*d->kv_transfer->time_ms(2000), 0.12, 1e-9);
  EXPECT_FALSE(disaggregation_of_server_info(boost::json::parse(R"({"disaggregation_mode": "null"})").as_object()));
  EXPECT_FALSE(disaggregation_of_server_info(boost::json::object{}));
}

TEST(DisaggregationFacts, TheRoutersBodyIsItsFirstDecodePartsWithThePartsNested) {
  const RouterPart prefill[] = {{"http://127.0.0.1:1", R"({"disaggregation_mode": "prefill", "max_total_num_tokens": 9})"}};
  const RouterPart decode[] = {{"http://127.0.0.1:2", R"({"disaggregation_mode": "decode", "max_total_num_tokens": 7})"},
                               {"http://127.0.0.1:3", "not json"}};
  const auto info = boost::json::parse(encode_router_server_info(prefill, decode)).as_object();
  EXPECT_EQ(info.at("max_total_num_tokens").as_int64(), 7);
  EXPECT_TRUE(info.at("decode").as_array().at(1).is_null());
  const auto d = disaggregation_of_server_info(info);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mode, "router");
  EXPECT_EQ(d->prefill_urls, std::vector<std::string>{"http://127.0.0.1:1"});
  EXPECT_EQ(d->decode_urls, (std::vector<std::string>{"http://127.0.0.1:2", "http://127.0.0.1:3"}));
  EXPECT_EQ(disaggregation_from_json(to_json(*d)).decode_urls, d->decode_urls);
}

TEST(DisaggregationFacts, NoBytesMovedMeansNoTransferTime) {
  const KvTransferFacts fake{"fake", 1000, 1000, 0.0, 0.0};
  EXPECT_EQ(fake.time_ms(100000), 0.0);
  EXPECT_FALSE((KvTransferFacts{"mooncake", 1000, std::nullopt, 1.0, 1.0}.time_ms(10)));
}

}  // namespace
}  // namespace servebench::wire
