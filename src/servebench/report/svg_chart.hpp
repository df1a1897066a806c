#pragma once
// Line/scatter charts as inline SVG: no scripts, no external fonts or assets. Axes carry units and
// tick labels; the x axis is linear or log₂ (concurrency); every series has its own color and
// marker shape (by `style`, so an arm looks the same in every chart) and a legend entry.
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace servebench::report {

enum class AxisScale { linear, log2 };

struct ChartPoint {
  double x = 0, y = 0;
  std::string label;  // hover text, e.g. "e7b C=8: 412 tok/s"
};

enum class SeriesLine {
  through_points,  // a line through every point in x order
  frontier,        // markers for every point, the line only through `frontier` (Pareto)
};

struct ChartSeries {
  std::string name;
  std::size_t style = 0;  // color and marker index (the arm's index)
  SeriesLine line = SeriesLine::through_points;
  std::vector<ChartPoint> points;
  std::vector<ChartPoint> frontier;
};

// A limit (an SLO) as a horizontal line across the plot: dashed, labelled on the chart itself,
// and always inside the y range (the axis grows to show it).
struct ChartLimit {
  double y = 0;
  std::string label;  // "SLO ttft p99 ≤ 2,000 ms"
};

struct ChartSpec {
  std::string id;                // unique in the page, [a-z0-9-]
  std::string title;             // "16k-512: output tok/s vs concurrency"
  std::string x_label, y_label;  // with units: "concurrency (requests, log₂ scale)", "output tok/s"
  AxisScale x_scale = AxisScale::linear;
  std::vector<ChartSeries> series;
  std::vector<ChartLimit> limits;  // none for most charts; only finite y ≥ 0 are drawn
};

// A chart draws a marker (with its hover text) for at most this many points. Beyond it, each series
// keeps the markers of an evenly spaced subset (its first and last point always) and the chart
// says so; the lines (a Pareto frontier included) still pass through every point they pass through
// unthinned, and the tables hold every number exactly.
inline constexpr std::size_t k_max_chart_markers = 120;

// True when at least one series has a point with finite coordinates (x > 0 on a log₂ axis).
bool has_plottable_points(const ChartSpec& chart);
// The plottable points of the chart (the markers it would draw without a limit).
std::size_t plottable_points(const ChartSpec& chart);
// Which points of `s` get a marker when the chart may draw `budget` of `total` markers: all when
// total <= budget, else about budget × size / total of them, evenly spaced in x order.
std::vector<bool> marker_mask(const ChartSeries& s, AxisScale x_scale, std::size_t budget, std::size_t total);
// Writes one <svg> element. SB_CHECKs has_plottable_points: callers never emit an empty chart.
void render_svg(const ChartSpec& chart, std::ostream& out);
// Escapes &, <, >, " and ' for XML/HTML text and attributes.
std::string escape_xml(std::string_view text);

}  // namespace servebench::report
