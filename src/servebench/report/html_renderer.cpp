#include "servebench/report/html_renderer.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace servebench::report {
namespace {

constexpr std::string_view k_style =
    R"(body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.85em}
th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}th{background:#f3f3f3;text-align:left}
td.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
figure{margin:1em 0}figcaption{font-size:.85em;color:#555}
.banner{border:3px solid #b00;background:#fee;color:#700;font-weight:bold;padding:.6em 1em;margin:1em 0})";
// Tables of more than k_compact_rows rows are written compactly, so a report of 100,000 points stays
// small: optional end tags omitted, trailing empty cells left out, and alignment by column from a
// class per column layout (`c0`, `c1`, … in the style sheet) instead of an attribute per cell.
// Every value is written exactly as in a small table.
constexpr std::size_t k_compact_rows = 500;

// The distinct column layouts (left-aligned column numbers, 1-based) of the compact tables, in
// first-seen order; a table's class is its index here.
std::vector<std::vector<std::size_t>> compact_layouts(const Document& doc) {
  std::vector<std::vector<std::size_t>> layouts;
  for (const auto& b : doc.blocks) {
    const auto* t = std::get_if<Table>(&b);
    if (t == nullptr || t->rows.size() <= k_compact_rows) continue;
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < t->align.size(); ++i) {
      if (t->align[i] != Align::right) left.push_back(i + 1);
    }
    if (std::find(layouts.begin(), layouts.end(), left) == layouts.end()) layouts.push_back(left);
  }
  return layouts;
}

std::string compact_style(const std::vector<std::vector<std::size_t>>& layouts) {
  if (layouts.empty()) return "";
  std::string css = "\ntable.c td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}";
  for (std::size_t k = 0; k < layouts.size(); ++k) {
    std::string selectors;
    for (const std::size_t col : layouts[k]) {
      selectors += fmt::format("{}table.c{} td:nth-child({})", selectors.empty() ? "" : ",", k, col);
    }
    if (!selectors.empty()) css += selectors + "{text-align:left;white-space:normal}";
  }
  return css;
}

struct Renderer {
  std::ostream& out;
  std::vector<std::vector<std::size_t>> layouts;  // of the compact tables
  int figures = 0;

  void operator()(const Heading& h) { out << fmt::format("<h{0}>{1}</h{0}>\n", h.level, escape_xml(h.text)); }
  void operator()(const Paragraph& p) { out << "<p>" << escape_xml(p.text) << "</p>\n"; }
  void operator()(const Banner& b) { out << "<div class=\"banner\" role=\"alert\">" << escape_xml(b.text) << "</div>\n"; }
  void operator()(const BulletList& l) {
    out << "<ul>\n";
    for (const auto& item : l.items) out << "<li>" << escape_xml(item) << "</li>\n";
    out << "</ul>\n";
  }
  void operator()(const CodeBlock& c) { out << "<pre><code>" << escape_xml(c.text) << "</code></pre>\n"; }
  void compact(const Table& t) {
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < t.align.size(); ++i) {
      if (t.align[i] != Align::right) left.push_back(i + 1);
    }
    const auto layout = std::find(layouts.begin(), layouts.end(), left) - layouts.begin();
    out << "<table class=\"c c" << layout << "\">\n<thead><tr>";
    for (const auto& h : t.headers) out << "<th>" << escape_xml(h);
    out << "\n</thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
      std::size_t cells = row.size();
      while (cells > 0 && row[cells - 1].empty()) --cells;
      out << "<tr>";
      for (std::size_t i = 0; i < cells; ++i) out << "<td>" << escape_xml(row[i]);
      out << '\n';
    }
    out << "</tbody>\n</table>\n";
  }
  void operator()(const Table& t) {
    if (t.rows.size() > k_compact_rows) return compact(t);
    out << "<table>\n<thead><tr>";
    for (const auto& h : t.headers) out << "<th>" << escape_xml(h) << "</th>";
    out << "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
      out << "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) {
        out << (t.align[i] == Align::right ? "<td class=\"r\">" : "<td>") << escape_xml(row[i]) << "</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
  }
  void operator()(const Figure& f) {
    out << "<figure>\n";
    render_svg(f.chart, out);
    out << "<figcaption>Figure " << ++figures << ": " << escape_xml(f.chart.title) << "</figcaption>\n</figure>\n";
  }
};

}  // namespace

void render_html(const Document& doc, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out << "<title>" << escape_xml(doc.title) << "</title>\n<style>\n" << k_style;
  Renderer r{out, compact_layouts(doc)};
  out << compact_style(r.layouts) << "\n</style>\n</head>\n<body>\n";
  out << "<h1>" << escape_xml(doc.title) << "</h1>\n";
  for (const auto& block : doc.blocks) std::visit(r, block);
  out << "</body>\n</html>\n";
}

}  // namespace servebench::report
