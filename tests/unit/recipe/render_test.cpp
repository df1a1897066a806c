#include "servebench/recipe/render.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "servebench/util/strings.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

RenderedCommand rendered(const Catalog& c, const std::string& select, Target target = Target::engine,
                         const PlaceholderValues& overrides = {}) {
  auto s = parse_selection(c, select);
  EXPECT_TRUE(s) << s.error().message;
  auto r = render(c, *s, target, overrides);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : RenderedCommand{};
}

std::string joined(const RenderedCommand& r) { return servebench::util::join(r.words(), " "); }

}  // namespace

TEST(Render, CellWithDefaultOverlaysResolvesPlaceholders) {
  const auto r = rendered(mini(), "hw=b200,quant=fp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-FP8 --tp 4 --kv-cache-dtype bfloat16 "
            "--host 0.0.0.0 --port 30000");
  EXPECT_EQ(r.env, (std::vector<std::string>{"SGLANG_REGION=eu"}));
  EXPECT_EQ(r.selection, "hw=b200,quant=fp8");
}

TEST(Render, OverlayReplacesTheCellFlagOfTheSameNameInPlace) {
  const auto r = rendered(mini(), "hw=b200,quant=fp8,kv=fp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-FP8 --tp 4 --kv-cache-dtype fp8_e4m3 "
            "--host 0.0.0.0 --port 30000");
  EXPECT_EQ(r.env, (std::vector<std::string>{"SGLANG_REGION=eu", "SGLANG_KV_FP8=1"}));
  EXPECT_EQ(r.hints, (std::vector<std::string>{"fp8 KV halves the pool bytes"}));
}

TEST(Render, EveryOverlayFlagOfAStrippedNameTakesItsPlace) {
  // kv=fp8 and tp=tp8 both strip --kv-cache-dtype: the cell's one is replaced by both overlay flags
  // (lint reports the duplicate); tp=tp8 strips --tp, which no overlay flag is named, so the cell's
  // --tp 4 goes; --tp-size 8 has no cell flag of its name and follows at the end.
  const auto r = rendered(mini(), "hw=b200,quant=fp8,kv=fp8,tp=tp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-FP8 --kv-cache-dtype fp8_e4m3 --kv-cache-dtype auto "
            "--host 0.0.0.0 --port 30000 --tp-size 8");
}

TEST(Render, StripPrefixesMatchFlagNamesNotTextPrefixes) {
  // Regression: "--tp" used to strip "--tp-size 4" because the entry text starts with it.
  const auto r = rendered(mini(), "hw=b200,quant=nvfp4,tp=tp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-NVFP4 --tp-size 4 --quantization modelopt_fp4 "
            "--port 30000 --tp-size 8 --kv-cache-dtype auto");
}

TEST(Render, ComposeRecordsWhereEachEntryCameFrom) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "hw=b200,quant=fp8,kv=fp8");
  ASSERT_TRUE(s);
  const Composition composed = compose(c, *s, *find_cell(c, *s));
  ASSERT_EQ(composed.flags.size(), 5u);
  EXPECT_EQ(composed.flags[0].text, "--model-path {{MODEL_NAME}}");
  EXPECT_EQ(composed.flags[0].origin, "cell");
  EXPECT_TRUE(composed.flags[0].where.starts_with("mini.yaml:45:")) << composed.flags[0].where;
  EXPECT_EQ(composed.flags[2].origin, "overlay kv=fp8");
  EXPECT_EQ(composed.flags[2].where, "mini.yaml:27:17");
}

TEST(Render, ModelNameFollowsTheChosenOption) {
  const auto r = rendered(mini(), "hw=b200,quant=nvfp4");
  EXPECT_EQ(r.flags.at(0), (std::vector<std::string>{"--model-path", "org/mini-NVFP4"}));
}

