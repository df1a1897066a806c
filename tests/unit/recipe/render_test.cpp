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

TEST(Render, OverlayStripsBeforeItAddsFlags) {
  const auto r = rendered(mini(), "hw=b200,quant=fp8,kv=fp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-FP8 --tp 4 --host 0.0.0.0 --port 30000 "
            "--kv-cache-dtype fp8_e4m3");
  EXPECT_EQ(r.env, (std::vector<std::string>{"SGLANG_REGION=eu", "SGLANG_KV_FP8=1"}));
  EXPECT_EQ(r.hints, (std::vector<std::string>{"fp8 KV halves the pool bytes"}));
}

TEST(Render, LaterOverlayStripsWhatAnEarlierOneAdded) {
  // kv=fp8 applies first (dimension order) and adds fp8_e4m3; tp=tp8 then strips "--tp" (which also
  // matches "--tp 4") and "--kv-cache-dtype", and adds its own.
  const auto r = rendered(mini(), "hw=b200,quant=fp8,kv=fp8,tp=tp8");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path org/mini-FP8 --host 0.0.0.0 --port 30000 --tp-size 8 "
            "--kv-cache-dtype auto");
}

TEST(Render, ComposeRecordsWhereEachEntryCameFrom) {
  const Catalog c = mini();
  const auto s = parse_selection(c, "hw=b200,quant=fp8,kv=fp8");
  ASSERT_TRUE(s);
  const Composition composed = compose(c, *s, *find_cell(c, *s));
  ASSERT_EQ(composed.flags.size(), 5u);
  EXPECT_EQ(composed.flags[0].text, "--model-path {{MODEL_NAME}}");
  EXPECT_EQ(composed.flags[0].origin, "cell");
  EXPECT_EQ(composed.flags[4].origin, "overlay kv=fp8");
  EXPECT_TRUE(composed.flags[4].where.starts_with("mini.yaml:25:")) << composed.flags[4].where;
}

TEST(Render, ModelNameFollowsTheChosenOption) {
  const auto r = rendered(mini(), "hw=b200,quant=nvfp4");
  EXPECT_EQ(r.flags.at(0), (std::vector<std::string>{"--model-path", "org/mini-NVFP4"}));
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
  const Catalog c = parsed(replaced(text_of(k_mini_path), "default: eu", "label: no default"));
  const auto s = parse_selection(c, "hw=b200,quant=fp8");
  ASSERT_TRUE(s);
  const auto r = render(c, *s, Target::engine);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, servebench::util::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("placeholder {{REGION}} has no value"), std::string::npos) << r.error().message;
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
  const auto r = rendered(example(), "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=fp8-trtllm");
  EXPECT_EQ(joined(r),
            "python3 -m sglang.launch_server --model-path zai-org/GLM-5.3-Flash-FP8 --trust-remote-code --tp-size 4 "
            "--moe-runner-backend flashinfer_trtllm --speculative-algorithm EAGLE --speculative-num-steps 5 "
            "--speculative-eagle-topk 1 --speculative-num-draft-tokens 6 --mem-fraction-static 0.85 --host 0.0.0.0 "
            "--port 30000 --kv-cache-dtype fp8_e4m3 --dsa-prefill-backend trtllm --dsa-decode-backend trtllm");
}
