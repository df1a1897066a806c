#include "servebench/report/campaign_summary.hpp"

#include <fmt/format.h>

#include "servebench/results/run_files.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/util/yaml_file.hpp"

namespace servebench::report {
namespace {

std::string scalar(const YAML::Node& map, const char* key) {
  if (!map || !map.IsMap()) return std::string(k_not_recorded);
  const YAML::Node n = map[key];
  if (!n || n.IsNull() || !n.IsScalar()) return std::string(k_not_recorded);
  return n.Scalar();
}

std::string yes_no(const YAML::Node& map, const char* key) {
  const std::string s = scalar(map, key);
  if (s == k_not_recorded) return s;
  auto b = util::parse_bool(s, key);
  return b ? (*b ? "yes" : "no") : s;
}

std::string request_settings(const YAML::Node& protocol) {
  const YAML::Node request = protocol && protocol.IsMap() ? protocol["request"] : YAML::Node();
  if (!request || !request.IsMap()) return std::string(k_not_recorded);
  std::vector<std::string> parts;
  for (const char* key : {"api", "stream", "ignore_eos", "temperature", "seed", "max_tokens"}) {
    if (request[key] && request[key].IsScalar()) parts.push_back(fmt::format("{} {}", key, request[key].Scalar()));
  }
  return parts.empty() ? std::string(k_not_recorded) : util::join(parts, ", ");
}

std::string prompts_source(const YAML::Node& protocol) {
  const YAML::Node prompts = protocol && protocol.IsMap() ? protocol["prompts"] : YAML::Node();
  const std::string source = scalar(prompts, "source");
  const std::string path = scalar(prompts, "path");
  return path == k_not_recorded ? source : fmt::format("{} ({})", source, path);
}

std::vector<std::pair<std::string, std::string>> protocol_lines(const YAML::Node& p) {
  const std::string threshold = scalar(p, "max_cache_hit_rate");
  std::vector<std::pair<std::string, std::string>> lines{
      {"cold cache (flush before every point)", yes_no(p, "cold_cache")},
      {"cache hit threshold", threshold == k_not_recorded ? threshold : "≤ " + threshold},
      {"retries after a failed verification", scalar(p, "retries")},
      {"num_prompts rule", scalar(p, "num_prompts")},
      {"warmup requests", scalar(p, "warmup_requests")},
      {"percentile method", scalar(p, "percentile")},
      {"request settings", request_settings(p)},
      {"prompts", prompts_source(p)},
  };
  // The resolved campaign file writes `repeats` only when it is not 1.
  if (const std::string repeats = scalar(p, "repeats"); repeats != k_not_recorded) {
    lines.insert(lines.begin() + 3, std::pair{std::string(k_repeats_line), repeats});
  }
  return lines;
}

}  // namespace

util::Result<CampaignSummary> parse_campaign_summary(const std::string& text, const std::string& name) {
  auto doc = util::load_yaml_string(text, name);
  if (!doc) return std::unexpected(doc.error());
  const YAML::Node& root = doc->root;
  if (root && !root.IsNull() && !root.IsMap()) {
    return std::unexpected(util::yaml_error(name, root, "a campaign file is a mapping"));
  }
  CampaignSummary out;
  out.found = true;
  out.name = scalar(root, "name");
  out.model = scalar(root, "model");
  out.protocol = protocol_lines(root && root.IsMap() ? root["protocol"] : YAML::Node());
  const YAML::Node baseline = root && root.IsMap() ? root["baseline"] : YAML::Node();
  if (baseline && baseline.IsMap()) {
    if (const std::string n = scalar(baseline, "name"); n != k_not_recorded) out.baseline_name = n;
    if (const std::string l = scalar(baseline, "ledger"); l != k_not_recorded) out.baseline_ledger = l;
  }
  return out;
}

util::Result<CampaignSummary> read_campaign_summary(const results::RunLayout& run) {
  const std::string file = run.campaign_file().string();
  auto text = results::read_campaign_file(run);
  if (!text) return std::unexpected(text.error());
  if (!*text) {
    auto empty = parse_campaign_summary("{}", file);
    empty->found = false;
    empty->name.clear();
    empty->model.clear();
    return empty;
  }
  return parse_campaign_summary(**text, file);
}

}  // namespace servebench::report
