#pragma once
// The cookbook's composite keys for per-selection names: option ids of fixed dims joined by '|'
// (`b300|nvfp4`), tried in a fixed order, then `default`. Model names and Docker images use them.
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/recipe/catalog.hpp"

namespace servebench::recipe {

using KeyPattern = std::vector<std::string_view>;  // dim ids
// hw|variant|quant, variant|quant, hw|quant, quant, hw
const std::vector<KeyPattern>& model_name_patterns();
// hw|variant|quant, variant|quant, hw|quant|strategy, hw|quant, hw
const std::vector<KeyPattern>& docker_image_patterns();

// The keys of a selection (one option id per catalog dim) in lookup order, skipping patterns that
// name a dim the catalog lacks, then "default".
std::vector<std::string> lookup_keys(const Catalog& c, std::span<const std::string> selected,
                                     const std::vector<KeyPattern>& patterns);
// The first non-empty value whose key comes first in `keys`, or nullptr.
const std::string* lookup(const std::vector<std::pair<std::string, std::string>>& map, const std::vector<std::string>& keys);
// True when `key` is "default" or some selection of the catalog produces it.
bool key_can_match(const Catalog& c, std::string_view key, const std::vector<KeyPattern>& patterns);
// The patterns this catalog can use, "hw|quant, quant, hw, default", for messages.
std::string describe(const Catalog& c, const std::vector<KeyPattern>& patterns);

}  // namespace servebench::recipe
