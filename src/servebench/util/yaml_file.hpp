#pragma once
// Strict YAML reading for campaign specs, catalogs and data cards: every error names
// file:line:col and what to change, and unknown keys are errors (a typo must not be ignored).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "servebench/util/result.hpp"

namespace servebench::util {

struct YamlDoc {
  std::string file;  // the name used in messages
  YAML::Node root;
};

// Parses a file / a string; syntax errors and a key repeated in one mapping become
// "file:line:col: message" (bad_input).
Result<YamlDoc> load_yaml_file(const std::string& path);
Result<YamlDoc> load_yaml_string(const std::string& text, const std::string& name);

// "file:line:col" of a node (1-based), or just "file" when the node has no position.
std::string yaml_where(const std::string& file, const YAML::Node& node);
// A bad_input error "file:line:col: message".
Error yaml_error(const std::string& file, const YAML::Node& node, std::string_view message);

// The list under `key` of a document whose top level must be a mapping ("gpus: [...]"); an error
// naming the key otherwise (a document that is a scalar or a list has no keys to read).
Result<YAML::Node> yaml_top_list(const YamlDoc& doc, const std::string& key);

// Reads a mapping key by key; remembers which keys were read so finish() can reject the rest.
class YamlMap {
 public:
  // Fails when `node` is not a mapping; `what` names it in messages ("scenario", "arm 'e7b'").
  static Result<YamlMap> of(const std::string& file, const YAML::Node& node, std::string what);

  bool has(const std::string& key) const;
  // The raw child (marks the key as known); an undefined node when absent.
  YAML::Node node(const std::string& key);

  Result<std::string> required_string(const std::string& key);
  Result<std::int64_t> required_int(const std::string& key);
  Result<double> required_double(const std::string& key);
  Result<std::optional<std::string>> optional_string(const std::string& key);
  Result<std::optional<std::int64_t>> optional_int(const std::string& key);
  Result<std::optional<double>> optional_double(const std::string& key);
  Result<std::optional<bool>> optional_bool(const std::string& key);
  // A sequence of integers, or a single integer as a one-element list.
  Result<std::vector<std::int64_t>> int_list(const std::string& key);
  Result<std::vector<std::string>> string_list(const std::string& key);

  // Fails at the first key that was never read, listing the keys that are allowed.
  Result<void> finish() const;

  const std::string& file() const { return m_file; }
  const YAML::Node& self() const { return m_node; }

 private:
  YamlMap(std::string file, YAML::Node node, std::string what);
  Error type_error(const YAML::Node& n, const std::string& key, std::string_view expected) const;

  std::string m_file;
  YAML::Node m_node;
  std::string m_what;
  mutable std::set<std::string> m_known;
};

// Scalar conversions with positioned errors (used by YamlMap, and for list items).
Result<std::string> yaml_string(const std::string& file, const YAML::Node& n, std::string_view what);
Result<std::int64_t> yaml_int(const std::string& file, const YAML::Node& n, std::string_view what);
Result<double> yaml_double(const std::string& file, const YAML::Node& n, std::string_view what);
Result<bool> yaml_bool(const std::string& file, const YAML::Node& n, std::string_view what);

}  // namespace servebench::util
