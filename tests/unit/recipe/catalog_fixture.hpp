#pragma once
// Catalogs the recipe tests share: tests/fixtures/recipe/mini.yaml (optionally with one planted
// edit) and the GLM-5.3-Flash example, parsed against the shipped data files.
#include <string>

#include <gtest/gtest.h>

#include "servebench/recipe/catalog.hpp"
#include "servebench/util/file_io.hpp"

namespace servebench::recipe::testing {

inline const std::string k_mini_path = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/mini.yaml";
inline const std::string k_example_path = std::string(SERVEBENCH_SOURCE_DIR) + "/examples/catalogs/glm-5.3-flash.yaml";

inline std::string text_of(const std::string& path) { return util::read_file(path).value_or(""); }

// `text` with the first `from` replaced by `to` (the test fails when `from` is absent).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

inline const CatalogData& shipped_data() {
  static const auto data = load_catalog_data();
  EXPECT_TRUE(data) << data.error().message;
  return *data;
}

inline util::Result<Catalog> try_parse(const std::string& text, const std::string& name = "catalog.yaml") {
  return parse_catalog(text, name, shipped_data());
}

inline Catalog parsed(const std::string& text, const std::string& name = "catalog.yaml") {
  auto c = try_parse(text, name);
  EXPECT_TRUE(c) << c.error().message;
  return c ? *c : Catalog{};
}

inline Catalog mini() { return parsed(text_of(k_mini_path), "mini.yaml"); }
inline Catalog example() { return parsed(text_of(k_example_path), "glm-5.3-flash.yaml"); }

}  // namespace servebench::recipe::testing
