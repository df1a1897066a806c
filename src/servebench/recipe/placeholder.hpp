#pragma once
// `{{NAME}}` placeholders in catalog flags and env (the cookbook's `placeholders` and {{MODEL_NAME}}).
// Built in: MODEL_NAME (from the model names per option), HOST_IP and PORT; catalogs may declare
// more, and may change the defaults of HOST_IP and PORT.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_model_name = "MODEL_NAME";
inline constexpr std::string_view k_host_ip = "HOST_IP";
inline constexpr std::string_view k_port = "PORT";
// The multi-node flags' placeholders: a catalog may use them without declaring them.
inline constexpr std::string_view k_node_rank = "NODE_RANK";
inline constexpr std::string_view k_node0_ip = "NODE0_IP";

// Name → value, first entry wins.
class PlaceholderValues {
 public:
  void set(std::string name, std::string value);  // replaces an existing value
  std::optional<std::string_view> get(std::string_view name) const;
  const std::vector<std::pair<std::string, std::string>>& entries() const { return m_values; }

 private:
  std::vector<std::pair<std::string, std::string>> m_values;
};

// Names of the {{NAME}} placeholders in `text`, in order of appearance (repeats kept).
std::vector<std::string> placeholder_names(std::string_view text);
// Replaces every {{NAME}} by its value; fails (bad_input) naming the first placeholder that has none.
util::Result<std::string> substitute(std::string_view text, const PlaceholderValues& values);
// Replaces every {{NAME}} that has a value, once (values are not scanned again), and leaves the
// others as written: what a cookbook page shows.
std::string interpolate(std::string_view text, const PlaceholderValues& values);

}  // namespace servebench::recipe
