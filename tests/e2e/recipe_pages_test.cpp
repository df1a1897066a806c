// End to end: the cookbook page commands. `recipe export --format cookbook-selections` of the example
// catalog is the recording of the SGLang cookbook page byte for byte, `recipe diff` finds no
// difference between them and names the one a planted edit makes, `recipe render` prints the page's
// commands, and `recipe lint` reports every planted mistake of the planted fixture once.
#include <string>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "campaign_process.hpp"

namespace json = boost::json;
using namespace servebench;
using namespace servebench::e2e;

namespace {

const std::string k_glm_catalog = SERVEBENCH_SOURCE_DIR "/examples/catalogs/glm-5.3-flash.yaml";
const std::string k_recording = SERVEBENCH_SOURCE_DIR "/tests/fixtures/recipe/glm-5.3-flash.selections.jsonl";
const std::string k_planted = SERVEBENCH_SOURCE_DIR "/tests/fixtures/recipe/glm-5.3-flash.planted.yaml";

}  // namespace

TEST(RecipePages, ExportIsTheRecordedCookbookPage) {
  const auto dir = campaign_temp_dir("recipe_export_pages");
  const auto r = run_servebench({"recipe", "export", k_glm_catalog, "--format", "cookbook-selections", "-o", "glm.jsonl"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1152 selection(s) written to glm.jsonl"), std::string::npos) << r.err;
  EXPECT_TRUE(util::read_file(dir / "glm.jsonl").value_or("") == util::read_file(k_recording).value_or("x"));
  const auto same = run_servebench({"recipe", "diff", k_glm_catalog, k_recording}, dir);
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_TRUE(same.out.starts_with("1152 selections compared, 0 differ")) << same.out;
}

TEST(RecipePages, DiffNamesTheSelectionsAnEditChanges) {
  const auto dir = campaign_temp_dir("recipe_diff_pages");
  std::string text = util::read_file(k_glm_catalog).value_or("");
  const std::string from = "--mem-fraction-static 0.70,";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "--mem-fraction-static 0.72,");
  write_text(dir / "edited.yaml", text);
  const auto r = run_servebench({"recipe", "diff", "edited.yaml", k_recording, "--format", "json"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto v = util::parse_json(r.out, "stdout");
  ASSERT_TRUE(v) << r.out;
  const auto& differing = v->as_object().at("differing").as_array();
  EXPECT_EQ(differing.size(), 48u);  // h100 low latency: 24 overlay combinations x 2 kvDsaPair (one greyed)
  const auto& fields = differing[0].as_object().at("fields").as_array();
  EXPECT_EQ(fields[0].as_object().at("field").as_string(), "flags");
  EXPECT_EQ(fields[0].as_object().at("detail").as_string(), "- --mem-fraction-static 0.72; + --mem-fraction-static 0.70");
}

TEST(RecipePages, RenderPrintsThePagesCommands) {
  const auto dir = campaign_temp_dir("recipe_render_page");
  const auto plain = run_servebench({"recipe", "render", k_glm_catalog, "--select", "hw=h200,strategy=high-throughput,quant=fp8,hicache=l3"}, dir);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_TRUE(plain.out.starts_with("# Start Mooncake and place the configuration file on every serving node.\n"
                                    "SGLANG_HICACHE_MOONCAKE_CONFIG_PATH=<mooncake.json> \\\nsglang serve \\\n"))
      << plain.out;
  EXPECT_NE(plain.err.find("badge unverified"), std::string::npos) << plain.err;
  const auto docker = run_servebench({"recipe", "render", k_glm_catalog, "--select", "hw=gb300,strategy=low-latency,quant=fp8", "--format", "docker"}, dir);
  ASSERT_EQ(docker.exit_code, 0) << docker.err;
  EXPECT_NE(docker.out.find("  lmsysorg/sglang:glm-5.3-flash \\\n  sglang serve \\\n    --model-path zai-org/GLM-5.3-Flash"), std::string::npos)
      << docker.out;
  EXPECT_NE(docker.err.find("badge verified"), std::string::npos) << docker.err;
  EXPECT_NE(docker.err.find("SGLang then defaults it to 48"), std::string::npos) << docker.err;
  const auto greyed = run_servebench({"recipe", "render", k_glm_catalog, "--select", "hw=h100,strategy=low-latency,quant=nvfp4"}, dir);
  EXPECT_EQ(greyed.exit_code, 2);
  EXPECT_NE(greyed.err.find("Hopper cannot serve this checkpoint"), std::string::npos) << greyed.err;
}

TEST(RecipePages, LintReportsEveryPlantedMistakeOnce) {
  const auto dir = campaign_temp_dir("recipe_lint_planted");
  const auto r = run_servebench({"recipe", "lint", k_planted, "--format", "json"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto v = util::parse_json(r.out, "stdout");
  ASSERT_TRUE(v) << r.out;
  const auto& o = v->as_object();
  EXPECT_EQ(o.at("findings").as_array().size(), 11u) << r.out.substr(0, 3000);
  EXPECT_EQ(o.at("errors").as_int64(), 8);
  EXPECT_EQ(o.at("census").as_object().at("without_cell").as_int64(), 192);
}
