#include "servebench/load/option_parsing.hpp"

#include <chrono>

#include <boost/json.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include "servebench/load/run_settings.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::load {

using util::ErrorKind;

util::Result<std::optional<double>> parse_request_rate(std::string_view s) {
  if (util::to_lower(util::trim(s)) == "inf") return std::optional<double>{};
  auto v = util::parse_double(util::trim(s), "--request-rate");
  if (!v) return std::unexpected(v.error());
  if (auto why = setting_problem(Setting::request_rate, *v, k_bench_flags)) {
    return util::failf(ErrorKind::bad_input, "{}, got {}", *why, s);
  }
  return std::optional<double>{*v};
}

util::Result<std::vector<double>> parse_percentile_list(std::string_view s) {
  std::vector<double> out;
  for (std::string_view item : util::split(s, ',')) {
    auto v = util::parse_double(util::trim(item), "--metric-percentiles");
    if (!v) return std::unexpected(v.error());
    if (!(*v > 0 && *v <= 100)) {
      return util::failf(ErrorKind::bad_input, "--metric-percentiles: {} is not in (0, 100]", *v);
    }
    out.push_back(*v);
  }
  return out;
}

util::Result<GoodputSlo> parse_goodput(const std::vector<std::string>& items) {
  GoodputSlo slo;
  for (const std::string& item : items) {
    const auto parts = util::split(item, ':');
    if (parts.size() != 2) {
      return util::failf(ErrorKind::bad_input, "--goodput '{}' is not NAME:MS (ttft, tpot or e2e)", item);
    }
    auto ms = util::parse_double(util::trim(parts[1]), "--goodput");
    if (!ms) return std::unexpected(ms.error());
    if (!(*ms > 0)) return util::failf(ErrorKind::bad_input, "--goodput '{}': the limit must be positive", item);
    const std::string name = util::to_lower(util::trim(parts[0]));
    if (name == "ttft") {
      slo.ttft = util::from_ms(*ms);
    } else if (name == "tpot") {
      slo.tpot = util::from_ms(*ms);
    } else if (name == "e2e" || name == "e2el") {
      slo.e2e = util::from_ms(*ms);
    } else {
      return util::failf(ErrorKind::bad_input, "--goodput '{}': unknown metric '{}' (ttft, tpot or e2e)", item, name);
    }
  }
  return slo;
}

std::string default_output_name(std::string_view backend, std::string_view dataset, std::int64_t num_prompts,
                                std::int64_t input_len, std::int64_t output_len, util::WallTime now) {
  const std::string mmdd = fmt::format("{:%m%d}", std::chrono::time_point_cast<std::chrono::seconds>(now));
  if (dataset == "random" || dataset == "random-ids") {
    return fmt::format("{}_{}_{}_{}_{}.jsonl", backend, mmdd, num_prompts, input_len, output_len);
  }
  return fmt::format("{}_{}_{}_{}.jsonl", backend, mmdd, num_prompts, dataset);
}

std::optional<int> gpus_from_server_info(const boost::json::value& server_info) {
  if (!server_info.is_object()) return std::nullopt;
  const auto& o = server_info.as_object();
  const auto tp = util::json_int(o, "tp_size");
  if (!tp || *tp <= 0) return std::nullopt;
  const auto pp = util::json_int(o, "pp_size").value_or(1);
  return static_cast<int>(*tp * std::max<std::int64_t>(1, pp));
}

}  // namespace servebench::load
