#pragma once
// Verification status of a selection from ledger evidence (docs/formats.md: the fingerprint links a recipe
// to its evidence):
//   verified   an `ok` point whose server fingerprint equals the rendered command's, whose arm
//              passed the quality gate and ran on the selection's hardware exists; the engines it
//              came from are named (a `sim` run is not a GPU measurement). The hardware is part of
//              the test because the command is not: gb300 and b200 cells often share every flag;
//   stale      only points of the same selection measured with another (older) command exist; the
//              flag diff measured → current is given;
//   unverified anything else (a note says why when points exist).
// "The same selection": the arm's server_facts.json `recipe` {catalog, select} names it, or, for
// arms without that key, the arm is named like recipe::arm_name.
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "servebench/flags/command.hpp"
#include "servebench/recipe/catalog.hpp"
#include "servebench/recipe/evidence.hpp"
#include "servebench/recipe/selection.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

enum class Verification { verified, stale, unverified };
std::string_view to_string(Verification v);

struct EvidenceRef {
  std::string run_dir, point, engine, fingerprint;  // point: "arm/scenario/c16"
};

struct SelectionStatus {
  std::string selection;    // canonical text
  std::string fingerprint;  // of the command rendered now
  Verification state = Verification::unverified;
  std::vector<std::string> engines;       // verified: engines of the verifying points, sorted
  std::vector<EvidenceRef> evidence;      // verified: verifying points · stale: the older points
  std::vector<flags::CommandChange> diff;   // stale: measured → current (empty when unknown)
  std::string note;                       // why, in words, when it is not plain
  // "verified", "verified (sim)", "stale", "unverified".
  std::string label() const;
};

// The status of one enabled selection. Fails (bad_input) when it cannot be rendered.
util::Result<SelectionStatus> verify(const Catalog& catalog, const Selection& s, const Evidence& evidence);
// Every enabled selection the filter accepts, in catalog order.
util::Result<std::vector<SelectionStatus>> verify_all(const Catalog& catalog, const Evidence& evidence,
                                                      const SelectionFilter& filter);

boost::json::object to_json(const SelectionStatus& s);

}  // namespace servebench::recipe
