#include "servebench/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "report_test_support.hpp"

using namespace servebench::report;

namespace {
ChartSpec two_series() {
  ChartSpec c{"s0-output", "chat: output tok/s vs concurrency", "concurrency (log₂)", "output tok/s", AxisScale::log2,
              {}, {}};
  c.series.push_back({"e7b", 0, SeriesLine::through_points, {{1, 49.6, "e7b C=1"}, {8, 110, "e7b C=8"}}, {}});
  c.series.push_back({"tp2pp4 <b>", 1, SeriesLine::through_points, {{1, 16.7, "tp C=1"}, {8, 130, "tp C=8"}}, {}});
  return c;
}

}  // namespace

TEST(SvgChart, DrawsAxesSeriesMarkersAndLegend) {
  std::ostringstream out;
  render_svg(two_series(), out);
  const std::string svg = out.str();
  EXPECT_TRUE(svg.starts_with(R"(<svg class="chart" id="s0-output")"));
  EXPECT_EQ(test_support::occurrences(svg, "</svg>"), 1u);
  EXPECT_EQ(test_support::occurrences(svg, "class=\"series-line\""), 2u);
  EXPECT_EQ(test_support::occurrences(svg, "class=\"pt\""), 4u + 2u);  // four points and two legend markers
  EXPECT_EQ(test_support::occurrences(svg, "<circle"), 3u);            // e7b: circles; tp2pp4: squares
  EXPECT_EQ(test_support::occurrences(svg, "<rect class=\"pt\""), 3u);
  EXPECT_NE(svg.find(">output tok/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">concurrency (log₂)</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">16</text>"), std::string::npos);                // the log₂ axis stops at 8
  EXPECT_NE(svg.find(">tp2pp4 &lt;b&gt;</text>"), std::string::npos);  // escaped legend
  EXPECT_NE(svg.find("<title>e7b C=8</title>"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
}

TEST(SvgChart, ParetoSeriesDrawsItsFrontierAndFadesDominatedPoints) {
  ChartSpec c{"p", "pareto", "tok/s/user", "tok/s/GPU", AxisScale::linear, {}, {}};
  c.series.push_back({"a",
                      2,
                      SeriesLine::frontier,
                      {{70, 200, "C1"}, {35, 300, "C16"}, {40, 450, "C8"}},
                      {{40, 450, ""}, {70, 200, ""}}});
  std::ostringstream out;
  render_svg(c, out);
  const std::string svg = out.str();
  EXPECT_EQ(test_support::occurrences(svg, "fill-opacity=\"0.35\""), 1u);  // (35, 300) is dominated
  EXPECT_EQ(test_support::occurrences(svg, "class=\"series-line\""), 1u);
  EXPECT_NE(svg.find("Pareto frontier"), std::string::npos);
}

TEST(SvgChart, PlottablePointsExcludeUndefinedValues) {
  ChartSpec c{"x", "t", "x", "y", AxisScale::log2, {}, {}};
  c.series.push_back({"a", 0, SeriesLine::through_points, {{0, 1, ""}, {2, std::nan(""), ""}}, {}});
  EXPECT_FALSE(has_plottable_points(c));
  c.series[0].points.push_back({2, 1, ""});
  EXPECT_TRUE(has_plottable_points(c));
}

TEST(SvgChart, ALimitIsADashedLabelledLineInsideTheAxis) {
  EXPECT_EQ(test_support::occurrences([] {
              std::ostringstream out;
              render_svg(two_series(), out);
              return out.str();
            }(),
                  "limit-line"),
            0u);  // no limit, no line
  ChartSpec c = two_series();
  c.limits.push_back({400, "SLO ttft p99 ≤ 400 ms <x>"});  // above every point (130): the axis must reach it
  c.limits.push_back({std::nan(""), "undefined"});
  std::ostringstream out;
  render_svg(c, out);
  const std::string svg = out.str();
  EXPECT_EQ(test_support::occurrences(svg, "class=\"limit-line\""), 1u);
  EXPECT_NE(svg.find(">SLO ttft p99 ≤ 400 ms &lt;x&gt;</text>"), std::string::npos);
  EXPECT_EQ(svg.find("undefined"), std::string::npos);
  EXPECT_NE(svg.find(">500</text>"), std::string::npos) << svg;  // the y axis grew from 150 to 500
  // The line sits at 400 of the 0–500 axis: 80 % of the way up the plot (y 318 → 44).
  const double y = 318 - 0.8 * (318 - 44);
  EXPECT_NE(svg.find(fmt::format(R"(class="limit-line" x1="80" y1="{:.1f}" x2="565" y2="{:.1f}")", y, y)),
            std::string::npos)
      << svg;
  EXPECT_EQ(test_support::occurrences(svg, "class=\"pt\""), 4u + 2u);  // the line is no plotted point
}

TEST(SvgChart, EscapesMarkup) { EXPECT_EQ(escape_xml(R"(a<b>&"c'")"), "a&lt;b&gt;&amp;&quot;c&#39;&quot;"); }

namespace {
ChartSpec ladder(std::size_t arms, std::size_t levels) {
  ChartSpec c{"s0-output", "big: output", "C", "tok/s", AxisScale::log2, {}, {}};
  for (std::size_t a = 0; a < arms; ++a) {
    ChartSeries s{"arm" + std::to_string(a), a, SeriesLine::through_points, {}, {}};
    for (std::size_t l = 1; l <= levels; ++l) {
      s.points.push_back({static_cast<double>(l), static_cast<double>(l * (a + 1)), "p"});
    }
    c.series.push_back(std::move(s));
  }
  return c;
}
}  // namespace

TEST(SvgChart, UpToTheMarkerLimitEveryPointHasAMarker) {
  const ChartSpec c = ladder(4, k_max_chart_markers / 4);
  EXPECT_EQ(plottable_points(c), k_max_chart_markers);
  std::ostringstream out;
  render_svg(c, out);
  EXPECT_EQ(test_support::occurrences(out.str(), "<title>p</title>"), k_max_chart_markers);
  EXPECT_EQ(out.str().find("markers for"), std::string::npos);
}

TEST(SvgChart, BeyondTheLimitMarkersAreThinnedEvenlyAndTheChartSaysSo) {
  const ChartSpec c = ladder(20, 100);  // 2,000 points
  const auto mask = marker_mask(c.series[0], c.x_scale, k_max_chart_markers, plottable_points(c));
  const auto kept = static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true));
  EXPECT_EQ(kept, k_max_chart_markers * 100 / 2000);
  EXPECT_TRUE(mask.front());  // the ends of each series are always marked
  EXPECT_TRUE(mask.back());
  std::ostringstream out;
  render_svg(c, out);
  const std::string svg = out.str();
  EXPECT_LE(test_support::occurrences(svg, "<title>p</title>"), k_max_chart_markers);
  EXPECT_GE(test_support::occurrences(svg, "<title>p</title>"), k_max_chart_markers / 2);
  EXPECT_NE(svg.find(fmt::format("markers for {} of 2000 points", test_support::occurrences(svg, "<title>p</title>"))), std::string::npos);
  EXPECT_EQ(test_support::occurrences(svg, "class=\"series-line\""), 20u);  // every series still has its whole line
}
