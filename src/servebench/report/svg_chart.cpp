#include "servebench/report/svg_chart.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "servebench/report/chart_axis.hpp"
#include "servebench/util/result.hpp"

namespace servebench::report {
namespace {

constexpr double k_width = 760, k_height = 380;
constexpr double k_left = 80, k_top = 44, k_right = 565, k_bottom = 318;
constexpr double k_marker = 4.5;
// Distinguishable for common color-vision deficiencies (Okabe–Ito), strongest first.
constexpr std::array<std::string_view, 6> k_colors{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"};

bool plottable(const ChartPoint& p, AxisScale x_scale) {
  return std::isfinite(p.x) && std::isfinite(p.y) && (x_scale == AxisScale::linear || p.x > 0);
}

bool drawable(const ChartLimit& l) { return std::isfinite(l.y) && l.y >= 0; }

struct Frame {
  Axis x, y;
  double px(double v) const { return k_left + x.fraction(v) * (k_right - k_left); }
  double py(double v) const { return k_bottom - y.fraction(v) * (k_bottom - k_top); }
};

Frame frame_for(const ChartSpec& c) {
  double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
  for (const auto& s : c.series) {
    for (const auto& p : s.points) {
      if (!plottable(p, c.x_scale)) continue;
      xmin = std::min(xmin, p.x);
      xmax = std::max(xmax, p.x);
      ymax = std::max(ymax, p.y);
    }
  }
  for (const auto& l : c.limits) {
    if (drawable(l)) ymax = std::max(ymax, l.y);
  }
  Frame f;
  f.x = c.x_scale == AxisScale::log2 ? log2_axis(xmin, xmax) : linear_axis(xmax * 1.05);
  f.y = linear_axis(ymax * 1.05);
  return f;
}

struct Marker {
  std::string open;      // start tag without its closing '>'
  std::string_view tag;  // element name, to close it
};

// The marker shape of a style: circle, square, triangle, diamond, inverted triangle, cross.
Marker marker(std::size_t style, double x, double y) {
  const auto color = k_colors[style % k_colors.size()];
  const double r = k_marker;
  const auto path = [&](std::string d) {
    return Marker{fmt::format(R"(<path class="pt" d="{}" fill="{}")", d, color), "path"};
  };
  switch (style % 6) {
    case 0:
      return {fmt::format(R"(<circle class="pt" cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}")", x, y, r, color),
              "circle"};
    case 1:
      return {fmt::format(R"(<rect class="pt" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}")", x - r,
                          y - r, 2 * r, 2 * r, color),
              "rect"};
    case 2:
      return path(fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", x, y - 1.2 * r, x + 1.1 * r, y + 0.8 * r,
                              x - 1.1 * r, y + 0.8 * r));
    case 3:
      return path(fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", x, y - 1.3 * r, x + 1.3 * r,
                              y, x, y + 1.3 * r, x - 1.3 * r, y));
    case 4:
      return path(fmt::format("M{:.1f},{:.1f}L{:.1f},{:.1f}L{:.1f},{:.1f}Z", x, y + 1.2 * r, x + 1.1 * r, y - 0.8 * r,
                              x - 1.1 * r, y - 0.8 * r));
    default:
      return {fmt::format(R"(<path class="pt" d="M{:.1f},{:.1f}L{:.1f},{:.1f}M{:.1f},{:.1f}L{:.1f},{:.1f}")"
                          R"( stroke="{}" stroke-width="2.5" fill="none")",
                          x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r, color),
              "path"};
  }
}

