// The KV-transfer model of prefill/decode disaggregation (docs/sim.md "Disaggregation: the KV
// transfer"), pinned by hand-computed figures.
#include "servebench/sim/kv_transfer.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;
using namespace std::chrono_literals;
using VirtualTime = servebench::util::TimePoint;

namespace {

Deployment kv_decode_part(SimConfig c) {
  c.disaggregation.mode = DisaggregationMode::decode;
  return make_deployment(c).value();
}

}  // namespace

TEST(KvTransfer, Llama8bBf16OnOneH200MovesAllLayersOverOneNic) {
  const KvTransferModel t = kv_transfer_model(kv_decode_part({}));
  // 32 layers x 2 (K, V) x 8 KV heads x 128 dims x 2 B = 131,072 B per token; one GPU holds all of it.
  EXPECT_DOUBLE_EQ(t.bytes_per_token, 131072);
  EXPECT_DOUBLE_EQ(t.bytes_per_token_per_gpu, 131072);
  // internode_gbs 50 GB/s x link efficiency 0.83; three hops of 5 µs.
  EXPECT_DOUBLE_EQ(t.link_bytes_per_s, 41.5e9);
  EXPECT_EQ(t.latency, 15us);
  // 1,024 tokens: 134,217,728 B / 41.5 GB/s = 3.2341 ms, + 15 µs.
  const double ms = std::chrono::duration<double, std::milli>(t.time(1024)).count();
  EXPECT_NEAR(ms, 3.2492, 1e-3);
}

TEST(KvTransfer, TensorParallelGqaSplitsTheBytesOverTheGpusNics) {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.tp_size = 8;
  const KvTransferModel t = kv_transfer_model(kv_decode_part(c));
  EXPECT_DOUBLE_EQ(t.bytes_per_token, 80.0 * 2 * 8 * 128 * 2);  // 327,680 B
  EXPECT_DOUBLE_EQ(t.bytes_per_token_per_gpu, 80.0 * 2 * 1 * 128 * 2);  // one KV head per GPU
  EXPECT_EQ(t.gpus, 8);
}

TEST(KvTransfer, MlaLatentIsReplicatedSoEveryGpuReceivesAllOfItAndFp8HalvesIt) {
  SimConfig c;
  c.model = "deepseek-v3";
  c.tp_size = 8;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  const KvTransferModel t = kv_transfer_model(kv_decode_part(c));
  EXPECT_DOUBLE_EQ(t.bytes_per_token, 61.0 * (512 + 64));  // 35,136 B: one latent per layer, 1 B each
  EXPECT_DOUBLE_EQ(t.bytes_per_token_per_gpu, t.bytes_per_token);
  c.kv_cache_dtype = KvCacheDtype::auto_dtype;
  EXPECT_DOUBLE_EQ(kv_transfer_model(kv_decode_part(c)).bytes_per_token_per_gpu, 2 * t.bytes_per_token_per_gpu);
}

TEST(KvTransfer, PipelineStagesEachReceiveTheirOwnLayers) {
  SimConfig c;
  c.model = "llama-3.1-70b";
  c.tp_size = 2;
  c.pp_size = 4;
  const KvTransferModel t = kv_transfer_model(kv_decode_part(c));
  EXPECT_DOUBLE_EQ(t.bytes_per_token_per_gpu, 20.0 * 2 * 4 * 128 * 2);  // 20 layers, 4 KV heads per GPU
}

TEST(KvTransfer, FakeBackendMovesNothingAndTakesNoTime) {
  SimConfig c;
  c.disaggregation.transfer_backend = "fake";
  const KvTransferModel t = kv_transfer_model(kv_decode_part(c));
  EXPECT_FALSE(t.moves_bytes);
  EXPECT_EQ(t.time(100000), 0ns);
  KvTransferLink link(t);
  EXPECT_EQ(link.arrival(VirtualTime{} + 5ms, 100000), VirtualTime{} + 5ms);
}

TEST(KvTransferLink, TransfersIntoOneDecodeServerQueueOnItsLink) {
  const KvTransferModel t = kv_transfer_model(kv_decode_part({}));
  KvTransferLink link(t);
  const VirtualTime start{};
  const auto first = link.arrival(start, 1000);
  const auto second = link.arrival(start, 1000);  // asked at the same time: its bytes follow the first's
  EXPECT_EQ(first - start, t.time(1000));
  EXPECT_EQ(second - start, 2 * t.wire_time(1000) + t.latency);
  const auto later = link.arrival(start + 1s, 1000);  // an idle link again
  EXPECT_EQ(later - (start + 1s), t.time(1000));
}

TEST(Disaggregation, FlagsAreCheckedAsSglangSpellsThem) {
  EXPECT_EQ(parse_disaggregation_mode("prefill").value(), DisaggregationMode::prefill);
  EXPECT_EQ(parse_disaggregation_mode("null").value(), DisaggregationMode::none);
  EXPECT_FALSE(parse_disaggregation_mode("both"));
  SimConfig c;
  c.disaggregation.transfer_backend = "carrier-pigeon";
  const auto d = make_deployment(c);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("--disaggregation-transfer-backend"), std::string::npos) << d.error().message;
}
