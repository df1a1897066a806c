#pragma once
// What the cookbook page shows for one selection (docs/formats.md "Cookbook selections"): greyed
// chips, the cell, model name, flags, env, hints, node count, the plain and Docker commands, the
// badge, the warn banner and the speculative-decoding notice. Placeholders are interpolated the way
// the page does it: declared ones take their default (or ""), unknown ones stay as written.
#include <optional>
#include <string>
#include <vector>

#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/placeholder.hpp"
#include "servebench/recipe/selection.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_no_command = "# No command available for the current selection.";

// Shown when a speculative algorithm is set: the max-running-requests the server will use.
struct SpecNotice {
  std::string kind;                  // "max-running-requests-defaults-to-48" | "max-running-requests-pinned"
  std::string algorithm;             // the --speculative-algorithm value
  std::optional<std::string> value;  // pinned: the --max-running-requests value
  friend bool operator==(const SpecNotice&, const SpecNotice&) = default;
};

struct PageView {
  Selection selection;
  std::vector<Greyed> greyed;
  bool cell_found = false;
  std::string model_name;
  std::vector<std::string> flags, env, hints;  // interpolated
  int nnodes = 1;
  std::optional<std::string> command, docker_command;  // nullopt: a redirect cell (banner only)
  Badge badge = Badge::unverified;
  std::optional<std::string> warn;
  std::optional<SpecNotice> spec_notice;
  std::optional<Selection> snapped;  // set when the page would snap the selection elsewhere
};

// The page for a selection (any selection, greyed or not); `overrides` replace declared
// placeholders' defaults (`recipe render --set`).
PageView page_view(const Catalog& catalog, const Selection& s, const PlaceholderValues& overrides = {});
// The badge: the catalog's verification cases, else the cell's, else unverified.
Badge badge_of(const Catalog& catalog, const Selection& s, const Cell& cell);

// The plain (Python-tab) and Docker-tab command texts of a composed page (page_text.cpp).
std::string plain_command(const Catalog& catalog, const PageView& page, const std::vector<std::string>& header);
std::string docker_command(const Catalog& catalog, const PageView& page, const std::vector<std::string>& header,
                           const std::string& pd_role, const PlaceholderValues& values);

}  // namespace servebench::recipe
