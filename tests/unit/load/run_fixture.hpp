#pragma once
// A small finished run for output tests: three requests (one failed), hand-set times in ms.
#include <chrono>

#include "servebench/load/run_result.hpp"

namespace servebench::load::testing {

inline RunResult small_run() {
  using std::chrono::milliseconds;
  RunResult r;
  r.echo.backend = "sglang";
  r.echo.model = "m";
  r.echo.base_url = "http://127.0.0.1:1";
  r.echo.num_prompts = 3;
  r.echo.max_concurrency = 2;
  r.echo.gpus = 2;
  r.echo.metric_options.gpus = 2;
  const int sent[3] = {0, 10, 20};
  const int first[3] = {100, 60, 0};
  const int last[3] = {130, 80, 0};
  for (std::uint32_t i = 0; i < 3; ++i) {
    RequestRecord rec;
    rec.index = i;
    rec.intended = rec.released = milliseconds(sent[i]) - std::chrono::microseconds(5);
    rec.sent = milliseconds(sent[i]);  // 5 µs of send lag
    rec.input_tokens_planned = 10;
    rec.output_tokens_requested = 3;
    if (i < 2) {
      rec.first_token = milliseconds(first[i]);
      rec.last_token = milliseconds(last[i]);
      rec.done = milliseconds(last[i] + 1);
      rec.output_tokens_served = 3;
      rec.input_tokens_served = 10;
      rec.token_chunks = rec.chunk_tokens = 3;
      rec.chunks = 5;
      rec.finish_reason = "length";
      const int mid = (first[i] + last[i]) / 2;
      for (int at : {first[i], mid, last[i]}) r.chunks.push_back({std::int64_t{at} * 1'000'000, i, 1});
    } else {
      rec.error = RequestError::timeout;
      rec.error_message = "request timed out after 0.1 s";
      rec.done = milliseconds(120);
    }
    r.records.push_back(rec);
  }
  r.metrics = compute_metrics(r.records, r.chunks, r.echo.metric_options);
  return r;
}

}  // namespace servebench::load::testing
