// End to end: the recipe loop. A cell of the example catalog becomes a campaign arm (`recipe
// campaign`), runs on serve-sim (`campaign run`), and `recipe status` calls it verified (sim) from that
// run's evidence; the same evidence against a copy of the catalog with one flag edited is stale with
// the flag diff; `recipe export` says the numbers are simulated. Lint is clean on the example catalog
// and reports planted problems by rule id.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "campaign_process.hpp"

namespace json = boost::json;
using namespace servebench;
using namespace servebench::e2e;

namespace {

const std::string k_catalog = SERVEBENCH_SOURCE_DIR "/examples/catalogs/glm-5.3-flash.yaml";
const std::string k_select = "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang";
const std::string k_arm = "gb300-low-latency-fp8-bf16-tilelang";
// The selection plus overlays at their defaults: what `status --filter` narrows to one selection.
const std::string k_filter = k_select + ",bcg=off,mmTransport=auto,hicache=off,dcp=off";

// `text` with the first `from` replaced by `to`; a test failure when `from` is absent.
std::string replaced_once(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not found";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The generated campaign made small: one short scenario at two concurrencies, and a fixed
// simulator seed (a serve-sim flag, so the fingerprint must not change). The simulator keeps real
// time: at a faster scale a speculative TPOT is a fraction of a millisecond of real time, and the
// client-health check (lag p99 within 10 % of the median TPOT) would rightly mark points invalid.
// Client health is not under test here, and ctest runs other tests beside this one on two cores, so
// its limit is relaxed (the campaign e2e tests do the same).
std::string shrunk_campaign(const std::string& generated) {
  std::string text = replaced_once(generated, "--sim-oracle\"", "--sim-oracle --sim-seed 7\"");
  text = replaced_once(text, "protocol:\n", "protocol:\n  client_lag_limit: 1000\n");
  const auto scenarios = text.find("\nscenarios:\n");
  EXPECT_NE(scenarios, std::string::npos) << generated;
  text.resize(scenarios == std::string::npos ? text.size() : scenarios);
  return text + "\nscenarios:\n  - {name: chat, isl: 128, osl: 32, concurrency: [1, 4]}\n";
}

json::value parse_stdout(const Finished& r) {
  auto v = util::parse_json(r.out, "stdout");
  EXPECT_TRUE(v.has_value()) << r.out << r.err;
  return v.value_or(json::value{});
}

// The one status object `recipe status --format json` prints for k_filter.
json::object status_of(const Finished& r) {
  const json::value v = parse_stdout(r);
  EXPECT_TRUE(v.is_array() && v.get_array().size() == 1) << r.out;
  if (!v.is_array() || v.get_array().size() != 1 || !v.get_array()[0].is_object()) return {};
  return v.get_array()[0].get_object();
}

std::vector<std::string> strings_of(const json::value& v) {
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const auto& s : v.get_array()) out.emplace_back(s.is_string() ? s.get_string() : "?");
  }
  return out;
}

}  // namespace

