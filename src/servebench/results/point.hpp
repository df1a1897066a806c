#pragma once
// The ledger record `servebench.point/1` (docs/formats.md "Ledger record"): one measured, skipped or
// failed point of a campaign. Reports, recipes and users' scripts read it; keys are a contract.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "servebench/util/result.hpp"

namespace servebench::results {

inline constexpr std::string_view k_point_schema = "servebench.point/1";

enum class PointStatus { ok, failed, skipped, invalid };
std::string_view to_string(PointStatus s);
util::Result<PointStatus> parse_point_status(std::string_view s);

// Milliseconds. NaN means "undefined" (e.g. TPOT when every request produced one token) and is
// written as null.
struct LatencyStats {
  double mean = 0, median = 0, std = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};

struct Throughput {
  double request_per_s = 0, input_tok_per_s = 0, output_tok_per_s = 0, total_tok_per_s = 0;
  double output_tok_per_s_per_gpu = 0, total_tok_per_s_per_gpu = 0;
};

struct CacheCheck {
  bool flushed = false;
  std::optional<double> hit_rate;  // server-side counter deltas over the point; nullopt = unknown
  bool verified = false;           // hit_rate known and within the protocol's threshold
  int attempts = 1;
};

struct GateSummary {
  std::optional<bool> passed;  // nullopt: no gate ran
  bool required = false;
};

struct PromptInfo {
  std::string source = "random-ids";
  bool recycled = false;
};

struct ClientHealth {
  double send_lag_p99_ms = 0, read_lag_p99_ms = 0;
  bool healthy = true;
};

struct ServerRef {
  std::string engine, fingerprint, facts;  // facts: path of server_facts.json relative to the run directory
};

struct ToolInfo {
  std::string version, git;
};

struct PointRecord {
  std::string campaign, arm, scenario;
  std::int64_t isl = 0, osl = 0, concurrency = 0, effective_concurrency = 0;
  std::optional<double> request_rate;  // nullopt: closed loop
  std::optional<std::int64_t> repeat;  // 1..N under protocol.repeats N > 1; nullopt: the point runs once
  std::int64_t num_prompts = 0, completed = 0, failed = 0;
  PointStatus status = PointStatus::ok;
  std::string reason;
  std::string started_at;  // "2026-11-29T15:00:00Z"
  double duration_s = 0;
  int gpus = 1;
  LatencyStats ttft_ms, tpot_ms, itl_ms, e2e_ms;
  Throughput throughput;
  std::optional<double> accept_length;
  CacheCheck cache;
  GateSummary gate;
  PromptInfo prompts;
  ClientHealth client;
  ServerRef server;
  ToolInfo tool;
  // Keys this version does not know, kept so a rewrite never drops another version's data.
  boost::json::object extra;
};

// The identity of a point: (arm, scenario, concurrency, request_rate, repeat). The last record wins.
struct PointKey {
  std::string arm, scenario;
  std::int64_t concurrency = 0;
  std::optional<double> request_rate;
  std::optional<std::int64_t> repeat;
  friend bool operator==(const PointKey&, const PointKey&) = default;
  friend auto operator<=>(const PointKey&, const PointKey&) = default;
};
PointKey key_of(const PointRecord& r);
// "arm/scenario/c16", "arm/scenario/c16@r2.5" (open loop) or "arm/scenario/c16#2" (repeat 2): the id
// reports and recipes cite as evidence.
std::string point_id(const PointKey& k);

boost::json::object to_json(const PointRecord& r);
// One line of JSON text without the trailing newline.
std::string to_json_line(const PointRecord& r);
// Fails (bad_input) on a wrong schema or a missing/mistyped required key, naming the key.
util::Result<PointRecord> from_json(const boost::json::object& o);

}  // namespace servebench::results
