#include "servebench/recipe/compose.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

std::vector<std::string> flags_of(const Catalog& c, const std::string& select) {
  const auto s = parse_selection(c, select);
  EXPECT_TRUE(s) << s.error().message;
  std::vector<std::string> out;
  for (const auto& e : compose(c, *s, *find_cell(c, *s)).flags) out.push_back(e.text);
  return out;
}

// mini with the h100 cell on two nodes and these flags.
Catalog two_nodes(const std::string& flags) {
  return parsed(replaced(text_of(k_mini_path), "  - match: {hw: h100, quant: fp8}\n    flags: [\"--model-path {{MODEL_NAME}}\", --tp-size 8, \"--port {{PORT}}\"]",
                         "  - match: {hw: h100, quant: fp8}\n    nnodes: 2\n    flags: " + flags));
}

}  // namespace

TEST(Compose, FlagFamilyIsTheFirstWordUpToEquals) {
  EXPECT_EQ(flag_family("--port 30000"), "--port");
  EXPECT_EQ(flag_family("--port=30000"), "--port");
  EXPECT_EQ(flag_family("--enable-metrics"), "--enable-metrics");
}

TEST(Compose, NodeFlagsGoAfterTheLastParallelismFlag) {
  const Catalog c = two_nodes("[\"--model-path {{MODEL_NAME}}\", --tp-size 8, --dp-size 2, --port 30000]");
  EXPECT_EQ(flags_of(c, "hw=h100,quant=fp8"),
            (std::vector<std::string>{"--model-path {{MODEL_NAME}}", "--tp-size 8", "--dp-size 2", "--nnodes 2",
                                      "--node-rank {{NODE_RANK}}", "--dist-init-addr {{NODE0_IP}}:20000", "--port 30000"}));
}

TEST(Compose, NodeFlagsFallBackToAfterTheModelThenToTheEnd) {
  EXPECT_EQ(flags_of(two_nodes("[--trust-remote-code, \"--model-path {{MODEL_NAME}}\", --port 30000]"), "hw=h100,quant=fp8"),
            (std::vector<std::string>{"--trust-remote-code", "--model-path {{MODEL_NAME}}", "--nnodes 2", "--node-rank {{NODE_RANK}}",
                                      "--dist-init-addr {{NODE0_IP}}:20000", "--port 30000"}));
  EXPECT_EQ(flags_of(two_nodes("[--port 30000]"), "hw=h100,quant=fp8").at(1), "--nnodes 2");
}

TEST(Compose, EveryOverlayCaseIsEvaluatedOnTheWholeSelection) {
  const Catalog c = parsed(replaced(text_of(k_mini_path), "        flags: [--kv-cache-dtype fp8_e4m3]\n",
                                    "        flags: [{when: {quant: nvfp4}, then: [--kv-cache-dtype fp8_e5m2]}, {else: [--kv-cache-dtype fp8_e4m3]}]\n"));
  EXPECT_EQ(flags_of(c, "hw=b200,quant=fp8,kv=fp8").at(2), "--kv-cache-dtype fp8_e4m3");
}