TEST(Render, ModelNamesDefaultKeyIsTheLastResort) {
  // Regression: an option named "default" made the `default` model name win over the quant's.
  const std::string text = replaced(
      replaced(text_of(k_mini_path), "match_dims:\n", "match_dims:\n  - id: variant\n    options: [{id: default}, {id: base}]\n"),
      "cells:\n", "cells:\n  - match: {hw: b200, variant: base, quant: fp8}\n    flags: [\"--model-path {{MODEL_NAME}}\"]\n");
  std::string cells = text;
  for (const char* key : {"{hw: b200, quant: fp8}", "{hw: b200, quant: nvfp4}", "{hw: h100, quant: fp8}"}) {
    std::string with = key;
    with.insert(with.find(", quant"), ", variant: default");
    cells = replaced(cells, key, with);
  }
  const Catalog c = parsed(cells);
  EXPECT_EQ(rendered(c, "hw=b200,variant=default,quant=nvfp4").flags.at(0),
            (std::vector<std::string>{"--model-path", "org/mini-NVFP4"}));
  EXPECT_EQ(rendered(c, "hw=b200,variant=default,quant=fp8").flags.at(0), (std::vector<std::string>{"--model-path", "org/mini-FP8"}));
}

TEST(Render, ModelNamesTakeCompositeKeysInCookbookOrder) {
  const std::string text = replaced(text_of(k_mini_path), "names: {default: org/mini-FP8, nvfp4: org/mini-NVFP4}",
                                    "names: {default: org/mini-FP8, nvfp4: org/mini-NVFP4, b200|nvfp4: org/mini-NVFP4-B200, h100: org/h}");
  const Catalog c = parsed(text);
  EXPECT_EQ(model_name(c, *parse_selection(c, "hw=b200,quant=nvfp4")), "org/mini-NVFP4-B200");  // hw|quant before quant
  EXPECT_EQ(model_name(c, *parse_selection(c, "hw=h100,quant=nvfp4")), "org/mini-NVFP4");       // quant before hw
  EXPECT_EQ(model_name(c, *parse_selection(c, "hw=h100,quant=fp8")), "org/h");
  EXPECT_EQ(model_name(c, *parse_selection(c, "hw=b200,quant=fp8")), "org/mini-FP8");
}

TEST(Render, OverridesReplacePlaceholderDefaults) {
  PlaceholderValues overrides;
  overrides.set("PORT", "{port}");
  overrides.set("REGION", "us");
  const auto r = rendered(mini(), "hw=b200,quant=fp8", Target::engine, overrides);
  EXPECT_EQ(r.flags.back(), (std::vector<std::string>{"--port", "{port}"}));
  EXPECT_EQ(r.env, (std::vector<std::string>{"SGLANG_REGION=us"}));
}

TEST(Render, PlaceholderWithoutValueFails) {
  const Catalog c = parsed(replaced(text_of(k_mini_path), ", default: eu", ""));  // a placeholder without default
  const auto s = parse_selection(c, "hw=b200,quant=fp8");
  ASSERT_TRUE(s);
  const auto r = render(c, *s, Target::engine);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("placeholder {{REGION}} has no value"), std::string::npos) << r.error().message;
}

TEST(Render, RedirectCellHasNoCommand) {
  const Catalog c = parsed(replaced(text_of(k_mini_path), "  - match: {hw: h100, quant: fp8}\n",
                                    "  - match: {hw: h100, quant: fp8}\n    redirect: use the dense checkpoint's catalog\n"));
  const auto r = render(c, *parse_selection(c, "hw=h100,quant=fp8"), Target::engine);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "hw=h100,quant=fp8 has no command: use the dense checkpoint's catalog");
}

TEST(Render, DisabledSelectionListsEveryReason) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "hw=h100,quant=nvfp4,kv=fp8");
  ASSERT_TRUE(s);
  const auto r = render(c, *s, Target::engine);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message,
            "hw=h100,quant=nvfp4,kv=fp8 is disabled: NVFP4 W4A4 kernels are Blackwell-only; "
            "fp8 KV with NVFP4 weights is not validated");
}

TEST(Render, SelectionWithoutCellFails) {
  Catalog c = mini();
  c.cells.pop_back();  // drop h100/fp8
  const auto s = parse_selection(c, "hw=h100,quant=fp8");
  ASSERT_TRUE(s);
  const auto r = render(c, *s, Target::engine);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no cell for hw=h100,quant=fp8");
}

