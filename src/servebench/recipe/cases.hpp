#pragma once
// Values that depend on the selection, the data form of the cookbook's `(s) => …` option fields:
//   flags: [--a, --b]                                  one value for every selection
//   flags:                                             the first case whose `when` holds
//     - {when: {hw: [h200, h100]}, then: [--a]}
//     - {else: [--b]}                                  a case that always holds
// Entry lists (flags, env, hints, strip_prefixes) may nest lists, which are flattened, so a YAML
// anchor can name a fragment that several lists reuse: [--model-path X, *mtp_flags, --port 30000].
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "servebench/recipe/rule.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

// One flag with its value(s), one K=V, or one line of text, with its catalog position.
struct CatalogEntry {
  std::string text;
  std::string where;  // file:line:col
  friend bool operator==(const CatalogEntry& a, const CatalogEntry& b) { return a.text == b.text; }
};
using EntryList = std::vector<CatalogEntry>;

template <class T>
struct Cases {
  struct Case {
    Conditions when;  // empty: always holds
    T value;
    std::string where;
  };
  std::vector<Case> cases;
  // The value of the first case that holds, or nullptr.
  const T* pick(std::span<const std::string> selected) const {
    for (const auto& c : cases) {
      if (conditions_hold(c.when, selected)) return &c.value;
    }
    return nullptr;
  }
  bool empty() const { return cases.empty(); }
};
using TextCases = Cases<std::string>;
using EntryCases = Cases<EntryList>;

// A list of scalars (nested lists flattened, in order). Fails (bad_input) on a mapping or an empty item.
util::Result<EntryList> parse_entries(const std::string& file, const YAML::Node& node, std::string_view what);
// A scalar, or a list of {when, then: scalar} / {else: scalar} cases.
util::Result<TextCases> parse_text_cases(const std::string& file, const YAML::Node& node, std::string_view what);
// An entry list, or a list of {when, then: [entries]} / {else: [entries]} cases. Mixing entries and
// cases in one list fails.
util::Result<EntryCases> parse_entry_cases(const std::string& file, const YAML::Node& node, std::string_view what);

// The texts of an entry list.
std::vector<std::string> texts(const EntryList& entries);

}  // namespace servebench::recipe
