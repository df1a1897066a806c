// Disaggregated arms in the campaign file (docs/campaign-file.md `arms[]`, docs/scale-out.md
// "Disaggregated arms"): three launch commands, checked when the file is read.
#include "servebench/campaign/pd_arm.hpp"

#include <gtest/gtest.h>

namespace servebench::campaign {
namespace {

constexpr std::string_view k_pd_prefill_cmd = "servebench serve-sim --disaggregation-mode prefill --port {port}";
constexpr std::string_view k_pd_decode_cmd = "servebench serve-sim --disaggregation-mode decode --port {port}";
constexpr std::string_view k_pd_router_cmd = "servebench serve-sim --router --prefill {prefill_url} --decode {decode_url} --port {port}";

// A campaign whose one arm has `arm_keys` (YAML flow-mapping entries after name and engine).
std::string pd_campaign_with(const std::string& arm_keys) {
  return "name: pd\narms:\n  - {name: a, engine: sim, " + arm_keys + "}\nscenarios:\n  - {name: s, isl: 8, osl: 4, concurrency: [1]}\n";
}

std::string pd_parts(std::string_view prefill = k_pd_prefill_cmd, std::string_view decode = k_pd_decode_cmd,
                  std::string_view router = k_pd_router_cmd) {
  return "prefill: \"" + std::string(prefill) + "\", decode: \"" + std::string(decode) + "\", router: \"" +
         std::string(router) + "\"";
}

std::string pd_error_of(const std::string& yaml) {
  auto spec = parse_campaign(yaml, "c.yaml", "/base");
  return spec ? "parsed" : spec.error().message;
}

TEST(PdArm, ThreePartsAreReadAndTheRoutersPortIsTheArms) {
  const auto spec = parse_campaign(pd_campaign_with(pd_parts()), "c.yaml", "/base");
  ASSERT_TRUE(spec) << spec.error().message;
  const ArmSpec& a = spec->arms[0];
  ASSERT_TRUE(a.pd.has_value());
  EXPECT_FALSE(a.launch.has_value());
  EXPECT_TRUE(a.launched());
  EXPECT_EQ(a.pd->command(PdPart::prefill), k_pd_prefill_cmd);
  EXPECT_EQ(a.pd->command(PdPart::router), k_pd_router_cmd);
  EXPECT_EQ(a.base_url, "http://127.0.0.1:{port}");
  // The resolved file reads back the same.
  const auto again = parse_campaign(resolved_yaml(*spec), "resolved.yaml", "/base");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->arms[0].pd->decode, k_pd_decode_cmd);
}

TEST(PdArm, LaunchTogetherWithPartsIsRefusedAtTheLaunchKey) {
  const std::string e = pd_error_of(pd_campaign_with("launch: \"servebench serve-sim --port {port}\", " + pd_parts()));
  EXPECT_NE(e.find("c.yaml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("either launch or prefill, decode and router"), std::string::npos) << e;
}

TEST(PdArm, AMissingPartIsNamed) {
  const std::string e = pd_error_of(pd_campaign_with("prefill: \"" + std::string(k_pd_prefill_cmd) + "\", decode: \"" +
                                               std::string(k_pd_decode_cmd) + "\""));
  EXPECT_NE(e.find("c.yaml:3:"), std::string::npos) << e;
  EXPECT_NE(e.find("'router' is missing"), std::string::npos) << e;
}

TEST(PdArm, EachPartNeedsItsOwnPortAndTheRouterNamesBothParts) {
  EXPECT_NE(pd_error_of(pd_campaign_with(pd_parts("servebench serve-sim --port 30000"))).find("prefill: use {port}"),
            std::string::npos);
  const std::string router = pd_error_of(pd_campaign_with(pd_parts(k_pd_prefill_cmd, k_pd_decode_cmd,
                                                          "servebench serve-sim --router --prefill {prefill_url} --port {port}")));
  EXPECT_NE(router.find("router: name both parts"), std::string::npos) << router;
  const std::string misplaced = pd_error_of(pd_campaign_with(pd_parts(k_pd_prefill_cmd, "servebench serve-sim --decode-of {prefill_url} --port {port}")));
  EXPECT_NE(misplaced.find("are for the router's command"), std::string::npos) << misplaced;
  const std::string url = pd_error_of(pd_campaign_with(pd_parts() + ", base_url: \"http://127.0.0.1:8000\""));
  EXPECT_NE(url.find("base_url is the router's and needs its {port}"), std::string::npos) << url;
}

TEST(PdArm, APartRunsAsAnArmOfItsOwnAndTheRouterGetsThePartsUrls) {
  const auto spec = parse_campaign(pd_campaign_with(pd_parts()), "c.yaml", "/base");
  ASSERT_TRUE(spec);
  const ArmSpec decode = pd_part_arm(spec->arms[0], PdPart::decode);
  EXPECT_EQ(decode.name, "a/decode");
  EXPECT_EQ(decode.launch, std::string(k_pd_decode_cmd));
  EXPECT_FALSE(decode.pd.has_value());
  const std::string router = substitute_part_urls(std::string(k_pd_router_cmd), "http://127.0.0.1:1", "http://127.0.0.1:2");
  EXPECT_EQ(router, "servebench serve-sim --router --prefill http://127.0.0.1:1 --decode http://127.0.0.1:2 --port {port}");
  EXPECT_EQ(pd_part_arm(spec->arms[0], PdPart::router, router).launch, router);
}

}  // namespace
}  // namespace servebench::campaign
