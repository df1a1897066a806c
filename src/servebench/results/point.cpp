#include "servebench/results/point.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace json = boost::json;
using util::json_double_or_null;

namespace {

constexpr std::array<std::string_view, 4> k_status_names{"ok", "failed", "skipped", "invalid"};
// Keys written by to_json; everything else in a record read from disk is preserved in `extra`.
constexpr std::array<std::string_view, 30> k_known_keys{
    "schema", "campaign", "arm", "scenario", "isl", "osl", "concurrency", "effective_concurrency",
    "request_rate", "repeat", "num_prompts", "completed", "failed", "status", "reason", "started_at", "duration_s",
    "gpus", "ttft_ms", "tpot_ms", "itl_ms", "e2e_ms", "throughput", "accept_length", "cache", "gate",
    "prompts", "client", "server", "tool"};

double number_or_nan(const json::object& o, std::string_view key) {
  return util::json_number(o, key).value_or(std::numeric_limits<double>::quiet_NaN());
}

json::object latency_json(const LatencyStats& s) {
  return {{"mean", json_double_or_null(s.mean)}, {"median", json_double_or_null(s.median)},
          {"std", json_double_or_null(s.std)},   {"p90", json_double_or_null(s.p90)},
          {"p95", json_double_or_null(s.p95)},   {"p99", json_double_or_null(s.p99)},
          {"max", json_double_or_null(s.max)}};
}

LatencyStats latency_from(const json::object& o) {
  return {number_or_nan(o, "mean"), number_or_nan(o, "median"), number_or_nan(o, "std"), number_or_nan(o, "p90"),
          number_or_nan(o, "p95"),  number_or_nan(o, "p99"),    number_or_nan(o, "max")};
}

json::object throughput_json(const Throughput& t) {
  return {{"request_per_s", json_double_or_null(t.request_per_s)},
          {"input_tok_per_s", json_double_or_null(t.input_tok_per_s)},
          {"output_tok_per_s", json_double_or_null(t.output_tok_per_s)},
          {"total_tok_per_s", json_double_or_null(t.total_tok_per_s)},
          {"output_tok_per_s_per_gpu", json_double_or_null(t.output_tok_per_s_per_gpu)},
          {"total_tok_per_s_per_gpu", json_double_or_null(t.total_tok_per_s_per_gpu)}};
}

Throughput throughput_from(const json::object& o) {
  return {number_or_nan(o, "request_per_s"),    number_or_nan(o, "input_tok_per_s"),
          number_or_nan(o, "output_tok_per_s"), number_or_nan(o, "total_tok_per_s"),
          number_or_nan(o, "output_tok_per_s_per_gpu"), number_or_nan(o, "total_tok_per_s_per_gpu")};
}

json::value optional_number(const std::optional<double>& v) {
  return v ? json_double_or_null(*v) : json::value(nullptr);
}

const json::object& child(const json::object& o, std::string_view key) {
  static const json::object k_empty;
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_object() ? v->get_object() : k_empty;
}

util::Result<std::string> required_string(const json::object& o, std::string_view key) {
  if (auto s = util::json_string(o, key)) return *s;
  return util::failf(util::ErrorKind::bad_input, "ledger record needs string '{}'", key);
}

void read_nested(const json::object& o, PointRecord& r) {
  r.ttft_ms = latency_from(child(o, "ttft_ms"));
  r.tpot_ms = latency_from(child(o, "tpot_ms"));
  r.itl_ms = latency_from(child(o, "itl_ms"));
  r.e2e_ms = latency_from(child(o, "e2e_ms"));
  r.throughput = throughput_from(child(o, "throughput"));
  const auto& cache = child(o, "cache");
  r.cache.flushed = util::json_bool(cache, "flushed").value_or(false);
  r.cache.hit_rate = util::json_number(cache, "hit_rate");
  r.cache.verified = util::json_bool(cache, "verified").value_or(false);
  r.cache.attempts = static_cast<int>(util::json_int(cache, "attempts").value_or(1));
  const auto& gate = child(o, "gate");
  r.gate.passed = util::json_bool(gate, "passed");
  r.gate.required = util::json_bool(gate, "required").value_or(false);
  const auto& prompts = child(o, "prompts");
  r.prompts.source = util::json_string(prompts, "source").value_or("");
  r.prompts.recycled = util::json_bool(prompts, "recycled").value_or(false);
  const auto& client = child(o, "client");
  r.client.send_lag_p99_ms = number_or_nan(client, "send_lag_p99_ms");
  r.client.read_lag_p99_ms = number_or_nan(client, "read_lag_p99_ms");
  r.client.healthy = util::json_bool(client, "healthy").value_or(true);
  const auto& server = child(o, "server");
  r.server.engine = util::json_string(server, "engine").value_or("");
  r.server.fingerprint = util::json_string(server, "fingerprint").value_or("");
  r.server.facts = util::json_string(server, "facts").value_or("");
  const auto& tool = child(o, "tool");
  r.tool.version = util::json_string(tool, "version").value_or("");
  r.tool.git = util::json_string(tool, "git").value_or("");
}

}  // namespace

std::string_view to_string(PointStatus s) { return k_status_names[static_cast<std::size_t>(s)]; }

