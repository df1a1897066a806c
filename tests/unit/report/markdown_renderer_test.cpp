#include "servebench/report/markdown_renderer.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "servebench/util/strings.hpp"

using namespace servebench::report;

TEST(MarkdownRenderer, TableColumnsLineUpInPlainText) {
  const Table t{{"arm", "ratio", "note"},
                {Align::left, Align::right, Align::left},
                {{"tp2pp4 ÷ e7b", "2.95×", "a|b"}, {"e7b", "—", ""}}};
  std::ostringstream out;
  render_markdown_table(t, out);
  EXPECT_EQ(out.str(),
            "| arm          | ratio | note |\n"
            "| ------------ | ----: | ---- |\n"
            "| tp2pp4 ÷ e7b | 2.95× | a\\|b |\n"
            "| e7b          |     — |      |\n");
  // Every line has the same width in code points, so the pipes line up.
  const std::string text = out.str();
  for (const auto line : servebench::util::split(text, '\n')) {
    if (!line.empty()) {
      EXPECT_EQ(display_width(line), 31u) << line;
    }
  }
}

TEST(MarkdownRenderer, RendersEveryBlockKind) {
  Document doc;
  doc.title = "servebench report: demo";
  doc.add(Heading{2, "Arms"});
  doc.add(Paragraph{"two arms"});
  doc.add(BulletList{{"one", "two"}});
  doc.add(CodeBlock{"servebench serve-sim --tp-size 8"});
  ChartSpec chart;
  chart.title = "chat: output tok/s vs concurrency";
  doc.add(Figure{chart});
  chart.title = "chat: TTFT p99 vs concurrency";
  chart.limits.push_back({2000, "SLO ttft p99 ≤ 2,000 ms"});
  doc.add(Figure{chart});
  std::ostringstream out;
  render_markdown(doc, out);
  EXPECT_EQ(
      out.str(),
      "# servebench report: demo\n\n## Arms\n\ntwo arms\n\n- one\n- two\n\n"
      "```\nservebench serve-sim --tp-size 8\n```\n\n"
      "*Chart: chat: output tok/s vs concurrency (drawn in the HTML report; the numbers are in the table above).*\n\n"
      "*Chart: chat: TTFT p99 vs concurrency, dashed line at SLO ttft p99 ≤ 2,000 ms (drawn in the HTML report; the "
      "numbers are in the table above).*\n\n");
}

TEST(MarkdownRenderer, DisplayWidthCountsCodePoints) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("→×—≤"), 4u);
  EXPECT_EQ(display_width(""), 0u);
}

TEST(MarkdownRenderer, RawHtmlFromNamesAndNotesIsShownNotRendered) {
  Document doc;
  doc.title = "campaign <b>x</b>";
  doc.add(Heading{2, "Arm <script>alert(1)</script>"});
  doc.add(Paragraph{"note: <img src=x onerror=alert(1)>"});
  doc.add(BulletList{{"<iframe>"}});
  doc.add(Table{{"arm"}, {Align::left}, {{"<script>"}}});
  doc.add(CodeBlock{"--flag '<kept verbatim>'"});
  std::ostringstream out;
  render_markdown(doc, out);
  const std::string md = out.str();
  EXPECT_EQ(md.find("<script"), std::string::npos) << md;
  EXPECT_EQ(md.find("<img"), std::string::npos) << md;
  EXPECT_EQ(md.find("<iframe"), std::string::npos) << md;
  EXPECT_EQ(md.find("<b>"), std::string::npos) << md;
  EXPECT_NE(md.find("Arm &lt;script>alert(1)&lt;/script>"), std::string::npos) << md;
  EXPECT_NE(md.find("```\n--flag '<kept verbatim>'\n```"), std::string::npos) << md;  // code is literal
}
