#pragma once
// Renders a Document as one self-contained HTML page: inline CSS, charts as inline SVG, no
// scripts, no external fonts or assets; the same blocks as the Markdown.
#include <ostream>

#include "servebench/report/document.hpp"

namespace servebench::report {

// Writes the whole page; never fails (the stream's state is the caller's to check).
void render_html(const Document& doc, std::ostream& out);

}  // namespace servebench::report
