#include "servebench/recipe/verification.hpp"

#include <algorithm>
#include <set>

#include <boost/json/array.hpp>
#include <fmt/format.h>

#include "servebench/recipe/arm_links.hpp"
#include "servebench/recipe/greying.hpp"
#include "servebench/recipe/render.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::Result;

// The arm's link (arm_links.hpp); an arm without a facts file is known by its name only.
const ArmLink* same_selection(const Catalog& c, const Selection& s, const EvidencePoint& p, const std::vector<ArmLink>& links) {
  static const ArmLink k_by_name{"", "", std::nullopt, "arm name"};
  if (const ArmLink* link = find_link(links, p.run_dir, p.point.arm)) return link->selection == s ? link : nullptr;
  return p.point.arm == arm_name(c, s) ? &k_by_name : nullptr;
}

std::string hardware_of(const Evidence& e, const EvidencePoint& p) {
  const ArmFacts* facts = e.arm(p.run_dir, p.point.arm);
  return facts != nullptr ? facts->hardware : std::string();
}

bool passed_gate(const results::PointRecord& p) { return p.gate.passed.value_or(false); }

// The simulator speaks SGLang's flags.
flags::Dialect dialect_of(const std::string& engine, flags::Dialect fallback) {
  if (engine == "sim") return flags::Dialect::sglang;
  return flags::parse_dialect(engine).value_or(fallback);
}

EvidenceRef ref_of(const EvidencePoint& p) {
  return {p.run_dir, p.id(), p.point.server.engine, p.point.server.fingerprint};
}

// Measured → current, from the launch command recorded in the arm's facts.
void explain_stale(const Catalog& c, const Evidence& e, const EvidencePoint& older, const flags::NormalizedCommand& current,
                   SelectionStatus& out) {
  const ArmFacts* facts = e.arm(older.run_dir, older.point.arm);
  if (facts == nullptr || facts->launch.empty()) {
    out.note = fmt::format("measured command unknown: {}/{} has no launch in server_facts.json", older.run_dir, older.point.arm);
    return;
  }
  auto measured = flags::normalize_command(dialect_of(facts->engine, c.engine), facts->launch, facts->env);
  if (!measured) {
    out.note = fmt::format("measured command of {}/{} unreadable: {}", older.run_dir, older.point.arm, measured.error().message);
    return;
  }
  out.diff = flags::diff(*measured, current);
  out.note = fmt::format("diff against {}/{}", older.run_dir, older.point.arm);
}

Result<SelectionStatus> verify_linked(const Catalog& catalog, const Selection& s, const Evidence& evidence,
                                      const std::vector<ArmLink>& links);

}  // namespace

std::string_view to_string(Verification v) {
  switch (v) {
    case Verification::verified: return "verified";
    case Verification::stale: return "stale";
    case Verification::unverified: return "unverified";
  }
  return "unverified";
}

std::string SelectionStatus::label() const {
  if (state != Verification::verified || engines.empty()) return std::string(to_string(state));
  return fmt::format("verified ({})", util::join(engines, ", "));
}

Result<SelectionStatus> verify(const Catalog& catalog, const Selection& s, const Evidence& evidence) {
  return verify_linked(catalog, s, evidence, link_arms(catalog, evidence));
}

namespace {

Result<SelectionStatus> verify_linked(const Catalog& catalog, const Selection& s, const Evidence& evidence,
                                      const std::vector<ArmLink>& links) {
  auto rendered = render(catalog, s, Target::engine);
  if (!rendered) return std::unexpected(rendered.error());
  auto command = normalize(catalog, *rendered);
  if (!command) return std::unexpected(command.error());
  SelectionStatus out;
  out.selection = rendered->selection;
  out.fingerprint = flags::fingerprint(*command);
  std::vector<const EvidencePoint*> passing, failing, older, elsewhere;
  std::string older_how;
  for (const auto& p : evidence.points) {
    if (p.point.server.fingerprint == out.fingerprint) {
      if (hardware_of(evidence, p) != s.options.front()) {
        elsewhere.push_back(&p);
      } else {
        (p.point.status == results::PointStatus::ok && passed_gate(p.point) ? passing : failing).push_back(&p);
      }
    } else if (const ArmLink* link = same_selection(catalog, s, p, links)) {
      older.push_back(&p);
      older_how = link->how;
    }
  }
  std::set<std::string> engines;
  if (!passing.empty()) {
    out.state = Verification::verified;
    for (const auto* p : passing) {
      out.evidence.push_back(ref_of(*p));
      engines.insert(p->point.server.engine);
    }
    out.engines.assign(engines.begin(), engines.end());
  } else if (!failing.empty()) {
    for (const auto* p : failing) out.evidence.push_back(ref_of(*p));
    out.note = fmt::format("{} point(s) ran this command, none ok with a passed quality gate", failing.size());
  } else if (!older.empty()) {
    out.state = Verification::stale;
    for (const auto* p : older) out.evidence.push_back(ref_of(*p));
    explain_stale(catalog, evidence, *older.back(), *command, out);
    if (older_how.starts_with("closest")) out.note += fmt::format(" (linked by its {})", older_how);
  } else if (!elsewhere.empty()) {
    for (const auto* p : elsewhere) out.evidence.push_back(ref_of(*p));
    out.note = fmt::format("{} point(s) ran this command on other or unknown hardware", elsewhere.size());
  }
  return out;
}

}  // namespace

Result<std::vector<SelectionStatus>> verify_all(const Catalog& catalog, const Evidence& evidence,
                                                const SelectionFilter& filter) {
  std::vector<SelectionStatus> out;
  const auto links = link_arms(catalog, evidence);
  for (const Selection& s : all_selections(catalog)) {
    if (!filter.accepts(s) || !reachable(catalog, s) || find_cell(catalog, s)->redirect) continue;
    auto status = verify_linked(catalog, s, evidence, links);
    if (!status) return std::unexpected(status.error());
    out.push_back(std::move(*status));
  }
  return out;
}

boost::json::object to_json(const SelectionStatus& s) {
  boost::json::array engines, evidence, diff;
  for (const auto& e : s.engines) engines.emplace_back(e);
  for (const auto& e : s.evidence) {
    evidence.push_back(boost::json::object{{"run_dir", e.run_dir}, {"point", e.point}, {"engine", e.engine}, {"fingerprint", e.fingerprint}});
  }
  for (const auto& c : s.diff) diff.emplace_back(flags::to_string(c));
  return {{"selection", s.selection}, {"fingerprint", s.fingerprint}, {"status", to_string(s.state)},
          {"label", s.label()},         {"engines", std::move(engines)},  {"evidence", std::move(evidence)},
          {"diff", std::move(diff)},    {"note", s.note}};
}

}  // namespace servebench::recipe
