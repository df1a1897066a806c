#include "servebench/recipe/lint_facts.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "servebench/util/embedded_data.hpp"
#include "servebench/util/yaml_fields.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;
using util::Result;

Result<flags::Dialect> read_engine(const std::string& file, const YAML::Node& n, const std::string& word) {
  auto d = flags::parse_dialect(word);
  if (!d) return std::unexpected(util::yaml_error(file, n, d.error().message));
  return *d;
}

Result<ArchRequirement> read_requirement(const std::string& file, const YAML::Node& n) {
  auto f = util::YamlFields::of(file, n, "requirement");
  if (!f) return std::unexpected(f.error());
  ArchRequirement r;
  r.id = f->required_string("id");
  r.engine = f->take(read_engine(file, f->node("engine"), f->string("engine", "sglang")), flags::Dialect::sglang);
  r.flags = f->strings("flags");
  r.values = f->strings("values");
  for (auto sm : f->integers("sm")) r.sm.push_back(static_cast<int>(sm));
  r.families = f->strings("families");
  r.reason = f->required_string("reason");
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  if (r.flags.empty() || r.values.empty() || (r.sm.empty() && r.families.empty())) {
    return std::unexpected(util::yaml_error(file, n, fmt::format("requirement '{}' needs flags, values and sm or families", r.id)));
  }
  return r;
}

Result<Conflict> read_conflict(const std::string& file, const YAML::Node& n) {
  auto f = util::YamlFields::of(file, n, "conflict");
  if (!f) return std::unexpected(f.error());
  Conflict c;
  c.id = f->required_string("id");
  c.flags = f->strings("flags");
  const std::string severity = f->string("severity", "error");
  c.reason = f->required_string("reason");
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  if (severity != "error" && severity != "warning") {
    return std::unexpected(util::yaml_error(file, n, fmt::format("conflict '{}' severity must be error or warning", c.id)));
  }
  c.severity = severity == "error" ? Severity::error : Severity::warning;
  if (c.flags.size() < 2) return std::unexpected(util::yaml_error(file, n, fmt::format("conflict '{}' needs at least two flags", c.id)));
  return c;
}

Result<EngineLintFacts> read_engine_facts(const std::string& file, const std::string& name, const YAML::Node& n) {
  EngineLintFacts e;
  auto dialect = read_engine(file, n, name);
  if (!dialect) return std::unexpected(dialect.error());
  e.engine = *dialect;
  auto f = util::YamlFields::of(file, n, "engine '" + name + "'");
  if (!f) return std::unexpected(f.error());
  if (f->has("parallelism")) {
    auto p = util::YamlFields::of(file, f->node("parallelism"), "parallelism");
    if (!p) return std::unexpected(p.error());
    e.parallelism = {p->string("tp"), p->string("pp"), p->string("dp"), p->string("ep"), p->string("dp_attention"), p->string("nnodes")};
    if (auto done = p->finish(); !done) return std::unexpected(done.error());
  }
  const YAML::Node conflicts = f->node("conflicts");
  for (const auto& item : conflicts) {
    auto c = read_conflict(file, item);
    if (!c) return std::unexpected(c.error());
    e.conflicts.push_back(std::move(*c));
  }
  if (auto done = f->finish(); !done) return std::unexpected(done.error());
  return e;
}

Result<void> read_arch(LintFacts& out, const std::string& text, const std::string& file) {
  auto doc = util::load_yaml_string(text, file);
  if (!doc) return std::unexpected(doc.error());
  auto f = util::YamlFields::of(file, doc->root, "arch rules");
  if (!f) return std::unexpected(f.error());
  for (const auto& item : f->node("requirements")) {
    auto r = read_requirement(file, item);
    if (!r) return std::unexpected(r.error());
    out.requirements.push_back(std::move(*r));
  }
  return f->finish();
}

Result<void> read_lint(LintFacts& out, const std::string& text, const std::string& file) {
  auto doc = util::load_yaml_string(text, file);
  if (!doc) return std::unexpected(doc.error());
  auto f = util::YamlFields::of(file, doc->root, "recipe lint facts");
  if (!f) return std::unexpected(f.error());
  for (const auto& kv : f->node("engines")) {
    auto e = read_engine_facts(file, kv.first.Scalar(), kv.second);
    if (!e) return std::unexpected(e.error());
    out.engines.push_back(std::move(*e));
  }
  if (f->has("kernels")) {
    auto k = util::YamlFields::of(file, f->node("kernels"), "kernels");
    if (!k) return std::unexpected(k.error());
    out.moe_intermediate_multiple = k->integer("moe_intermediate_multiple", out.moe_intermediate_multiple);
    if (auto done = k->finish(); !done) return std::unexpected(done.error());
  }
  return f->finish();
}

}  // namespace

bool ArchRequirement::allows(const GpuFacts& gpu) const {
  return std::find(sm.begin(), sm.end(), gpu.sm) != sm.end() ||
         std::find(families.begin(), families.end(), gpu.family) != families.end();
}

const EngineLintFacts* LintFacts::engine(flags::Dialect d) const {
  for (const auto& e : engines) {
    if (e.engine == d) return &e;
  }
  return nullptr;
}

Result<LintFacts> parse_lint_facts(std::vector<GpuFacts> gpus, const std::string& arch_text, const std::string& arch_file,
                                   const std::string& lint_text, const std::string& lint_file) {
  LintFacts out;
  out.gpus = std::move(gpus);
  if (auto r = read_arch(out, arch_text, arch_file); !r) return std::unexpected(r.error());
  if (auto r = read_lint(out, lint_text, lint_file); !r) return std::unexpected(r.error());
  return out;
}

Result<LintFacts> load_lint_facts() {
  auto gpus = load_gpu_facts();
  if (!gpus) return std::unexpected(gpus.error());
  auto arch = util::read_data_file("arch_rules.yaml");
  if (!arch) return std::unexpected(arch.error());
  auto lint = util::read_data_file("recipe_lint.yaml");
  if (!lint) return std::unexpected(lint.error());
  return parse_lint_facts(std::move(*gpus), *arch, "data/arch_rules.yaml", *lint, "data/recipe_lint.yaml");
}

}  // namespace servebench::recipe
