#pragma once
// Evidence for recipes: what run directories measured. Per run directory, the latest record of
// every ledger point (ledger.jsonl) and each arm's server_facts.json (launch command, env, engine
// version and the `recipe` key {catalog, select} a generated campaign records).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "servebench/flags/command.hpp"
#include "servebench/results/point.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct RecipeRef {
  std::string catalog, select;  // catalog name and selection text, as the campaign wrote them
};

struct ArmFacts {
  std::string run_dir, arm, engine, launch, version;
  // The GPU the arm ran on: the `hw=` of its recipe selection, else serve-sim's `--hw`; "" unknown.
  // The launch fingerprint does not carry it (a recipe's flags are often the same on several GPUs).
  std::string hardware;
  std::vector<flags::EnvVar> env;
  std::optional<RecipeRef> recipe;
};

struct EvidencePoint {
  std::string run_dir;
  results::PointRecord point;  // the latest record for its point
  std::string id() const;      // "arm/scenario/c16", results::point_id
};

struct Evidence {
  std::vector<EvidencePoint> points;
  std::vector<ArmFacts> arms;
  std::vector<std::string> issues;  // unreadable ledger lines, missing or malformed facts files
  // The facts of an arm of a run directory, or nullptr.
  const ArmFacts* arm(const std::string& run_dir, const std::string& name) const;
};

// Parses one server_facts.json text (servebench.server_facts/1); fails (bad_input) naming `what`
// when it is not JSON or lacks `arm`.
util::Result<ArmFacts> parse_arm_facts(std::string_view text, const std::string& what);
// Reads every run directory. A directory without ledger.jsonl fails (bad_input); unreadable lines and
// missing facts files become issues.
util::Result<Evidence> read_evidence(const std::vector<std::filesystem::path>& run_dirs);

}  // namespace servebench::recipe
