#include "servebench/recipe/greying.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

namespace {

Selection full(const Catalog& c, const std::string& text) {
  auto s = parse_selection(c, text);
  EXPECT_TRUE(s) << s.error().message;
  return *s;
}

}  // namespace

TEST(Greying, DisabledBeforeNoCellOnePerDimInDimOrder) {
  const Catalog c = example();
  const auto g = greyed(c, full(c, "hw=h200,strategy=low-latency,quant=nvfp4,kvDsaPair=fp8-trtllm,dcp=4"));
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(c.dims[g[0].dim].id, "quant");
  EXPECT_EQ(g[0].kind, GreyKind::disabled);  // also without a cell: the rule's reason wins
  EXPECT_EQ(g[0].reason, "The NVFP4 W4A4 kernels are Blackwell-only; Hopper cannot serve this checkpoint.");
  EXPECT_EQ(c.dims[g[1].dim].id, "kvDsaPair");
  EXPECT_EQ(c.dims[g[2].dim].id, "dcp");
  EXPECT_EQ(to_string(g[2].kind), "disabled");
}

TEST(Greying, KeyWithoutACellIsGreyedAtItsFirstDimThatNoCellAgreesWith) {
  const Catalog c = parsed(replaced(text_of(k_mini_path), "        disable:\n          - {when: {hw: [h100]}, reason: NVFP4 W4A4 kernels are Blackwell-only}\n", ""));
  const auto g = greyed(c, full(c, "hw=h100,quant=nvfp4"));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].kind, GreyKind::no_cell);
  EXPECT_EQ(g[0].reason, "no cell has quant=nvfp4 with hw=h100");
  EXPECT_FALSE(reachable(c, full(c, "hw=h100,quant=nvfp4")));
  EXPECT_TRUE(reachable(c, full(c, "hw=h100,quant=fp8")));
}

TEST(Greying, GreyedOverlayPickContributesNothing) {
  const Catalog c = example();
  const Selection s = full(c, "hw=h100,strategy=low-latency,quant=fp8,kvDsaPair=fp8-trtllm,bcg=on");
  const std::size_t kv = *c.dim_index("kvDsaPair"), bcg = *c.dim_index("bcg");
  EXPECT_FALSE(contributes(c, s, kv));
  EXPECT_TRUE(contributes(c, s, bcg));
  EXPECT_FALSE(contributes(c, s, 0));  // not an overlay
}

TEST(Greying, SnapMovesEachGreyedPickToTheFirstUsableOption) {
  const Catalog c = example();
  const Selection s = full(c, "hw=h100,strategy=low-latency,quant=nvfp4,kvDsaPair=fp8-trtllm,dcp=4,hicache=l2");
  EXPECT_EQ(to_string(c, snapped(c, s)), "hw=h100,strategy=low-latency,quant=fp8,hicache=l2");
  const Selection fine = full(c, "hw=gb300,strategy=low-latency,quant=nvfp4,dcp=4");
  EXPECT_EQ(snapped(c, fine), fine);
}