TEST(RecipeLoop, RenderedCellRunsOnTheSimVerifiedThenStaleAfterOneFlagEdit) {
  const auto dir = campaign_temp_dir("recipe_loop");
  const auto started = std::chrono::steady_clock::now();

  const auto render = run_servebench({"recipe", "render", k_catalog, "--select", k_select, "--format", "json"}, dir);
  ASSERT_EQ(render.exit_code, 0) << render.err;
  const json::value rendered = parse_stdout(render);
  ASSERT_TRUE(rendered.is_object());
  const std::string fingerprint = util::json_string(rendered.get_object(), "fingerprint").value_or("");
  ASSERT_TRUE(fingerprint.starts_with("sha256:")) << render.out;

  const auto gen = run_servebench({"recipe", "campaign", k_catalog, "--select", k_select, "-o", "generated.yaml"}, dir);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  write_text(dir / "c.yaml", shrunk_campaign(util::read_file(dir / "generated.yaml").value_or("")));

  const auto run = run_servebench({"campaign", "run", "c.yaml", "--out", "run"}, dir, std::chrono::seconds(50));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto points = read_run_ledger(dir / "run").latest();
  ASSERT_EQ(points.size(), 2u);
  for (const auto& p : points) {
    EXPECT_EQ(p.status, results::PointStatus::ok) << p.reason;
    EXPECT_EQ(p.gate.passed, std::optional<bool>(true));
    EXPECT_EQ(p.server.engine, "sim");
    EXPECT_EQ(p.server.fingerprint, fingerprint) << "the sim launch must fingerprint like the sglang command";
  }
  const auto facts = read_json_file(dir / "run" / "arms" / k_arm / "server_facts.json");
  ASSERT_TRUE(facts.contains("recipe")) << json::serialize(facts);
  EXPECT_EQ(facts.at("recipe"), (json::object{{"catalog", "glm-5.3-flash"}, {"select", k_select}}));

  const std::vector<std::string> status_args{"--evidence", "run", "--filter", k_filter, "--format", "json"};
  auto status_of_catalog = [&](const std::string& catalog) {
    std::vector<std::string> args{"recipe", "status", catalog};
    args.insert(args.end(), status_args.begin(), status_args.end());
    return run_servebench(args, dir);
  };
  const auto verified = status_of_catalog(k_catalog);
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  const json::object v = status_of(verified);
  EXPECT_EQ(util::json_string(v, "selection").value_or(""), k_select);
  EXPECT_EQ(util::json_string(v, "fingerprint").value_or(""), fingerprint);
  EXPECT_EQ(util::json_string(v, "status").value_or(""), "verified") << verified.out;
  EXPECT_EQ(util::json_string(v, "label").value_or(""), "verified (sim)");
  EXPECT_EQ(v.contains("evidence") ? v.at("evidence").get_array().size() : 0u, 2u);

  // One flag edited in a copy of the catalog: the same evidence now measured an older command.
  const std::string catalog_text = util::read_file(k_catalog).value_or("");
  write_text(dir / "edited.yaml",
             replaced_once(catalog_text, "--speculative-num-steps 5,", "--speculative-num-steps 3,"));
  const auto stale = status_of_catalog("edited.yaml");
  ASSERT_EQ(stale.exit_code, 0) << stale.err;
  const json::object s = status_of(stale);
  EXPECT_EQ(util::json_string(s, "status").value_or(""), "stale") << stale.out;
  EXPECT_NE(util::json_string(s, "fingerprint").value_or(""), fingerprint);
  EXPECT_EQ(strings_of(s.contains("diff") ? s.at("diff") : json::value{}),
            std::vector<std::string>{"~ --speculative-num-steps 5 -> 3"});

  const auto exported = run_servebench({"recipe", "export", k_catalog, "--evidence", "run", "--filter", k_filter}, dir);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const json::value rows = parse_stdout(exported);
  ASSERT_TRUE(rows.is_array() && rows.get_array().size() == 1) << exported.out;
  const std::string notes = util::json_string(rows.get_array()[0].as_object(), "notes").value_or("");
  EXPECT_TRUE(notes.starts_with("simulated on servebench serve-sim, not a GPU measurement")) << notes;

  const auto took = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
  EXPECT_LT(took.count(), 60) << "the loop must stay well under a minute";
}

namespace {

struct Lint {
  Finished run;
  std::vector<json::object> findings;
};

// `recipe lint --format json` of the example catalog, with the first `from` replaced by `to` in a copy.
Lint lint_planted(const std::string& name, std::string_view from, std::string_view to) {
  const auto dir = campaign_temp_dir("recipe_lint_" + name);
  write_text(dir / "catalog.yaml", replaced_once(util::read_file(k_catalog).value_or(""), from, to));
  Lint l{run_servebench({"recipe", "lint", "catalog.yaml", "--format", "json"}, dir), {}};
  const json::value v = parse_stdout(l.run);
  if (v.is_object() && v.get_object().contains("findings")) {
    for (const auto& f : v.get_object().at("findings").get_array()) l.findings.push_back(f.get_object());
  }
  return l;
}

// The findings with this rule id on this flag for this (cell) selection.
std::vector<json::object> found(const Lint& l, std::string_view rule, std::string_view flag,
                                std::string_view selection) {
  std::vector<json::object> out;
  for (const auto& f : l.findings) {
    if (util::json_string(f, "rule") == rule && util::json_string(f, "flag") == flag &&
        util::json_string(f, "selection") == selection) {
      out.push_back(f);
    }
  }
  return out;
}

}  // namespace

