// docs/formats.md "Catalog": every example catalog in it parses, and the section shows one for
// every construct the catalog reader accepts (the console outputs beside them are checked by the
// e2e test FormatsDoc).
#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "support/markdown_blocks.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

const std::string k_doc = std::string(SERVEBENCH_SOURCE_DIR) + "/docs/formats.md";

std::vector<servebench::testing::MarkdownBlock> catalogs_of_the_doc() {
  std::vector<servebench::testing::MarkdownBlock> out;
  for (auto& b : servebench::testing::markdown_blocks(text_of(k_doc), "## Catalog (`servebench.catalog/1`)")) {
    if (b.info == "yaml" && b.text.starts_with("schema: servebench.catalog/1")) out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

TEST(FormatsDoc, EveryExampleCatalogParses) {
  const auto blocks = catalogs_of_the_doc();
  ASSERT_GE(blocks.size(), 9u);
  for (const auto& b : blocks) {
    const auto c = try_parse(b.text, "formats.md:" + std::to_string(b.line));
    EXPECT_TRUE(c) << c.error().message;
  }
}

TEST(FormatsDoc, ExamplesShowEveryConstruct) {
  std::string all;
  for (const auto& b : catalogs_of_the_doc()) all += b.text;
  for (const char* key : {"title:", "engine:", "card:", "names:", "facts:", "hardware:", "vendor:", "family:",
                          "gpus_per_node:", "match_dims:", "overlay_dims:", "options:", "label:", "disable:", "{not:",
                          "show_when:", "strip_prefixes:", "flags:", "hints:", "default:", "then:", "else:",
                          "verification:", "fragments:", "cells:", "match:", "warn:", "redirect:", "pd_role:", "notes:",
                          "nodes", "multi_node_hints:", "placeholders:", "docker:", "images:", "mounts:",
                          "extra_flags:", "lint:", "benchmark:"}) {
    EXPECT_NE(all.find(key), std::string::npos) << key << " has no example";
  }
}
