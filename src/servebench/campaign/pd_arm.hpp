#pragma once
// A prefill/decode-disaggregated arm (docs/scale-out.md "Disaggregated arms"): instead of one
// `launch`, three commands — a prefill server, a decode server and the router in front of them —
// each with its own {port}; the router's command names the parts with {prefill_url} and
// {decode_url}. The arm is measured through the router, as one deployment.
#include <string>
#include <string_view>

#include "servebench/campaign/spec.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

inline constexpr std::string_view k_prefill_url = "{prefill_url}";
inline constexpr std::string_view k_decode_url = "{decode_url}";

// Reads an arm's `prefill`, `decode` and `router` keys into a.pd (none of them: nullopt) and checks
// them, noting errors at the key: `launch` given too, a part missing, a command that does not split,
// a part without {port}, a router that does not name both parts, a base_url without {port}. Sets
// the default base_url (the router's: http://127.0.0.1:{port}).
void read_pd_parts(util::YamlFields& arm, ArmSpec& a);

// The part's launch as an arm of its own (its command in `launch`, named "<arm>/<part>" in
// messages), for the launch planner; `router_command` has the parts' URLs already filled in.
ArmSpec pd_part_arm(const ArmSpec& arm, PdPart part, const std::string& router_command = {});

// "{prefill_url}" and "{decode_url}" in the router's command replaced.
std::string substitute_part_urls(std::string command, const std::string& prefill_url, const std::string& decode_url);

}  // namespace servebench::campaign
