#include "servebench/engines/control_call.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/json_text.hpp"

namespace servebench::engines {
namespace {

std::string_view method_name(http::Method m) { return m == http::Method::get ? "GET" : "POST"; }

bool ok_status(int status) { return status >= 200 && status < 300; }

util::Result<boost::json::value> json_body(http::Exchange& ex, http::Method method, std::string_view target,
                                           std::string body) {
  auto r = call(ex, method, target, std::move(body));
  if (!r) return std::unexpected(r.error());
  if (!ok_status(r->status)) return util::fail(describe_status(ex, method, target, *r));
  return util::parse_json(r->body, fmt::format("{} {}{}", method_name(method), ex.base_url(), target));
}

}  // namespace

util::Result<http::Response> call(http::Exchange& ex, http::Method method, std::string_view target,
                                  std::string body, std::chrono::milliseconds timeout) {
  http::Request request;
  request.method = method;
  request.target = std::string(target);
  request.body = std::move(body);
  return ex.send(request, timeout);
}

std::string describe_status(const http::Exchange& ex, http::Method method, std::string_view target,
                            const http::Response& response) {
  std::string_view body = response.body;
  if (body.size() > 200) body = body.substr(0, 200);
  while (!body.empty() && (body.back() == '\n' || body.back() == ' ')) body.remove_suffix(1);
  return fmt::format("{} {}{}: HTTP {}{}{}", method_name(method), ex.base_url(), target, response.status,
                     body.empty() ? "" : ": ", body);
}

util::Result<boost::json::value> get_json(http::Exchange& ex, std::string_view target) {
  return json_body(ex, http::Method::get, target, {});
}

util::Result<boost::json::value> post_json(http::Exchange& ex, std::string_view target, std::string body) {
  return json_body(ex, http::Method::post, target, std::move(body));
}

util::Result<std::vector<wire::Sample>> scrape_metrics(http::Exchange& ex, std::string_view enable_hint) {
  auto r = call(ex, http::Method::get, "/metrics");
  if (!r) return std::unexpected(r.error());
  // 404: no such route; 501: the route exists but is off (llama-server without --metrics).
  if (r->status == 404 || r->status == 501) {
    return util::failf(util::ErrorKind::failed, "{}; {}", describe_status(ex, http::Method::get, "/metrics", *r),
                       enable_hint);
  }
  if (!ok_status(r->status)) return util::fail(describe_status(ex, http::Method::get, "/metrics", *r));
  return wire::parse_prometheus(r->body);
}

util::Result<void> poll_until(const util::Clock& clock, Pacer& pacer, util::TimePoint deadline,
                              const std::function<util::Result<bool>()>& ready, std::string_view what) {
  for (;;) {
    auto done = ready();
    if (!done) return std::unexpected(done.error());
    if (*done) return {};
    const auto now = clock.now();
    if (now >= deadline) return util::failf(util::ErrorKind::failed, "{}: still not done after the deadline", what);
    pacer.pause(std::min<util::Nanos>(k_poll_interval, deadline - now));
  }
}

std::optional<double> delta(const std::optional<double>& before, const std::optional<double>& after) {
  if (!before || !after) return std::nullopt;
  return *after - *before;
}

util::Result<double> ratio_of_deltas(std::optional<double> hit, std::optional<double> queried,
                                     std::string_view engine, std::string_view counters) {
  if (!hit || !queried) {
    return util::failf(util::ErrorKind::failed, "{} hit rate needs the counters {} in both snapshots", engine,
                       counters);
  }
  if (*queried <= 0) {
    return util::failf(util::ErrorKind::failed, "{} counted no prompt tokens between the snapshots ({})", engine,
                       counters);
  }
  return *hit / *queried;
}

}  // namespace servebench::engines
