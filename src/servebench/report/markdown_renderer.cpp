#include "servebench/report/markdown_renderer.hpp"

#include <algorithm>

#include "servebench/util/result.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::report {
namespace {

// Markdown viewers render raw HTML: a '<' from an arm name or a server's message could open a
// <script> or an <img onerror>. As "&lt;" it shows as the character it is.
std::string md_text(std::string_view text) { return util::replace_all(std::string(text), "<", "&lt;"); }

std::string cell_text(std::string_view text) { return util::replace_all(md_text(text), "|", "\\|"); }

void pad(std::ostream& out, std::string_view text, std::size_t width, Align align) {
  const std::size_t w = display_width(text);
  const std::string fill(width > w ? width - w : 0, ' ');
  if (align == Align::right) {
    out << fill << text;
  } else {
    out << text << fill;
  }
}

struct MarkdownBlockWriter {
  std::ostream& out;

  void operator()(const Heading& h) const {
    out << std::string(static_cast<std::size_t>(h.level), '#') << ' ' << md_text(h.text) << "\n\n";
  }
  void operator()(const Paragraph& p) const { out << md_text(p.text) << "\n\n"; }
  void operator()(const Banner& b) const { out << "> **" << md_text(b.text) << "**\n\n"; }
  void operator()(const BulletList& l) const {
    for (const auto& item : l.items) out << "- " << md_text(item) << '\n';
    out << '\n';
  }
  void operator()(const CodeBlock& c) const { out << "```\n" << c.text << "\n```\n\n"; }
  void operator()(const Table& t) const {
    render_markdown_table(t, out);
    out << '\n';
  }
  void operator()(const Figure& f) const {
    std::vector<std::string> limits;
    for (const auto& l : f.chart.limits) limits.push_back(l.label);
    out << "*Chart: " << md_text(f.chart.title)
        << (limits.empty() ? "" : ", dashed line at " + md_text(util::join(limits, "; ")))
        << " (drawn in the HTML report; the numbers are in the table above).*\n\n";
  }
};

}  // namespace

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a UTF-8 continuation byte
  }));
}

void render_markdown_table(const Table& t, std::ostream& out) {
  const std::size_t n = t.headers.size();
  SB_CHECK(t.align.size() == n);
  std::vector<std::vector<std::string>> cells;
  cells.push_back({});
  for (const auto& h : t.headers) cells.back().push_back(cell_text(h));
  for (const auto& row : t.rows) {
    SB_CHECK(row.size() == n);
    cells.push_back({});
    for (const auto& c : row) cells.back().push_back(cell_text(c));
  }
  std::vector<std::size_t> width(n, 3);
  for (const auto& row : cells) {
    for (std::size_t i = 0; i < n; ++i) width[i] = std::max(width[i], display_width(row[i]));
  }
  for (std::size_t r = 0; r < cells.size(); ++r) {
    out << '|';
    for (std::size_t i = 0; i < n; ++i) {
      out << ' ';
      pad(out, cells[r][i], width[i], r == 0 ? Align::left : t.align[i]);
      out << " |";
    }
    out << '\n';
    if (r != 0) continue;
    out << '|';
    for (std::size_t i = 0; i < n; ++i) {
      out << ' ' << std::string(width[i] - 1, '-') << (t.align[i] == Align::right ? ':' : '-') << " |";
    }
    out << '\n';
  }
}

void render_markdown(const Document& doc, std::ostream& out) {
  out << "# " << md_text(doc.title) << "\n\n";
  for (const auto& block : doc.blocks) std::visit(MarkdownBlockWriter{out}, block);
}

}  // namespace servebench::report