util::Result<PointStatus> parse_point_status(std::string_view s) {
  for (std::size_t i = 0; i < k_status_names.size(); ++i) {
    if (k_status_names[i] == s) return static_cast<PointStatus>(i);
  }
  return util::failf(util::ErrorKind::bad_input, "unknown point status '{}'; expected ok, failed, skipped or invalid", s);
}

PointKey key_of(const PointRecord& r) { return {r.arm, r.scenario, r.concurrency, r.request_rate, r.repeat}; }

std::string point_id(const PointKey& k) {
  std::string id = fmt::format("{}/{}/c{}", k.arm, k.scenario, k.concurrency);
  if (k.request_rate) id += fmt::format("@r{}", *k.request_rate);
  if (k.repeat) id += fmt::format("#{}", *k.repeat);
  return id;
}

json::object to_json(const PointRecord& r) {
  json::object o;
  o["schema"] = k_point_schema;
  o["campaign"] = r.campaign;
  o["arm"] = r.arm;
  o["scenario"] = r.scenario;
  o["isl"] = r.isl;
  o["osl"] = r.osl;
  o["concurrency"] = r.concurrency;
  o["effective_concurrency"] = r.effective_concurrency;
  o["request_rate"] = optional_number(r.request_rate);
  if (r.repeat) o["repeat"] = *r.repeat;  // only under protocol.repeats, so other ledgers read as before
  o["num_prompts"] = r.num_prompts;
  o["completed"] = r.completed;
  o["failed"] = r.failed;
  o["status"] = to_string(r.status);
  o["reason"] = r.reason;
  o["started_at"] = r.started_at;
  o["duration_s"] = json_double_or_null(r.duration_s);
  o["gpus"] = r.gpus;
  o["ttft_ms"] = latency_json(r.ttft_ms);
  o["tpot_ms"] = latency_json(r.tpot_ms);
  o["itl_ms"] = latency_json(r.itl_ms);
  o["e2e_ms"] = latency_json(r.e2e_ms);
  o["throughput"] = throughput_json(r.throughput);
  o["accept_length"] = optional_number(r.accept_length);
  o["cache"] = {{"flushed", r.cache.flushed}, {"hit_rate", optional_number(r.cache.hit_rate)},
                {"verified", r.cache.verified}, {"attempts", r.cache.attempts}};
  o["gate"] = {{"passed", r.gate.passed ? json::value(*r.gate.passed) : json::value(nullptr)},
               {"required", r.gate.required}};
  o["prompts"] = {{"source", r.prompts.source}, {"recycled", r.prompts.recycled}};
  o["client"] = {{"send_lag_p99_ms", json_double_or_null(r.client.send_lag_p99_ms)},
                 {"read_lag_p99_ms", json_double_or_null(r.client.read_lag_p99_ms)},
                 {"healthy", r.client.healthy}};
  o["server"] = {{"engine", r.server.engine}, {"fingerprint", r.server.fingerprint}, {"facts", r.server.facts}};
  o["tool"] = {{"version", r.tool.version}, {"git", r.tool.git}};
  for (const auto& kv : r.extra) o[kv.key()] = kv.value();
  return o;
}

std::string to_json_line(const PointRecord& r) { return util::to_json_text(to_json(r)); }

util::Result<PointRecord> from_json(const json::object& o) {
  const auto schema = util::json_string(o, "schema");
  if (!schema) return util::fail(util::ErrorKind::bad_input, "ledger record has no 'schema'");
  if (*schema != k_point_schema) {
    return util::failf(util::ErrorKind::bad_input, "ledger record schema '{}' is not {}", *schema, k_point_schema);
  }
  PointRecord r;
  auto campaign = required_string(o, "campaign");
  auto arm = required_string(o, "arm");
  auto scenario = required_string(o, "scenario");
  auto status_text = required_string(o, "status");
  for (const auto* s : {&campaign, &arm, &scenario, &status_text}) {
    if (!*s) return std::unexpected(s->error());
  }
  const auto concurrency = util::json_int(o, "concurrency");
  if (!concurrency) return util::fail(util::ErrorKind::bad_input, "ledger record needs integer 'concurrency'");
  auto status = parse_point_status(*status_text);
  if (!status) return std::unexpected(status.error());
  r.campaign = *campaign;
  r.arm = *arm;
  r.scenario = *scenario;
  r.status = *status;
  r.concurrency = *concurrency;
  r.isl = util::json_int(o, "isl").value_or(0);
  r.osl = util::json_int(o, "osl").value_or(0);
  r.effective_concurrency = util::json_int(o, "effective_concurrency").value_or(r.concurrency);
  r.request_rate = util::json_number(o, "request_rate");
  r.repeat = util::json_int(o, "repeat");
  r.num_prompts = util::json_int(o, "num_prompts").value_or(0);
  r.completed = util::json_int(o, "completed").value_or(0);
  r.failed = util::json_int(o, "failed").value_or(0);
  r.reason = util::json_string(o, "reason").value_or("");
  r.started_at = util::json_string(o, "started_at").value_or("");
  r.duration_s = number_or_nan(o, "duration_s");
  r.gpus = static_cast<int>(util::json_int(o, "gpus").value_or(1));
  r.accept_length = util::json_number(o, "accept_length");
  read_nested(o, r);
  for (const auto& kv : o) {
    const std::string_view k = kv.key();
    if (std::find(k_known_keys.begin(), k_known_keys.end(), k) == k_known_keys.end()) r.extra[k] = kv.value();
  }
  return r;
}

}  // namespace servebench::results
