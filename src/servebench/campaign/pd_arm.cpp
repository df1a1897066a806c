#include "servebench/campaign/pd_arm.hpp"

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

bool has(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

// One part's command: it splits, has its own {port}, and only the router names the parts.
void check_part(util::YamlFields& f, PdPart part, const std::string& command) {
  const std::string key(to_string(part));
  const YAML::Node at = f.node(key);
  if (auto words = util::shell_split(command); !words || words->empty()) {
    return f.note_at(at, fmt::format("{}.{}: {}", f.what(), key, words ? "empty command" : words.error().message));
  }
  if (!has(command, k_port)) {
    return f.note_at(at, fmt::format("{}.{}: use {{port}}: each part of a disaggregated arm listens on a port of its "
                                     "own, picked by the campaign", f.what(), key));
  }
  const bool names_parts = has(command, k_prefill_url) || has(command, k_decode_url);
  if (part != PdPart::router && names_parts) {
    return f.note_at(at, fmt::format("{}.{}: {{prefill_url}} and {{decode_url}} are for the router's command",
                                     f.what(), key));
  }
  if (part == PdPart::router && !(has(command, k_prefill_url) && has(command, k_decode_url))) {
    f.note_at(at, fmt::format("{}.router: name both parts, e.g. \"servebench serve-sim --router --prefill "
                              "{{prefill_url}} --decode {{decode_url}} --port {{port}}\"", f.what()));
  }
}

}  // namespace

std::string_view to_string(PdPart p) {
  switch (p) {
    case PdPart::prefill: return "prefill";
    case PdPart::decode: return "decode";
    case PdPart::router: return "router";
  }
  return "router";
}

void read_pd_parts(util::YamlFields& f, ArmSpec& a) {
  const auto prefill = f.optional_string("prefill");
  const auto decode = f.optional_string("decode");
  const auto router = f.optional_string("router");
  if (!prefill && !decode && !router) return;
  if (a.launch) {
    return f.note_at(f.node("launch"), fmt::format("{}: give either launch or prefill, decode and router (a "
                                                   "disaggregated arm launches its three parts instead of one server)",
                                                   f.what()));
  }
  for (const auto& [key, value] : {std::pair{"prefill", &prefill}, {"decode", &decode}, {"router", &router}}) {
    if (!*value) {
      return f.note_at(f.self_node(), fmt::format("{}: a disaggregated arm needs prefill, decode and router; '{}' is "
                                                  "missing", f.what(), key));
    }
  }
  a.pd = PdLaunch{*prefill, *decode, *router};
  for (const PdPart part : k_pd_parts) check_part(f, part, a.pd->command(part));
  if (a.base_url.empty()) a.base_url = "http://127.0.0.1:{port}";
  else if (!has(a.base_url, k_port)) {
    f.note_at(f.node("base_url"), fmt::format("{}: base_url is the router's and needs its {{port}}", f.what()));
  }
}

ArmSpec pd_part_arm(const ArmSpec& arm, PdPart part, const std::string& router_command) {
  ArmSpec p = arm;
  p.pd.reset();
  p.name = fmt::format("{}/{}", arm.name, to_string(part));
  p.launch = part == PdPart::router && !router_command.empty() ? router_command : arm.pd->command(part);
  if (part != PdPart::router) p.base_url = "http://127.0.0.1:{port}";
  return p;
}

std::string substitute_part_urls(std::string command, const std::string& prefill_url, const std::string& decode_url) {
  command = util::replace_all(std::move(command), k_prefill_url, prefill_url);
  return util::replace_all(std::move(command), k_decode_url, decode_url);
}

}  // namespace servebench::campaign
