#include "servebench/sim/step_log.hpp"

#include <gtest/gtest.h>

using namespace servebench::sim;

TEST(StepLog, DecodeLineMatchesSglang) {
  StepLog l;
  l.kind = BatchKind::decode;
  l.running_req = 4;
  l.token_count = 5120;
  l.token_usage = 0.0213;
  l.cuda_graph = true;
  l.gen_throughput = 812.334;
  EXPECT_EQ(format_step_log(l),
            "Decode batch. #running-req: 4, #token: 5120, token usage: 0.02, cuda graph: True, gen throughput "
            "(token/s): 812.33, #queue-req: 0");
  l.accept_length = 3.95;
  EXPECT_NE(format_step_log(l).find("accept len: 3.95, cuda graph"), std::string::npos);
}

TEST(StepLog, PrefillLineAndRetractionWarning) {
  StepLog l;
  l.kind = BatchKind::prefill;
  l.new_seq = 1;
  l.new_tokens = 8192;
  l.queue_req = 3;
  EXPECT_EQ(format_step_log(l),
            "Prefill batch. #new-seq: 1, #new-token: 8192, #cached-token: 0, token usage: 0.00, #running-req: 0, "
            "#queue-req: 3");
  l.retracted = 2;
  EXPECT_TRUE(format_step_log(l).starts_with("KV cache pool is full. Retract requests. #retracted_reqs: 2"));
}
