#pragma once
// Internal to the campaign spec reader: the `arms:` list (launch or attach, hooks, env, gate,
// recipe key) and the naming rule shared with scenarios.
#include <string>
#include <string_view>

#include "servebench/campaign/spec.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::campaign {

// Names become directory names (arms/<arm>/, requests/<arm>/<scenario>/): [A-Za-z0-9._-]+, not "." or "..".
bool is_valid_name(std::string_view s);
// Environment variable names: [A-Za-z_][A-Za-z0-9_]*.
bool is_env_name(std::string_view s);
std::string env_name_rule(std::string_view what, std::string_view value);
// "arm name 'a b' may use only letters, digits, '.', '_' and '-'".
std::string name_rule(std::string_view what, std::string_view value);

// Reads root's `arms` into spec.arms (protocol already read); errors are noted on `root`.
void read_arms(util::YamlFields& root, CampaignSpec& spec);

}  // namespace servebench::campaign
