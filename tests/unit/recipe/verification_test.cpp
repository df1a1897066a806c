#include "servebench/recipe/verification.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "run_dir_fixture.hpp"
#include "servebench/recipe/command_text.hpp"
#include "servebench/recipe/render.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;
using servebench::results::PointStatus;

namespace {

const std::string k_select = "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang";
const std::string k_arm = "gb300-low-latency-fp8-bf16-tilelang";

// The launch line a generated campaign arm carries for this selection.
std::string campaign_launch(const Catalog& c, const std::string& select, Target target = Target::sim) {
  PlaceholderValues o;
  o.set("PORT", "{port}");
  o.set("HOST_IP", "127.0.0.1");
  auto r = render(c, *parse_selection(c, select), target, o);
  EXPECT_TRUE(r) << r.error().message;
  return to_command_line(*r);
}

SelectionStatus status_of(const Catalog& c, const std::string& select, const RunDir& dir) {
  auto e = read_evidence({dir.path()});
  EXPECT_TRUE(e) << e.error().message;
  auto s = verify(c, *parse_selection(c, select), *e);
  EXPECT_TRUE(s) << s.error().message;
  return *s;
}

// The example with the shared MTP fragment edited (one flag changed in every low-latency cell).
Catalog edited_example() {
  return parsed(replaced(text_of(k_example_path), "--speculative-num-steps 5,", "--speculative-num-steps 3,"));
}

}  // namespace

TEST(Verification, SimulatorRunOfTheRenderedCommandVerifies) {
  const Catalog c = example();
  RunDir dir("verified");
  dir.add_arm({.name = k_arm, .launch = campaign_launch(c, k_select),
               .recipe = std::pair{"glm-5.3-flash", k_select}},
              {{.concurrency = 1}, {.concurrency = 16}});
  const auto s = status_of(c, k_select, dir);
  EXPECT_EQ(s.state, Verification::verified);
  EXPECT_EQ(s.label(), "verified (sim)");
  ASSERT_EQ(s.evidence.size(), 2u);
  EXPECT_EQ(s.evidence[0].point, k_arm + "/chat/c1");
  EXPECT_EQ(s.evidence[0].fingerprint, s.fingerprint);
  // The real SGLang command of the same selection fingerprints alike.
  const auto engine_fp = servebench::flags::fingerprint_command(servebench::flags::Dialect::sglang,
                                                              campaign_launch(c, k_select, Target::engine));
  ASSERT_TRUE(engine_fp);
  EXPECT_EQ(*engine_fp, s.fingerprint);
}

TEST(Verification, OneEditedFlagMakesTheEvidenceStaleWithTheDiff) {
  RunDir dir("stale");
  dir.add_arm({.name = k_arm, .launch = campaign_launch(example(), k_select),
               .recipe = std::pair{"glm-5.3-flash", k_select}},
              {{}});
  const auto s = status_of(edited_example(), k_select, dir);
  EXPECT_EQ(s.state, Verification::stale);
  ASSERT_EQ(s.diff.size(), 1u);
  EXPECT_EQ(servebench::flags::to_string(s.diff[0]), "~ --speculative-num-steps 5 -> 3");
  ASSERT_EQ(s.evidence.size(), 1u);
  EXPECT_NE(s.evidence[0].fingerprint, s.fingerprint);
}

TEST(Verification, OldRecipeMeasuredUnderAnotherArmNameIsFoundByItsRecipeKey) {
  const Catalog c = example();
  // The command before the update: the flashinfer_trtllm MoE runner and fixed-depth MTP.
  std::string old = replaced(replaced(campaign_launch(c, k_select), "--moe-runner-backend deep_gemm",
                                      "--moe-runner-backend flashinfer_trtllm"),
                             " --speculative-adaptive", "");
  RunDir dir("old");
  dir.add_arm({.name = "ll-before-update", .launch = old, .recipe = std::pair{"glm-5.3-flash", k_select}}, {{}});
  const auto s = status_of(c, k_select, dir);
  EXPECT_EQ(s.state, Verification::stale);
  std::vector<std::string> changes;
  for (const auto& d : s.diff) changes.push_back(servebench::flags::to_string(d));
  EXPECT_EQ(changes, (std::vector<std::string>{"~ --moe-runner-backend flashinfer_trtllm -> deep_gemm",
                                               "+ --speculative-adaptive"}));
}

TEST(Verification, ArmsWithoutRecipeKeyMatchByArmName) {
  RunDir dir("byname");
  dir.add_arm({.name = k_arm, .launch = campaign_launch(example(), k_select)}, {{}});
  const auto s = status_of(edited_example(), k_select, dir);
  EXPECT_EQ(s.state, Verification::stale);
  EXPECT_EQ(s.note.find("linked by"), std::string::npos) << s.note;
}

TEST(Verification, RenamedArmWithAChangedCommandIsStale) {
  // Regression: an arm renamed by hand whose command then changed was "unverified": neither its
  // name nor its fingerprint matched. The closest command on its hardware links it.
  RunDir dir("renamed");
  dir.add_arm({.name = "something-else", .launch = campaign_launch(example(), k_select)}, {{}});
  const auto s = status_of(edited_example(), k_select, dir);
  EXPECT_EQ(s.state, Verification::stale);
  ASSERT_EQ(s.diff.size(), 1u);
  EXPECT_EQ(servebench::flags::to_string(s.diff[0]), "~ --speculative-num-steps 5 -> 3");
  EXPECT_NE(s.note.find("linked by its closest command (1 change)"), std::string::npos) << s.note;
  // Only that selection: its neighbours differ from the measured command by more.
  EXPECT_EQ(status_of(edited_example(), "hw=gb300,strategy=low-latency,quant=fp8", dir).state, Verification::unverified);
}

