#include "servebench/sim/deployment.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

namespace {

SimConfig glm_tp2pp4() {
  SimConfig c;
  c.hardware = "rtx-pro-6000";
  c.model = "glm-5.3-flash";
  c.tp_size = 2;
  c.pp_size = 4;
  c.mem_fraction_static = 0.85;
  c.kv_cache_dtype = KvCacheDtype::fp8_e4m3;
  return c;
}

SimConfig glm_e7b() {
  SimConfig c = glm_tp2pp4();
  c.tp_size = 8;
  c.pp_size = 1;
  c.mem_fraction_static = 0.90;
  c.speculative_algorithm = SpecAlgorithm::eagle3;
  c.speculative_num_steps = 4;
  c.speculative_eagle_topk = 1;
  c.speculative_num_draft_tokens = 5;
  return c;
}

}  // namespace

TEST(Deployment, GlmTp2Pp4PoolMatchesTheBrief) {
  auto d = make_deployment(glm_tp2pp4());
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_NEAR(static_cast<double>(d->memory.max_total_num_tokens), 1'040'384.0, 0.10 * 1'040'384.0);
}

TEST(Deployment, GlmTp8Eagle3PoolMatchesTheBrief) {
  auto d = make_deployment(glm_e7b());
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_NEAR(static_cast<double>(d->memory.max_total_num_tokens), 276'480.0, 0.10 * 276'480.0);
}