void axes(std::ostream& out, const ChartSpec& c, const Frame& f) {
  out << fmt::format(R"(<text x="{}" y="24" font-size="15" font-weight="bold">{}</text>)", k_left, escape_xml(c.title))
      << '\n';
  for (const auto& t : f.y.ticks) {
    const double y = f.py(t.value);
    out << fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#ddd"/>)", k_left, y, k_right, y);
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="11" text-anchor="end">{}</text>)", k_left - 6, y + 4,
                       t.label)
        << '\n';
  }
  for (const auto& t : f.x.ticks) {
    const double x = f.px(t.value);
    out << fmt::format(R"(<line x1="{:.1f}" y1="{}" x2="{:.1f}" y2="{}" stroke="#eee"/>)", x, k_top, x, k_bottom);
    out << fmt::format(R"(<text x="{:.1f}" y="{}" font-size="11" text-anchor="middle">{}</text>)", x, k_bottom + 16,
                       t.label)
        << '\n';
  }
  out << fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333"/>)", k_left, k_top,
                     k_right - k_left, k_bottom - k_top)
      << '\n';
  out << fmt::format(R"(<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>)", (k_left + k_right) / 2,
                     k_bottom + 40, escape_xml(c.x_label))
      << '\n';
  out << fmt::format(
             R"svg(<text transform="translate(18,{}) rotate(-90)" font-size="12" text-anchor="middle">{}</text>)svg",
             (k_top + k_bottom) / 2, escape_xml(c.y_label))
      << '\n';
}

// A thinned chart (more points than markers) rounds its lines to whole pixels: half the bytes of a
// line, no visible difference at 760 px.
void polyline(std::ostream& out, const ChartSeries& s, std::vector<ChartPoint> pts, const Frame& f, AxisScale scale,
              bool whole_pixels) {
  std::erase_if(pts, [&](const ChartPoint& p) { return !plottable(p, scale); });
  if (pts.size() < 2) return;
  std::stable_sort(pts.begin(), pts.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.x < b.x; });
  std::string d;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const char* step = i == 0 ? "M" : "L";
    if (whole_pixels) fmt::format_to(std::back_inserter(d), "{}{:.0f},{:.0f}", step, f.px(pts[i].x), f.py(pts[i].y));
    else fmt::format_to(std::back_inserter(d), "{}{:.1f},{:.1f}", step, f.px(pts[i].x), f.py(pts[i].y));
  }
  out << fmt::format(R"(<path class="series-line" d="{}" fill="none" stroke="{}" stroke-width="2"/>)", d,
                     k_colors[s.style % k_colors.size()])
      << '\n';
}

void series(std::ostream& out, const ChartSeries& s, const Frame& f, AxisScale scale, const std::vector<bool>& mask,
            bool thinned) {
  polyline(out, s, s.line == SeriesLine::frontier ? s.frontier : s.points, f, scale, thinned);
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const ChartPoint& p = s.points[i];
    if (!mask[i]) continue;
    const bool faded =
        s.line == SeriesLine::frontier && std::none_of(s.frontier.begin(), s.frontier.end(),
                                                       [&](const ChartPoint& q) { return q.x == p.x && q.y == p.y; });
    const Marker m = marker(s.style, f.px(p.x), f.py(p.y));
    out << m.open << (faded ? R"( fill-opacity="0.35")" : "") << "><title>" << escape_xml(p.label) << "</title></"
        << m.tag << ">\n";
  }
}

// Dashed and black (no series is), labelled just above the line at the left of the plot, where a
// latency-vs-load curve is lowest; a white halo keeps the label legible over a series.
void limit_lines(std::ostream& out, const ChartSpec& c, const Frame& f) {
  for (const auto& l : c.limits) {
    if (!drawable(l)) continue;
    const double y = f.py(l.y);
    out << fmt::format(R"(<line class="limit-line" x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#000")"
                       R"( stroke-width="1.5" stroke-dasharray="6 4"/>)",
                       k_left, y, k_right, y);
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="11" paint-order="stroke" stroke="#fff")"
                       R"( stroke-width="3">{}</text>)",
                       k_left + 6, y - 5, escape_xml(l.label))
        << '\n';
  }
}