TEST(Verification, RenamedOptionKeepsItsEvidenceThroughTheCommand) {
  // The recipe key names an option the catalog has since renamed, and the command changed too.
  RunDir dir("renamedoption");
  dir.add_arm({.name = k_arm, .launch = campaign_launch(example(), k_select), .recipe = std::pair{"glm-5.3-flash", k_select}}, {{}});
  std::string text = replaced(text_of(k_example_path), "{id: bf16-tilelang,", "{id: bf16-tl,");
  text = replaced(text, "--speculative-num-steps 5,", "--speculative-num-steps 3,");
  const Catalog renamed = parsed(text);
  const auto s = status_of(renamed, "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tl", dir);
  EXPECT_EQ(s.state, Verification::stale);
  EXPECT_EQ(s.diff.size(), 1u);
}

TEST(Verification, AnotherCatalogsArmIsNeverLinked) {
  RunDir dir("othercatalog");
  dir.add_arm({.name = "x", .launch = campaign_launch(example(), k_select), .recipe = std::pair{"other-model", k_select}}, {{}});
  EXPECT_EQ(status_of(edited_example(), k_select, dir).state, Verification::unverified);
}

TEST(Verification, FailedGateOrPointDoesNotVerify) {
  const Catalog c = example();
  RunDir dir("gate");
  dir.add_arm({.name = "a", .launch = campaign_launch(c, k_select)},
              {{.concurrency = 1, .gate_passed = false}, {.concurrency = 16, .status = PointStatus::invalid}, {.concurrency = 80, .gate_passed = std::nullopt}});
  const auto s = status_of(c, k_select, dir);
  EXPECT_EQ(s.state, Verification::unverified);
  EXPECT_EQ(s.evidence.size(), 3u);
  EXPECT_EQ(s.note, "3 point(s) ran this command, none ok with a passed quality gate");
}

TEST(Verification, OtherSelectionsStayUnverified) {
  const Catalog c = example();
  RunDir dir("others");
  dir.add_arm({.name = "a", .launch = campaign_launch(c, k_select), .recipe = std::pair{"glm-5.3-flash", k_select}}, {{}});
  const auto s = status_of(c, "hw=gb300,strategy=low-latency,quant=fp8", dir);  // kvDsaPair=fp8-trtllm (default)
  EXPECT_EQ(s.state, Verification::unverified);
  EXPECT_TRUE(s.note.empty());
}

TEST(Verification, SameCommandOnOtherHardwareDoesNotVerify) {
  // gb300 and gb200 low-latency cells share every flag, so their commands fingerprint alike.
  const Catalog c = example();
  const std::string b200 = "hw=gb200,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang";
  RunDir dir("otherhw");
  dir.add_arm({.name = k_arm, .launch = campaign_launch(c, k_select),
               .recipe = std::pair{"glm-5.3-flash", k_select}},
              {{}});
  const auto s = status_of(c, b200, dir);
  EXPECT_EQ(s.state, Verification::unverified);
  EXPECT_EQ(s.note, "1 point(s) ran this command on other or unknown hardware");
  EXPECT_EQ(status_of(c, k_select, dir).state, Verification::verified);
}

TEST(Verification, RealEngineRunWithoutRecipeKeyHasUnknownHardware) {
  const Catalog c = example();
  RunDir dir("unknownhw");
  dir.add_arm({.name = "by-hand", .engine = "sglang", .launch = campaign_launch(c, k_select, Target::engine)}, {{}});
  const auto s = status_of(c, k_select, dir);
  EXPECT_EQ(s.state, Verification::unverified);
  EXPECT_NE(s.note.find("unknown hardware"), std::string::npos);
  RunDir keyed("keyedhw");
  keyed.add_arm({.name = "by-campaign", .engine = "sglang", .launch = campaign_launch(c, k_select, Target::engine),
                 .recipe = std::pair{"glm-5.3-flash", k_select}},
                {{}});
  const auto v = status_of(c, k_select, keyed);
  EXPECT_EQ(v.state, Verification::verified);
  EXPECT_EQ(v.label(), "verified (sglang)");
}

TEST(Verification, AllSkipsDisabledSelectionsAndAppliesTheFilter) {
  const Catalog c = example();
  RunDir dir("all");
  dir.add_arm({.name = "a", .launch = campaign_launch(c, k_select)}, {{}});
  auto e = read_evidence({dir.path()});
  ASSERT_TRUE(e);
  auto all = verify_all(c, *e, *parse_filter(c, "hw=gb300,strategy=low-latency,quant=fp8"));
  ASSERT_TRUE(all) << all.error().message;
  // kvDsaPair 2 × bcg 2 × mmTransport 2 × hicache 3 × dcp 2, all reachable on gb300
  EXPECT_EQ(all->size(), 48u);
  const auto verified = std::count_if(all->begin(), all->end(), [](const auto& s) { return s.state == Verification::verified; });
  EXPECT_EQ(verified, 1);
}

TEST(Verification, JsonNamesStatusEnginesAndDiff) {
  SelectionStatus s;
  s.selection = "hw=b200";
  s.state = Verification::stale;
  s.diff = {{servebench::flags::CommandChange::Kind::removed, servebench::flags::CommandChange::Scope::flag, "--ep-size", "4", std::nullopt}};
  const auto j = to_json(s);
  EXPECT_EQ(j.at("status").as_string(), "stale");
  EXPECT_EQ(j.at("diff").as_array().at(0).as_string(), "- --ep-size 4");
}
