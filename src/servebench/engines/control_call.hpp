#pragma once
// Blocking control-plane calls shared by the engine adapters (internal to engines): one request
// through http::Exchange, with failures that name the method, URL, status and body.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "servebench/engines/adapter.hpp"
#include "servebench/http/exchange.hpp"
#include "servebench/util/result.hpp"
#include "servebench/wire/prometheus.hpp"

namespace servebench::engines {

inline constexpr std::chrono::milliseconds k_control_timeout{30'000};
inline constexpr std::chrono::milliseconds k_poll_interval{250};

// Any status comes back; fails only when the exchange does (unreachable, timeout).
util::Result<http::Response> call(http::Exchange& ex, http::Method method, std::string_view target,
                                  std::string body = {}, std::chrono::milliseconds timeout = k_control_timeout);
// "POST http://127.0.0.1:30000/flush_cache: HTTP 400: <first 200 bytes of the body>".
std::string describe_status(const http::Exchange& ex, http::Method method, std::string_view target,
                            const http::Response& response);
// A 2xx JSON body, else a failure naming the route.
util::Result<boost::json::value> get_json(http::Exchange& ex, std::string_view target);
util::Result<boost::json::value> post_json(http::Exchange& ex, std::string_view target, std::string body);
// GET /metrics parsed; a 404 or 501 (route switched off) fails with `enable_hint` (e.g. "start SGLang with
// --enable-metrics").
util::Result<std::vector<wire::Sample>> scrape_metrics(http::Exchange& ex, std::string_view enable_hint);
// Calls `ready` until it says true, pausing k_poll_interval between calls; fails with
// "<what>: still not done after the deadline" or with `ready`'s own failure.
util::Result<void> poll_until(const util::Clock& clock, Pacer& pacer, util::TimePoint deadline,
                              const std::function<util::Result<bool>()>& ready, std::string_view what);
// Δ of one counter, or nullopt when either side lacks it.
std::optional<double> delta(const std::optional<double>& before, const std::optional<double>& after);
// hit / queried, failing when a counter is missing or nothing was queried.
util::Result<double> ratio_of_deltas(std::optional<double> hit, std::optional<double> queried,
                                     std::string_view engine, std::string_view counters);

}  // namespace servebench::engines
