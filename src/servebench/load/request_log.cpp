#include "servebench/load/request_log.hpp"

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::load {
namespace {

namespace json = boost::json;

json::value seconds(const std::optional<util::Nanos>& t) {
  return t ? json::value(util::to_seconds(*t)) : json::value(nullptr);
}
json::value count(const std::optional<std::int64_t>& v) { return v ? json::value(*v) : json::value(nullptr); }

json::value tpot_ms_json(const RequestRecord& r) {
  const std::int64_t n = r.output_tokens();
  if (!r.ok() || n <= 1 || !r.first_token || !r.last_token) return nullptr;
  return util::to_ms(*r.last_token - *r.first_token) / static_cast<double>(n - 1);
}

}  // namespace

json::object request_json(const RequestRecord& r) {
  json::object o;
  o["schema"] = k_request_schema;
  o["i"] = r.index;
  o["ok"] = r.ok();
  o["error"] = r.ok() ? json::value(nullptr) : json::value(to_string(r.error));
  o["http_status"] = r.http_status;
  o["message"] = r.error_message;
  o["intended_s"] = util::to_seconds(r.intended);
  o["released_s"] = util::to_seconds(r.released);
  o["sent_s"] = util::to_seconds(r.sent);
  o["first_token_s"] = seconds(r.first_token);
  o["last_token_s"] = seconds(r.last_token);
  o["done_s"] = util::to_seconds(r.done);
  o["ttft_ms"] = r.ok() && r.first_token ? json::value(util::to_ms(*r.first_token - r.sent)) : json::value(nullptr);
  o["e2e_ms"] = r.ok() && r.last_token ? json::value(util::to_ms(*r.last_token - r.sent)) : json::value(nullptr);
  o["tpot_ms"] = tpot_ms_json(r);
  o["queue_ms"] = util::to_ms(r.released - r.intended);
  o["send_lag_ms"] = util::to_ms(r.sent - r.released);
  o["read_lag_max_ms"] = util::to_ms(r.read_lag_max);
  o["reconnects"] = r.reconnects;
  o["input_tokens_planned"] = r.input_tokens_planned;
  o["prompt_tokens"] = count(r.input_tokens_served);
  o["output_tokens_requested"] = r.output_tokens_requested;
  o["output_tokens"] = count(r.output_tokens_served);
  o["cached_tokens"] = count(r.cached_tokens);
  o["spec_verify_ct"] = count(r.spec_verify_ct);
  o["chunks"] = r.chunks;
  o["token_chunks"] = r.token_chunks;
  o["finish_reason"] = r.finish_reason;
  if (r.replica >= 0) {
    o["replica"] = r.replica;
    o["route"] = r.route;
    o["route_matched_tokens"] = r.route_matched_tokens;
  }
  return o;
}

std::string request_log_text(const RunResult& result) {
  std::string out;
  for (const RequestRecord& r : result.records) {
    util::append_json_text(out, request_json(r));
    out += '\n';
  }
  return out;
}

util::Result<void> write_request_log(const std::filesystem::path& path, const RunResult& result) {
  if (path.has_parent_path()) {
    if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  }
  return util::write_file_atomic(path, request_log_text(result));
}

}  // namespace servebench::load