void legend(std::ostream& out, const ChartSpec& c) {
  double y = k_top + 8;
  for (const auto& s : c.series) {
    const auto color = k_colors[s.style % k_colors.size()];
    out << fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="{}" stroke-width="2"/>)", k_right + 16,
                       y, k_right + 40, y, color);
    out << marker(s.style, k_right + 28, y).open << "/>";
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="12">{}</text>)", k_right + 48, y + 4, escape_xml(s.name))
        << '\n';
    y += 22;
  }
  const bool frontier = std::any_of(c.series.begin(), c.series.end(),
                                    [](const ChartSeries& s) { return s.line == SeriesLine::frontier; });
  if (frontier) {
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="11" fill="#555">line: Pareto frontier</text>)",
                       k_right + 16, y + 4)
        << '\n';
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="11" fill="#555">faded: dominated point</text>)",
                       k_right + 16, y + 20)
        << '\n';
  }
  if (std::any_of(c.limits.begin(), c.limits.end(), drawable)) {
    y += 44 * static_cast<double>(frontier);
    out << fmt::format(R"(<line x1="{}" y1="{:.1f}" x2="{}" y2="{:.1f}" stroke="#000" stroke-width="1.5")"
                       R"( stroke-dasharray="6 4"/>)",
                       k_right + 16, y, k_right + 40, y);
    out << fmt::format(R"(<text x="{}" y="{:.1f}" font-size="12">limit</text>)", k_right + 48, y + 4) << '\n';
  }
}

}  // namespace

bool has_plottable_points(const ChartSpec& chart) {
  return std::any_of(chart.series.begin(), chart.series.end(), [&](const ChartSeries& s) {
    return std::any_of(s.points.begin(), s.points.end(),
                       [&](const ChartPoint& p) { return plottable(p, chart.x_scale); });
  });
}

std::size_t plottable_points(const ChartSpec& chart) {
  std::size_t n = 0;
  for (const auto& s : chart.series) {
    n += static_cast<std::size_t>(
        std::count_if(s.points.begin(), s.points.end(), [&](const ChartPoint& p) { return plottable(p, chart.x_scale); }));
  }
  return n;
}

std::vector<bool> marker_mask(const ChartSeries& s, AxisScale x_scale, std::size_t budget, std::size_t total) {
  std::vector<std::size_t> order;  // plottable points in x order
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    if (plottable(s.points[i], x_scale)) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s.points[a].x < s.points[b].x; });
  std::vector<bool> mask(s.points.size(), false);
  const std::size_t n = order.size();
  const std::size_t keep = total <= budget ? n : std::max<std::size_t>(2, budget * n / std::max<std::size_t>(total, 1));
  if (n == 0) return mask;
  for (std::size_t k = 0; k < std::min(keep, n); ++k) {
    mask[order[keep >= n || keep < 2 ? k : k * (n - 1) / (keep - 1)]] = true;
  }
  return mask;
}

void render_svg(const ChartSpec& chart, std::ostream& out) {
  SB_CHECK(has_plottable_points(chart));
  const Frame f = frame_for(chart);
  const std::size_t total = plottable_points(chart);
  out << fmt::format(R"(<svg class="chart" id="{}" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}")"
                     R"( viewBox="0 0 {} {}" font-family="sans-serif" role="img" aria-label="{}">)",
                     chart.id, k_width, k_height, k_width, k_height, escape_xml(chart.title))
      << '\n';
  axes(out, chart, f);
  std::size_t drawn = 0;
  for (const auto& s : chart.series) {
    const auto mask = marker_mask(s, chart.x_scale, k_max_chart_markers, total);
    drawn += static_cast<std::size_t>(std::count(mask.begin(), mask.end(), true));
    series(out, s, f, chart.x_scale, mask, total > k_max_chart_markers);
  }
  limit_lines(out, chart, f);
  legend(out, chart);
  if (drawn < total) {
    out << fmt::format(R"(<text x="{}" y="{}" font-size="11" fill="#555">markers for {} of {} points, evenly spaced;)"
                       R"( lines pass through all; the table has every value</text>)",
                       k_left, k_height - 8, drawn, total)
        << '\n';
  }
  out << "</svg>\n";
}

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace servebench::report
