#include "servebench/recipe/finding.hpp"

#include <gtest/gtest.h>

#include "servebench/util/json_text.hpp"

using namespace servebench::recipe;

TEST(Finding, TextNamesPositionSeverityRuleSelectionFlagAndOrigin) {
  const Finding f{"redundant-default", Severity::warning, "hw=b200,quant=fp8", {"hw=b200,quant=fp8"}, "c.yaml:4:5", "--ep-size", "cell",
                  "--ep-size 1 is the engine default; leave it out"};
  EXPECT_EQ(to_text(f), "c.yaml:4:5: warning [redundant-default] hw=b200,quant=fp8: --ep-size (cell): "
                        "--ep-size 1 is the engine default; leave it out");
}

TEST(Finding, TextCountsTheOtherSelections) {
  const Finding f{"missing-cell", Severity::warning, "hw=b200,quant=fp8", {"hw=b200,quant=fp8", "hw=b200,quant=fp8,kv=fp8", "x"},
                  "c.yaml", "", "", "no cell"};
  EXPECT_EQ(to_text(f), "c.yaml: warning [missing-cell] hw=b200,quant=fp8 (+2 more): no cell");
}

TEST(Finding, Json) {
  const Finding f{"arch-backend", Severity::error, "hw=h100", {"hw=h100", "hw=h100,x=y"}, "c.yaml:1:1", "--moe-runner-backend",
                  "overlay moe=trtllm", "m"};
  EXPECT_EQ(servebench::util::to_json_text(to_json(f)),
            R"({"rule":"arch-backend","severity":"error","selection":"hw=h100","selections":["hw=h100","hw=h100,x=y"],)"
            R"("where":"c.yaml:1:1","flag":"--moe-runner-backend","origin":"overlay moe=trtllm","message":"m"})");
}
