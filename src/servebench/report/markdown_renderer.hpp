#pragma once
// Renders a Document as Markdown (GitHub/CommonMark tables) that also reads well as plain text:
// table columns are padded to a common width (counted in code points), numbers right-aligned.
#include <ostream>
#include <string_view>

#include "servebench/report/document.hpp"

namespace servebench::report {

// Writes the whole document; never fails (the stream's state is the caller's to check).
void render_markdown(const Document& doc, std::ostream& out);
// Writes one table, padded; exposed for tests.
void render_markdown_table(const Table& table, std::ostream& out);
// Width of UTF-8 text in code points (every character this report prints is one column wide).
std::size_t display_width(std::string_view text);

}  // namespace servebench::report
