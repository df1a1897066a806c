#pragma once
// SGLang-style scheduler log data, one record per launched batch, and the pure formatter that writes
// the lines SGLang prints ("Prefill batch. ..." / "Decode batch. ..."), so users' log tooling works.
#include <chrono>
#include <cstdint>
#include <string>

namespace servebench::sim {

enum class BatchKind { prefill, decode };

struct StepLog {
  BatchKind kind = BatchKind::decode;
  std::chrono::nanoseconds at{0};        // virtual launch time since engine start
  std::chrono::nanoseconds duration{0};  // one stage's forward time
  int micro_batch = 0;
  std::int64_t new_seq = 0, new_tokens = 0, cached_tokens = 0;  // prefill part
  std::int64_t running_req = 0, queue_req = 0;
  std::int64_t token_count = 0;  // KV tokens in use
  double token_usage = 0;        // token_count / pool
  bool cuda_graph = false;
  double gen_throughput = 0;     // generated tokens/s since the previous decode log
  double accept_length = 0;      // mean tokens per verify in this batch; 0 without speculation
  std::int64_t retracted = 0;    // requests retracted to make room for this batch
  double new_token_ratio = 0;
};

// One line (two when requests were retracted: SGLang's warning comes first); no trailing newline.
std::string format_step_log(const StepLog& log);

}  // namespace servebench::sim
