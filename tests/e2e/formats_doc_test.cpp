// docs/formats.md "Catalog": each `$ servebench …` line of a console block, run on the example
// catalog above it (written to catalog.yaml), prints exactly what the document shows.
#include <string>

#include <gtest/gtest.h>

#include "campaign_process.hpp"
#include "support/markdown_blocks.hpp"

using namespace servebench;
using namespace servebench::e2e;

namespace {

struct Example {
  int line = 0;
  std::vector<std::string> args;  // after "servebench"
  std::string output;
};

std::vector<Example> examples_of(std::string_view console) {
  std::vector<Example> out;
  if (console.ends_with('\n')) console.remove_suffix(1);
  int n = 0;
  for (const auto line : util::split(console, '\n')) {
    ++n;
    if (line.starts_with("$ servebench ")) {
      out.push_back({n, util::shell_split(line.substr(13)).value_or(std::vector<std::string>{}), ""});
    } else if (!out.empty()) {
      out.back().output += std::string(line) + "\n";
    }
  }
  return out;
}

}  // namespace

TEST(FormatsDoc, EveryConsoleExampleShowsWhatTheCommandPrints) {
  const std::string doc = util::read_file(SERVEBENCH_SOURCE_DIR "/docs/formats.md").value_or("");
  const auto blocks = servebench::testing::markdown_blocks(doc, "## Catalog (`servebench.catalog/1`)");
  const auto dir = campaign_temp_dir("formats_doc");
  std::string catalog;
  int checked = 0;
  for (const auto& b : blocks) {
    if (b.info == "yaml") catalog = b.text;
    if (b.info != "console") continue;
    write_text(dir / "catalog.yaml", catalog);
    for (const auto& e : examples_of(b.text)) {
      const auto r = run_servebench(e.args, dir);
      EXPECT_NE(r.exit_code, 2) << "formats.md:" << b.line + e.line - 1 << ": " << r.err;
      EXPECT_EQ(r.out, e.output) << "formats.md:" << b.line + e.line - 1;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);
}