TEST(Render, SimulatorTargetSwapsTheProgramAndBindsLoopback) {
  const auto r = rendered(mini(), "hw=b200,quant=fp8", Target::sim);
  EXPECT_EQ(joined(r),
            "servebench serve-sim --hw b200 --model glm-5.3-flash --model-path org/mini-FP8 --tp 4 "
            "--kv-cache-dtype bfloat16 --host 127.0.0.1 --port 30000");
}

TEST(Render, SimulatorAndEngineCommandsFingerprintAlike) {
  const Catalog c = mini();
  const auto engine = normalize(c, rendered(c, "hw=b200,quant=fp8,kv=fp8"));
  const auto sim = normalize(c, rendered(c, "hw=b200,quant=fp8,kv=fp8", Target::sim));
  ASSERT_TRUE(engine && sim);
  EXPECT_EQ(servebench::flags::fingerprint(*engine), servebench::flags::fingerprint(*sim));
  const auto other = normalize(c, rendered(c, "hw=b200,quant=fp8"));
  ASSERT_TRUE(other);
  EXPECT_NE(servebench::flags::fingerprint(*engine), servebench::flags::fingerprint(*other));
}

TEST(Render, SimulatorNeedsAModelCard) {
  Catalog c = mini();
  c.model.card.clear();
  const auto s = parse_selection(c, "hw=b200,quant=fp8");
  const auto r = render(c, *s, Target::sim);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("model.card is not set"), std::string::npos);
}

TEST(Render, ExampleBlackwellLowLatencyCell) {
  const auto r = rendered(example(), "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang,mmTransport=cpu");
  EXPECT_EQ(r.selection, "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang,mmTransport=cpu");
  EXPECT_EQ(joined(r),
            "sglang serve --model-path zai-org/GLM-5.3-Flash --tp-size 4 --ep-size 4 --dsa-prefill-backend tilelang "
            "--dsa-decode-backend tilelang --kv-cache-dtype bfloat16 --moe-runner-backend deep_gemm "
            "--speculative-algorithm EAGLE --speculative-num-steps 5 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 6 --speculative-adaptive --reasoning-parser glm45 --tool-call-parser glm47 "
            "--host 0.0.0.0 --port 30000 --mm-feature-transport cpu");
}

TEST(Render, SetFlagReplacesInPlaceOrAppends) {
  RenderedCommand r;
  r.flags = {{"--host", "0.0.0.0"}, {"--tp-size", "4"}};
  r.set_flag("--host", "127.0.0.1");
  r.set_flag("--port", "{port}");
  EXPECT_EQ(r.flags, (std::vector<std::vector<std::string>>{{"--host", "127.0.0.1"}, {"--tp-size", "4"}, {"--port", "{port}"}}));
}

TEST(Render, VllmCatalogRendersForVllmAndFingerprintsThePositionalModel) {
  const Catalog c = parsed(text_of(std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/recipe/vllm.yaml"), "vllm.yaml");
  const auto r = rendered(c, "hw=h200,nodes=single,kv=fp8");
  EXPECT_EQ(joined(r), "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 8 --kv-cache-dtype fp8 --port 8000");
  const auto command = normalize(c, r);
  ASSERT_TRUE(command) << command.error().message;
  const auto spelled = servebench::flags::fingerprint_command(
      servebench::flags::Dialect::vllm, "vllm serve --port 9 -tp 8 --kv_cache_dtype fp8 --model meta-llama/Llama-3.1-70B-Instruct");
  ASSERT_TRUE(spelled);
  EXPECT_EQ(servebench::flags::fingerprint(*command), *spelled);
  const auto sim = render(c, *parse_selection(c, "hw=h200,nodes=single"), Target::sim);
  ASSERT_FALSE(sim);
  EXPECT_NE(sim.error().message.find("serve-sim speaks SGLang's flags"), std::string::npos);
}
