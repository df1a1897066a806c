#pragma once
// The deployment cookbook as data (docs/formats.md "Catalog"): hardware × match dimensions pick a
// cell (a list of launch flags), overlay dimensions edit it (replace flags in place, add flags, env
// and hints), declarative rules grey options out or hide them, and badges, banners, model names
// and Docker images follow the selection. No code in catalogs.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/recipe/cases.hpp"
#include "servebench/recipe/gpu_facts.hpp"
#include "servebench/recipe/render_facts.hpp"
#include "servebench/recipe/rule.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_catalog_schema = "servebench.catalog/1";

// hardware: the `hw` dimension · match: part of the cell key · overlay: applied on top of the cell.
enum class DimKind { hardware, match, overlay };

// The badge a cookbook page shows for a selection (declared by the catalog, not measured).
enum class Badge { verified, in_progress, unverified };
std::string_view to_string(Badge b);  // "verified" | "in-progress" | "unverified"

struct Option {
  std::string id, label, subtitle;
  std::vector<Rule> disable;              // the first rule that applies greys the option out
  Conditions show_when;                   // empty: always shown
  std::vector<std::string> validated_on;  // hardware names; empty: no restriction (lint)
  // Overlay options: values per selection.
  EntryCases flags, env, strip_prefixes, hints;
  // Hardware options: GPUs per node and the GPU's facts (data/hardware.yaml or the catalog's own).
  int gpus_per_node = 0;
  GpuFacts gpu;
  std::string where;  // file:line:col
};

struct Dim {
  std::string id, title;
  DimKind kind = DimKind::match;
  std::vector<Option> options;
  TextCases default_option;  // overlay dims: per selection; no case holds → the first option
  Conditions show_when;      // overlay rows: hidden (contributing nothing) when it does not hold
  std::string where;
  // The option with this id, or nullptr.
  const Option* find(std::string_view option_id) const;
};

struct Cell {
  std::vector<std::string> match;  // one option id per hardware/match dim, in dim order
  int nnodes = 1;
  EntryList env, flags, hints;
  std::optional<std::string> warn;  // a banner shown with the command
  TextCases verification;           // the badge, per selection; no case holds → unverified
  std::optional<std::string> redirect;  // a cell without a command: the banner points elsewhere
  std::string pd_role;              // "", "prefill" or "decode" (ports follow the engine's pd_ports)
  std::string notes;                // for catalog maintainers; never printed
  std::string where;
};

struct Placeholder {
  std::string name, label, default_value;
};

// Facts lint needs; absent facts skip the rules that need them.
struct ModelFacts {
  std::optional<std::int64_t> attention_heads, kv_heads, moe_intermediate_size, experts;
};

struct ModelInfo {
  std::string card;  // data/models card name, for `serve-sim --model`
  // Key → model name for {{MODEL_NAME}}. Keys: hw|variant|quant, variant|quant, hw|quant, quant, hw
  // (option ids joined by '|'), tried in that order, then `default`.
  std::vector<std::pair<std::string, std::string>> names;
  ModelFacts facts;
};

struct DockerSpec {
  // Key → image, keys hw|variant|quant, variant|quant, hw|quant|strategy, hw|quant, hw (tried in
  // that order), then `default`; no hit → the engine's image.
  std::vector<std::pair<std::string, std::string>> images;
  EntryList mounts;                          // extra lines before the env, e.g. "-v /data:/data"
  std::optional<std::string> run_command;    // words after the image (default: the engine's)
  std::optional<Conditions> host_network_when;  // --network host also when this holds
};

// A flag the catalog uses that the engine's flag list does not have yet (a newer release).
struct ExtraFlag {
  std::string name;
  std::vector<std::string> aliases;
  bool takes_value = true;
  std::string type = "str";           // str | int | float | bool
  std::vector<std::string> choices;   // empty: any value
  std::string since;                  // the engine version that adds it, e.g. "0.5.7"
  std::string where;
};

struct LintPolicy {
  // A rule that contradicts a cell the catalog marks verified is a warning, unless this is true.
  bool strict_on_verified = false;
};

struct BenchScenario {
  std::string name;
  std::int64_t isl = 0, osl = 0;
  std::vector<std::int64_t> concurrency;
};

// What a generated campaign measures, and how exported rows describe it.
struct BenchmarkPlan {
  std::string dataset = "random";
  std::string num_prompts = "max(8, 2*c)";  // campaign expression in c
  std::vector<BenchScenario> scenarios;
};

struct Catalog {
  std::string file, name, title;
  flags::Dialect engine = flags::Dialect::sglang;
  std::string launcher;  // program words before the flags; default: the engine's command
  ModelInfo model;
  std::vector<Dim> dims;  // the hardware dim first, then match dims, then overlay dims (file order)
  std::vector<Cell> cells;
  std::vector<Placeholder> placeholders;  // declared and built-in (MODEL_NAME, HOST_IP, PORT)
  TextCases verification;                 // over every selection, before the cell's own badge
  std::vector<std::pair<std::string, EntryList>> multi_node_hints;  // hardware → hint lines
  DockerSpec docker;
  std::vector<ExtraFlag> extra_flags;
  LintPolicy lint;
  BenchmarkPlan benchmark;
  RenderFacts render;  // data/recipe_engines.yaml, as loaded with the catalog

  // Index of a dimension by id, or nullopt.
  std::optional<std::size_t> dim_index(std::string_view id) const;
  // Number of dims that form the cell key (hardware + match).
  std::size_t key_dims() const;
  // The extra flag with this name or alias, or nullptr.
  const ExtraFlag* extra_flag(std::string_view name) const;
  // How this catalog's engine writes commands (empty when data/recipe_engines.yaml has no entry
  // for it; such a catalog must set `launcher`).
  const EngineRendering& rendering() const;
};

// The data files a catalog is read against.
struct CatalogData {
  std::vector<GpuFacts> gpus;  // data/hardware.yaml
  RenderFacts render;          // data/recipe_engines.yaml
};
util::Result<CatalogData> load_catalog_data();

// Parses catalog text. Malformed YAML, unknown keys, hardware neither in data/hardware.yaml nor
// declared with its facts, rules naming unknown dims or options, duplicate cells and undeclared
// placeholders fail (bad_input) with "file:line:col: message".
util::Result<Catalog> parse_catalog(const std::string& yaml_text, const std::string& file, const CatalogData& data);
// Reads and parses a catalog file against the shipped data files.
util::Result<Catalog> load_catalog(const std::filesystem::path& path);

}  // namespace servebench::recipe
