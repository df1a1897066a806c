#pragma once
// The report as a list of blocks, built once and rendered twice (Markdown and HTML), so both files
// carry the same content. Text is plain (renderers escape it); numbers arrive already formatted.
#include <string>
#include <variant>
#include <vector>

#include "servebench/report/svg_chart.hpp"

namespace servebench::report {

struct Heading {
  int level = 2;  // 1..4
  std::string text;
};

struct Paragraph {
  std::string text;
};

struct BulletList {
  std::vector<std::string> items;
};

// A warning the reader must not miss (a failed in-service restore): set apart from the text in
// both renderers.
struct Banner {
  std::string text;
};

// Literal text shown verbatim (launch commands).
struct CodeBlock {
  std::string text;
};

enum class Align { left, right };

struct Table {
  std::vector<std::string> headers;
  std::vector<Align> align;  // one per column
  std::vector<std::vector<std::string>> rows;
};

// A chart: drawn in the HTML; the Markdown names it and points to the table that holds its data.
struct Figure {
  ChartSpec chart;
};

using Block = std::variant<Heading, Paragraph, Banner, BulletList, CodeBlock, Table, Figure>;

struct Document {
  std::string title;
  std::vector<Block> blocks;

  template <class B>
  void add(B block) {
    blocks.emplace_back(std::move(block));
  }
};

}  // namespace servebench::report
