#include "servebench/recipe/export_rows.hpp"

#include <gtest/gtest.h>

#include "catalog_fixture.hpp"
#include "run_dir_fixture.hpp"
#include "servebench/recipe/command_text.hpp"

using namespace servebench::recipe;
using namespace servebench::recipe::testing;

TEST(ExportRows, VerifiedSelectionBecomesACookbookRow) {
  const Catalog c = example();
  const std::string select = "hw=gb300,strategy=low-latency,quant=fp8,kvDsaPair=bf16-tilelang";
  PlaceholderValues o;
  o.set("PORT", "{port}");
  const auto launch = to_command_line(*render(c, *parse_selection(c, select), Target::sim, o));
  RunDir dir("export");
  dir.add_arm({.name = "arm1", .launch = launch}, {{.scenario = "short-out", .concurrency = 64}, {.scenario = "chat", .concurrency = 80}, {.scenario = "chat", .concurrency = 1}});
  dir.add_arm({.name = "unrelated", .launch = "servebench serve-sim --tp-size 2"}, {{}});
  const auto e = read_evidence({dir.path()});
  ASSERT_TRUE(e);
  const auto statuses = verify_all(c, *e, *parse_filter(c, "hw=gb300,strategy=low-latency,quant=fp8"));
  ASSERT_TRUE(statuses);
  const auto rows = export_rows(c, *statuses, *e);
  ASSERT_EQ(rows.size(), 1u);
  const auto& row = rows[0];
  EXPECT_EQ(row.match, (std::vector<std::pair<std::string, std::string>>{
                           {"hw", "gb300"}, {"strategy", "low-latency"}, {"quant", "fp8"}, {"kvDsaPair", "bf16-tilelang"}}));
  EXPECT_EQ(row.sglang_version, "sim 0.1.0-sim (servebench serve-sim)");  // never passes for an SGLang release
  ASSERT_EQ(row.speed.size(), 3u);
  // Catalog scenario order (chat, short-out), then concurrency.
  EXPECT_EQ(row.speed[0].workload.max_concurrency, 1);
  EXPECT_EQ(row.speed[1].workload.max_concurrency, 80);
  EXPECT_EQ(row.speed[2].workload.max_concurrency, 64);
  EXPECT_DOUBLE_EQ(row.speed[0].tokens_per_sec_per_gpu, 2000);
  EXPECT_EQ(row.speed[0].workload.dataset, "random");
  EXPECT_TRUE(row.notes.starts_with("simulated on servebench serve-sim, not a GPU measurement")) << row.notes;
}

TEST(ExportRows, NothingVerifiedNoRows) {
  const Catalog c = example();
  Evidence empty;
  const auto statuses = verify_all(c, empty, *parse_filter(c, "hw=b200"));
  ASSERT_TRUE(statuses);
  EXPECT_FALSE(statuses->empty());
  EXPECT_TRUE(export_rows(c, *statuses, empty).empty());
}
