#include "servebench/recipe/page_json.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "servebench/recipe/page_diff.hpp"
#include "servebench/util/json_text.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

// A recording of the SGLang cookbook's GLM-5.3-Flash Deploy panel: every selection as the page shows it.
const std::string k_recording = std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/glm-5.3-flash.selections.jsonl";

std::vector<boost::json::object> recorded() {
  auto pages = read_pages(text_of(k_recording), "glm-5.3-flash.selections.jsonl");
  EXPECT_TRUE(pages) << pages.error().message;
  return pages ? *pages : std::vector<boost::json::object>{};
}

}  // namespace

TEST(CookbookSelections, GlmCatalogReproducesEveryRecordedSelection) {
  const auto reference = recorded();
  ASSERT_EQ(reference.size(), 1152u);
  const auto ours = export_pages(example());
  ASSERT_EQ(ours.size(), 1152u);
  // Every field of every selection: flags and env in order, model name, hints, nnodes, both commands
  // byte for byte, badge, warn, spec notice, greyed chips with kind and reason, snapped selection.
  const PagesDiff d = diff_pages(ours, reference);
  EXPECT_EQ(d.compared, 1152u);
  EXPECT_TRUE(d.same()) << to_text(d, "catalog", "recording").substr(0, 4000);
  // The export is the recording itself, line for line and key for key.
  std::string exported;
  for (const auto& page : ours) exported += servebench::util::to_json_text(page) + "\n";
  EXPECT_TRUE(exported == text_of(k_recording));
}

TEST(CookbookSelections, RecordingCoversEveryKindOfSelection) {
  std::size_t greyed = 0, no_cell = 0, verified = 0, with_env = 0, spec = 0;
  for (const auto& page : recorded()) {
    greyed += page.at("disabled").as_bool() ? 1 : 0;
    no_cell += page.at("cell_found").as_bool() ? 0 : 1;
    verified += page.at("verification").as_string() == "verified" ? 1 : 0;
    with_env += page.at("env").as_array().empty() ? 0 : 1;
    spec += page.contains("spec_notice") && !page.at("spec_notice").is_null() ? 1 : 0;
  }
  EXPECT_EQ(greyed, 624u);
  EXPECT_EQ(no_cell, 192u);
  EXPECT_EQ(verified, 98u);
  EXPECT_EQ(with_env, 320u);
  EXPECT_EQ(spec, 480u);
}

TEST(CookbookSelections, OneChangedHintIsFoundInEverySelectionThatShowsIt) {
  const Catalog changed = parsed(replaced(text_of(k_example_path), "Start Mooncake and place", "Start Mooncake first and place"));
  const PagesDiff d = diff_pages(export_pages(changed), recorded());
  EXPECT_EQ(d.compared, 1152u);
  ASSERT_EQ(d.differing.size(), 320u);  // hicache=l3 selections with a cell
  const auto& first = d.differing.front();
  ASSERT_EQ(first.fields.size(), 3u);
  EXPECT_EQ(first.fields[0].field, "hints");
  EXPECT_EQ(first.fields[0].detail,
            "- Start Mooncake first and place the configuration file on every serving node.; "
            "+ Start Mooncake and place the configuration file on every serving node.");
  EXPECT_EQ(first.fields[1].field, "command");
  EXPECT_EQ(first.fields[2].field, "docker_command");
}

TEST(CookbookSelections, NoCellSelectionsCarryNoCellFields) {
  const Catalog c = example();
  const auto s = parse_selection(c, "hw=h100,strategy=high-throughput,quant=nvfp4");
  ASSERT_TRUE(s);
  const auto page = to_json(c, page_view(c, *s));
  EXPECT_FALSE(page.at("cell_found").as_bool());
  EXPECT_FALSE(page.contains("nnodes"));
  EXPECT_FALSE(page.contains("warn"));
  EXPECT_FALSE(page.contains("spec_notice"));
  EXPECT_EQ(page.at("command").as_string(), k_no_command);
  EXPECT_EQ(page.at("model_name").as_string(), "RadixArk/GLM-5.3-Flash-NVFP4");
  EXPECT_EQ(page.at("snapped_selection").as_object().at("quant").as_string(), "fp8");
}

TEST(CookbookSelections, ReaderNamesTheBadLine) {
  const auto bad = read_pages("{\"selection\": {\"hw\": \"b200\"}}\n\n[1, 2]\n", "x.jsonl");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_EQ(bad.error().message, "x.jsonl:3: not a cookbook selection (a JSON object with a 'selection' object)");
  EXPECT_EQ(read_pages("{\"selection\": {\"hw\": \"b200\"}}\n", "x.jsonl")->size(), 1u);
}
