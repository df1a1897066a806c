#include "servebench/recipe/arm_links.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/render.hpp"

namespace servebench::recipe {
namespace {

std::optional<Selection> by_name(const Catalog& c, const std::string& arm) {
  for (const auto& s : all_selections(c)) {
    if (arm_name(c, s) == arm) return s;
  }
  return std::nullopt;
}

// The reachable selection on the arm's hardware whose command needs the fewest changes to become
// the measured one, when that is clear.
std::optional<std::pair<Selection, std::size_t>> closest(const Catalog& c, const ArmFacts& facts) {
  if (facts.hardware.empty() || facts.launch.empty()) return std::nullopt;
  const auto dialect = facts.engine == "sim" ? flags::Dialect::sglang : flags::parse_dialect(facts.engine).value_or(c.engine);
  auto measured = flags::normalize_command(dialect, facts.launch, facts.env);
  if (!measured) return std::nullopt;
  std::optional<Selection> best;
  std::size_t best_changes = 0, ties = 0;
  for (const auto& s : all_selections(c)) {
    if (s.options.front() != facts.hardware || !reachable(c, s)) continue;
    auto rendered = render_unchecked(c, s, Target::engine);
    if (!rendered) continue;
    auto command = normalize(c, *rendered);
    if (!command) continue;
    const std::size_t changes = flags::diff(*measured, *command).size();
    if (best && changes > best_changes) continue;
    ties = best && changes == best_changes ? ties + 1 : 0;
    best = s;
    best_changes = changes;
  }
  if (!best || ties > 0 || best_changes > std::max<std::size_t>(1, measured->flags.size() / 2)) return std::nullopt;
  return std::pair{*best, best_changes};
}

ArmLink link_of(const Catalog& c, const ArmFacts& facts) {
  ArmLink link{facts.run_dir, facts.arm, std::nullopt, ""};
  if (facts.recipe && facts.recipe->catalog != c.name) return link;
  if (facts.recipe) {
    if (auto recorded = parse_selection(c, facts.recipe->select)) {
      link.selection = std::move(*recorded);
      link.how = "recipe key";
      return link;
    }
  } else if (auto named = by_name(c, facts.arm)) {
    link.selection = std::move(*named);
    link.how = "arm name";
    return link;
  }
  if (auto near = closest(c, facts)) {
    link.selection = std::move(near->first);
    link.how = fmt::format("closest command ({} change{})", near->second, near->second == 1 ? "" : "s");
  }
  return link;
}

}  // namespace

std::vector<ArmLink> link_arms(const Catalog& catalog, const Evidence& evidence) {
  std::vector<ArmLink> out;
  for (const auto& facts : evidence.arms) out.push_back(link_of(catalog, facts));
  return out;
}

const ArmLink* find_link(const std::vector<ArmLink>& links, const std::string& run_dir, const std::string& arm) {
  const auto it = std::find_if(links.begin(), links.end(), [&](const ArmLink& l) { return l.run_dir == run_dir && l.arm == arm; });
  return it == links.end() ? nullptr : &*it;
}

}  // namespace servebench::recipe
