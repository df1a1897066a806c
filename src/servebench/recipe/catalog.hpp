#pragma once
// The deployment cookbook as data (docs/formats.md "Catalog"): hardware × match dimensions pick a
// cell (a list of launch flags), overlay dimensions edit it (strip prefixes, then add flags), and
// declarative rules `{when: {dim: [values]}, reason}` disable options. No code in catalogs.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/recipe/gpu_facts.hpp"
#include "servebench/recipe/rule.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

inline constexpr std::string_view k_catalog_schema = "servebench.catalog/1";

// hardware: the `hw` dimension (options are data/hardware.yaml names) · match: part of the cell
// key · overlay: applied on top of the matched cell.
enum class DimKind { hardware, match, overlay };

struct Option {
  std::string id, label, subtitle;
  std::vector<Rule> disable;                // any matching rule disables the option
  std::vector<std::string> validated_on;    // hardware names; empty: no restriction
  // Overlay options only. Each flags/env entry is one flag with its value(s), or one K=V.
  std::vector<std::string> flags, env, strip_prefixes, hints;
  int gpus_per_node = 0;                    // hardware options only
  std::string where;                        // file:line:col, for messages
};

struct Dim {
  std::string id, title;
  DimKind kind = DimKind::match;
  std::vector<Option> options;
  std::string default_option;  // overlay dims only
  // The option with this id, or nullptr.
  const Option* find(std::string_view option_id) const;
};

struct Cell {
  std::vector<std::string> match;  // one option id per hardware/match dim, in dim order
  int nnodes = 1;
  std::vector<std::string> env, flags;
  std::string notes;
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
  // Option id (or "default") → model name for {{MODEL_NAME}}, e.g. {"nvfp4", "org/model-NVFP4"}.
  std::vector<std::pair<std::string, std::string>> names;
  ModelFacts facts;
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
  std::string launcher;  // program words before the flags, e.g. "python3 -m sglang.launch_server"
  ModelInfo model;
  std::vector<Dim> dims;  // the hardware dim first, then match dims, then overlay dims (file order)
  std::vector<Cell> cells;
  std::vector<Placeholder> placeholders;  // declared and built-in (MODEL_NAME, HOST_IP, PORT)
  BenchmarkPlan benchmark;

  // Index of a dimension by id, or nullopt.
  std::optional<std::size_t> dim_index(std::string_view id) const;
  // Number of dims that form the cell key (hardware + match).
  std::size_t key_dims() const;
};

// Parses catalog text. Malformed YAML, unknown keys, unknown hardware, rules naming unknown dims or
// options, duplicate cells and undeclared placeholders fail (bad_input) with "file:line:col: message".
util::Result<Catalog> parse_catalog(const std::string& yaml_text, const std::string& file,
                                    const std::vector<GpuFacts>& gpus);
// Reads and parses a catalog file, validating hardware against data/hardware.yaml.
util::Result<Catalog> load_catalog(const std::filesystem::path& path);

}  // namespace servebench::recipe
