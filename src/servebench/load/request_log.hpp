#pragma once
// Per-request JSONL (`servebench.request/1`, one object per request): `--per-request FILE` and the
// campaign's requests/<arm>/<scenario>/c<C>.jsonl. Times are seconds from the run origin; latencies
// in ms; absent values are null.
//
//   {"schema":"servebench.request/1","i":0,"ok":true,"error":null,"http_status":200,"message":"",
//    "intended_s":0.0,"released_s":0.0,"sent_s":0.0001,"first_token_s":0.05,"last_token_s":1.2,"done_s":1.2,
//    "ttft_ms":50.0,"e2e_ms":1200.0,"tpot_ms":4.5,"queue_ms":0.0,"send_lag_ms":0.01,"read_lag_max_ms":0.002,
//    "input_tokens_planned":1024,"prompt_tokens":1024,"output_tokens_requested":256,"output_tokens":256,
//    "cached_tokens":0,"spec_verify_ct":null,"chunks":258,"token_chunks":256,"finish_reason":"length"}
// A fleet behind a router (`plan --replicas`) adds "replica":2,"route":"prefix","route_matched_tokens":2048.
#include <filesystem>
#include <string>

#include <boost/json/object.hpp>

#include "servebench/load/request_record.hpp"
#include "servebench/load/run_result.hpp"
#include "servebench/util/result.hpp"

namespace servebench::load {

inline constexpr std::string_view k_request_schema = "servebench.request/1";

boost::json::object request_json(const RequestRecord& r);
// Every record as JSONL text (one line each, '\n'-terminated).
std::string request_log_text(const RunResult& result);
// Writes the log to `path` atomically (replacing an earlier attempt of the same point); fails
// with the I/O error.
util::Result<void> write_request_log(const std::filesystem::path& path, const RunResult& result);

}  // namespace servebench::load
