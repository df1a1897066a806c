#include "servebench/sim/step_log.hpp"

#include <fmt/format.h>

namespace servebench::sim {

std::string format_step_log(const StepLog& log) {
  std::string out;
  if (log.retracted > 0) {
    out = fmt::format("KV cache pool is full. Retract requests. #retracted_reqs: {}, #new_token_ratio: {:.4f}\n",
                      log.retracted, log.new_token_ratio);
  }
  if (log.kind == BatchKind::prefill) {
    out += fmt::format(
        "Prefill batch. #new-seq: {}, #new-token: {}, #cached-token: {}, token usage: {:.2f}, #running-req: {}, "
        "#queue-req: {}",
        log.new_seq, log.new_tokens, log.cached_tokens, log.token_usage, log.running_req, log.queue_req);
    return out;
  }
  out += fmt::format("Decode batch. #running-req: {}, #token: {}, token usage: {:.2f}, ", log.running_req,
                     log.token_count, log.token_usage);
  if (log.accept_length > 0) out += fmt::format("accept len: {:.2f}, ", log.accept_length);
  out += fmt::format("cuda graph: {}, gen throughput (token/s): {:.2f}, #queue-req: {}", log.cuda_graph ? "True" : "False",
                     log.gen_throughput, log.queue_req);
  return out;
}

}  // namespace servebench::sim
