#pragma once
// Selection-level differences between two sets of cookbook pages (page_json.hpp): from two
// catalogs, two exports or one of each. Selections are matched by their dim=option pairs (key order
// does not matter); every field that differs is named, lists by items added and removed, texts by
// their first differing line.
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

namespace servebench::recipe {

struct FieldDifference {
  std::string field;   // e.g. "flags", "command"
  std::string detail;  // "- --ep-size 8; + --ep-size 4" · "line 3: a | b" · "true | false"
};

struct SelectionDifference {
  std::string selection;  // "hw=b300,strategy=low-latency,…" in A's key order
  std::vector<FieldDifference> fields;
};

struct PagesDiff {
  std::size_t compared = 0;  // selections present in both
  std::vector<SelectionDifference> differing;
  std::vector<std::string> only_a, only_b;
  bool same() const { return differing.empty() && only_a.empty() && only_b.empty(); }
};

PagesDiff diff_pages(const std::vector<boost::json::object>& a, const std::vector<boost::json::object>& b);
// "N selections compared, D differ, A only in <a>, B only in <b>" and one line per difference.
std::string to_text(const PagesDiff& d, std::string_view name_a, std::string_view name_b);
boost::json::object to_json(const PagesDiff& d);

}  // namespace servebench::recipe
