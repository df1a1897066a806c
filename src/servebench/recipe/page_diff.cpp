#include "servebench/recipe/page_diff.hpp"

#include <algorithm>
#include <map>

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

namespace json = boost::json;

std::string selection_text(const json::object& page) {
  std::vector<std::string> parts;
  for (const auto& kv : page.at("selection").as_object()) {
    parts.push_back(fmt::format("{}={}", std::string_view(kv.key()), kv.value().is_string() ? std::string(kv.value().as_string()) : json::serialize(kv.value())));
  }
  return util::join(parts, ",");
}

// Order-free identity of a selection.
std::string selection_key(const json::object& page) {
  const std::string text = selection_text(page);
  const auto parts = util::split(text, ',');
  std::vector<std::string> sorted(parts.begin(), parts.end());
  std::sort(sorted.begin(), sorted.end());
  return util::join(sorted, ",");
}

bool string_list(const json::value& v) {
  return v.is_array() && std::all_of(v.as_array().begin(), v.as_array().end(), [](const json::value& x) { return x.is_string(); });
}

std::string list_detail(const json::array& a, const json::array& b) {
  std::vector<std::string> out;
  for (const auto& x : a) {
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back("- " + std::string(x.as_string()));
  }
  for (const auto& x : b) {
    if (std::find(a.begin(), a.end(), x) == a.end()) out.push_back("+ " + std::string(x.as_string()));
  }
  if (out.empty()) return "same items in another order";
  return util::join(out, "; ");
}

std::string text_detail(std::string_view a, std::string_view b) {
  const auto la = util::split(a, '\n'), lb = util::split(b, '\n');
  for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
    const std::string_view x = i < la.size() ? la[i] : "(none)", y = i < lb.size() ? lb[i] : "(none)";
    if (x != y) return fmt::format("line {}: {} | {}", i + 1, x, y);
  }
  return "same text";
}

std::string detail(const json::value* a, const json::value* b) {
  if (a == nullptr || b == nullptr) return fmt::format("{} | {}", a ? json::serialize(*a) : "(absent)", b ? json::serialize(*b) : "(absent)");
  if (string_list(*a) && string_list(*b)) return list_detail(a->as_array(), b->as_array());
  if (a->is_string() && b->is_string()) return text_detail(a->as_string(), b->as_string());
  return fmt::format("{} | {}", json::serialize(*a), json::serialize(*b));
}

std::vector<FieldDifference> compare(const json::object& a, const json::object& b) {
  std::vector<std::string> fields;
  for (const auto& kv : a) fields.emplace_back(kv.key());
  for (const auto& kv : b) {
    if (!a.contains(kv.key())) fields.emplace_back(kv.key());
  }
  std::vector<FieldDifference> out;
  for (const auto& f : fields) {
    const json::value* x = a.if_contains(f);
    const json::value* y = b.if_contains(f);
    if (x != nullptr && y != nullptr && *x == *y) continue;
    out.push_back({f, detail(x, y)});
  }
  return out;
}

}  // namespace

PagesDiff diff_pages(const std::vector<json::object>& a, const std::vector<json::object>& b) {
  PagesDiff out;
  std::map<std::string, const json::object*> by_key;
  for (const auto& page : b) by_key.emplace(selection_key(page), &page);
  for (const auto& page : a) {
    const auto it = by_key.find(selection_key(page));
    if (it == by_key.end()) {
      out.only_a.push_back(selection_text(page));
      continue;
    }
    ++out.compared;
    if (auto fields = compare(page, *it->second); !fields.empty()) out.differing.push_back({selection_text(page), std::move(fields)});
    by_key.erase(it);
  }
  for (const auto& page : b) {
    if (by_key.contains(selection_key(page))) out.only_b.push_back(selection_text(page));
  }
  return out;
}

std::string to_text(const PagesDiff& d, std::string_view name_a, std::string_view name_b) {
  std::string out;
  for (const auto& s : d.differing) {
    for (const auto& f : s.fields) out += fmt::format("{}: {}: {}\n", s.selection, f.field, f.detail);
  }
  for (const auto& s : d.only_a) out += fmt::format("{}: only in {}\n", s, name_a);
  for (const auto& s : d.only_b) out += fmt::format("{}: only in {}\n", s, name_b);
  out += fmt::format("{} selections compared, {} differ, {} only in {}, {} only in {}\n", d.compared, d.differing.size(),
                     d.only_a.size(), name_a, d.only_b.size(), name_b);
  return out;
}

json::object to_json(const PagesDiff& d) {
  json::array differing, only_a, only_b;
  for (const auto& s : d.differing) {
    json::array fields;
    for (const auto& f : s.fields) fields.push_back(json::object{{"field", f.field}, {"detail", f.detail}});
    differing.push_back(json::object{{"selection", s.selection}, {"fields", std::move(fields)}});
  }
  for (const auto& s : d.only_a) only_a.emplace_back(s);
  for (const auto& s : d.only_b) only_b.emplace_back(s);
  return {{"compared", d.compared}, {"differing", std::move(differing)}, {"only_a", std::move(only_a)}, {"only_b", std::move(only_b)}};
}

}  // namespace servebench::recipe