TEST(RecipeLint, ExampleCatalogIsCleanAndItsSelectionsAreCounted) {
  const auto dir = campaign_temp_dir("recipe_lint_clean");
  const auto r = run_servebench({"recipe", "lint", k_catalog}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1152 selections: 528 reachable, 624 greyed out, 192 without a cell"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("480  dcp=4 (disabled): DCP is validated only on 4x GB300 TP4/EP4 for now."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("528 selections checked, 0 error(s)"), std::string::npos) << r.out;
}

TEST(RecipeLint, PlantedEpSizeOneIsReportedAsTheEngineDefault) {
  const std::string cell = "  - match: {hw: [b300, b200], strategy: low-latency, quant: nvfp4}\n    flags: [*nvfp4_model, --tp-size 8,";
  const Lint l = lint_planted("ep1", cell, cell + " --ep-size 1,");
  // A redundant default is a warning: reported, but lint still exits 0.
  EXPECT_EQ(l.run.exit_code, 0) << l.run.out << l.run.err;
  const auto f = found(l, "redundant-default", "--ep-size", "hw=b300,strategy=low-latency,quant=nvfp4");
  ASSERT_EQ(f.size(), 1u) << l.run.out;
  EXPECT_EQ(util::json_string(f[0], "severity"), "warning");
  EXPECT_EQ(f[0].at("selections").as_array().size(), 48u);  // b300 and b200 without DCP: 24 each
}

TEST(RecipeLint, PlantedTp32SplitsTheMoeIntermediateBelowTheTile) {
  const std::string cell = "  - match: {hw: [b300, b200], strategy: low-latency, quant: nvfp4}\n    flags: [*nvfp4_model, --tp-size ";
  const Lint l = lint_planted("tp32", cell + "8,", cell + "32,");
  EXPECT_EQ(l.run.exit_code, 1) << l.run.out << l.run.err;
  const auto f = found(l, "divisibility-moe", "--tp-size", "hw=b300,strategy=low-latency,quant=nvfp4");
  ASSERT_EQ(f.size(), 1u) << l.run.out;
  EXPECT_EQ(util::json_string(f[0], "severity"), "error");
  EXPECT_NE(util::json_string(f[0], "message").value_or("").find("2048 / MoE-TP 32"), std::string::npos);
}

TEST(RecipeLint, PlantedFlashinferTrtllmOnH100IsAnErrorExceptWhereTheCookbookVerified) {
  const Lint l = lint_planted("h100", "--mem-fraction-static 0.70, *tilelang, --moe-runner-backend deep_gemm",
                              "--mem-fraction-static 0.70, *tilelang, --moe-runner-backend flashinfer_trtllm");
  EXPECT_EQ(l.run.exit_code, 1) << l.run.out << l.run.err;
  const auto verified = found(l, "arch-backend", "--moe-runner-backend", "hw=h100,strategy=low-latency,quant=fp8");
  ASSERT_EQ(verified.size(), 1u) << l.run.out;
  EXPECT_EQ(util::json_string(verified[0], "severity"), "warning");
  const auto errors = std::count_if(l.findings.begin(), l.findings.end(), [](const json::object& f) {
    return util::json_string(f, "rule") == "arch-backend" && util::json_string(f, "severity") == "error";
  });
  EXPECT_EQ(errors, 1) << l.run.out;
}
