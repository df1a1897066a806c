#include "servebench/recipe/lookup_keys.hpp"

#include <algorithm>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

bool pattern_available(const Catalog& c, const KeyPattern& p) {
  return std::all_of(p.begin(), p.end(), [&](std::string_view dim) { return c.dim_index(dim).has_value(); });
}

}  // namespace

const std::vector<KeyPattern>& model_name_patterns() {
  static const std::vector<KeyPattern> k{{"hw", "variant", "quant"}, {"variant", "quant"}, {"hw", "quant"}, {"quant"}, {"hw"}};
  return k;
}

const std::vector<KeyPattern>& docker_image_patterns() {
  static const std::vector<KeyPattern> k{
      {"hw", "variant", "quant"}, {"variant", "quant"}, {"hw", "quant", "strategy"}, {"hw", "quant"}, {"hw"}};
  return k;
}

std::vector<std::string> lookup_keys(const Catalog& c, std::span<const std::string> selected,
                                     const std::vector<KeyPattern>& patterns) {
  std::vector<std::string> keys;
  for (const auto& p : patterns) {
    if (!pattern_available(c, p)) continue;
    std::vector<std::string> parts;
    for (const auto dim : p) parts.push_back(selected[*c.dim_index(dim)]);
    keys.push_back(util::join(parts, "|"));
  }
  keys.emplace_back("default");
  return keys;
}

const std::string* lookup(const std::vector<std::pair<std::string, std::string>>& map, const std::vector<std::string>& keys) {
  for (const auto& key : keys) {
    for (const auto& [k, v] : map) {
      if (k == key && !v.empty()) return &v;
    }
  }
  return nullptr;
}

bool key_can_match(const Catalog& c, std::string_view key, const std::vector<KeyPattern>& patterns) {
  if (key == "default") return true;
  const auto parts = util::split(key, '|');
  return std::any_of(patterns.begin(), patterns.end(), [&](const KeyPattern& p) {
    if (p.size() != parts.size() || !pattern_available(c, p)) return false;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (c.dims[*c.dim_index(p[i])].find(parts[i]) == nullptr) return false;
    }
    return true;
  });
}

std::string describe(const Catalog& c, const std::vector<KeyPattern>& patterns) {
  std::vector<std::string> out;
  for (const auto& p : patterns) {
    if (!pattern_available(c, p)) continue;
    std::vector<std::string> dims(p.begin(), p.end());
    out.push_back(util::join(dims, "|"));
  }
  out.emplace_back("default");
  return util::join(out, ", ");
}

}  // namespace servebench::recipe
