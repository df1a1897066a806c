#include "servebench/report/html_renderer.hpp"

#include <sstream>

#include <gtest/gtest.h>

using namespace servebench::report;

TEST(HtmlRenderer, SelfContainedPageWithTheSameBlocks) {
  Document doc;
  doc.title = "servebench report: <demo>";
  doc.add(Heading{2, "Arms"});
  doc.add(Table{{"arm", "out tok/s"}, {Align::left, Align::right}, {{"e7b & co", "412"}}});
  doc.add(CodeBlock{"a --flag \"x\""});
  ChartSpec chart{"s0-output", "chat: output", "C", "tok/s", AxisScale::log2, {}, {}};
  chart.series.push_back({"e7b", 0, SeriesLine::through_points, {{1, 5, "e7b C=1"}}, {}});
  doc.add(Figure{chart});
  std::ostringstream out;
  render_html(doc, out);
  const std::string html = out.str();
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(html.find("<title>servebench report: &lt;demo&gt;</title>"), std::string::npos);
  EXPECT_NE(html.find("<h2>Arms</h2>"), std::string::npos);
  EXPECT_NE(html.find("<td>e7b &amp; co</td><td class=\"r\">412</td>"), std::string::npos);
  EXPECT_NE(html.find("<pre><code>a --flag &quot;x&quot;</code></pre>"), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"chart\" id=\"s0-output\""), std::string::npos);
  EXPECT_NE(html.find("<figcaption>Figure 1: chat: output</figcaption>"), std::string::npos);
  // Nothing to fetch and nothing to run.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  EXPECT_TRUE(html.ends_with("</html>\n"));
}

TEST(HtmlRenderer, LargeTablesAreCompactButHoldEveryValue) {
  Document doc;
  doc.title = "big";
  Table t{{"C", "arm", "out tok/s", "note"}, {Align::right, Align::left, Align::right, Align::left}, {}};
  for (int i = 0; i < 600; ++i) t.rows.push_back({std::to_string(i), "a&b", std::to_string(i * 10), i == 3 ? "x" : ""});
  doc.add(t);
  doc.add(Table{{"x"}, {Align::right}, {{"1"}}});  // small tables keep the ordinary form
  std::ostringstream out;
  render_html(doc, out);
  const std::string html = out.str();
  EXPECT_NE(html.find("<table class=\"c c0\">"), std::string::npos);
  EXPECT_NE(html.find("table.c0 td:nth-child(2),table.c0 td:nth-child(4){text-align:left"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>599<td>a&amp;b<td>5990\n"), std::string::npos);  // trailing empty cell left out
  EXPECT_NE(html.find("<tr><td>3<td>a&amp;b<td>30<td>x\n"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"r\">1</td>"), std::string::npos);
}

TEST(HtmlRenderer, SmallDocumentsHaveNoCompactStyle) {
  Document doc;
  doc.add(Table{{"x"}, {Align::right}, {{"1"}}});
  std::ostringstream out;
  render_html(doc, out);
  EXPECT_EQ(out.str().find("table.c"), std::string::npos);
}

TEST(HtmlRenderer, ABannerIsAnAlertBoxWithEscapedText) {
  Document doc;
  doc.title = "t";
  doc.add(Banner{"RESTORE FAILED — arm <a>: max_running_requests 32 → 16"});
  std::ostringstream out;
  render_html(doc, out);
  const std::string html = out.str();
  EXPECT_NE(html.find("<div class=\"banner\" role=\"alert\">RESTORE FAILED — arm &lt;a&gt;: max_running_requests 32 → 16</div>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find(".banner{"), std::string::npos) << "styled to stand out";
}
