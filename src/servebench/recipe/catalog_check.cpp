#include "servebench/recipe/catalog_check.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "servebench/recipe/placeholder.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

using util::ErrorKind;
using util::Result;

std::unexpected<util::Error> at(const std::string& where, std::string message) {
  return util::fail(ErrorKind::bad_input, fmt::format("{}: {}", where, message));
}

Result<void> check_ids(const Catalog& c) {
  std::set<std::string> dim_ids;
  for (const auto& d : c.dims) {
    const std::string where = d.options.empty() ? c.file : d.options.front().where;
    if (!dim_ids.insert(d.id).second) return at(where, fmt::format("dimension '{}' is declared twice", d.id));
    std::set<std::string> option_ids;
    for (const auto& o : d.options) {
      if (!option_ids.insert(o.id).second) return at(o.where, fmt::format("option '{}' appears twice in '{}'", o.id, d.id));
      if (o.id.find_first_of(",=") != std::string::npos) return at(o.where, fmt::format("option id '{}' may not contain ',' or '='", o.id));
    }
    if (d.kind == DimKind::overlay && d.find(d.default_option) == nullptr) {
      return at(where, fmt::format("default '{}' of '{}' is not one of its options", d.default_option, d.id));
    }
  }
  return {};
}

Result<void> check_hardware(const Catalog& c, const std::vector<GpuFacts>& gpus) {
  for (const auto& o : c.dims.front().options) {
    if (find_gpu(gpus, o.id) != nullptr) continue;
    std::vector<std::string> known;
    for (const auto& g : gpus) known.push_back(g.name);
    return at(o.where, fmt::format("unknown hardware '{}'; data/hardware.yaml has: {}", o.id, util::join(known, ", ")));
  }
  return {};
}

Result<void> resolve_rules(const Catalog& c, std::vector<Rule>& rules) {
  for (auto& rule : rules) {
    for (auto& cond : rule.when) {
      const auto i = c.dim_index(cond.dim);
      if (!i) return at(cond.where, fmt::format("rule names unknown dimension '{}'", cond.dim));
      cond.dim_index = *i;
      for (const auto& v : cond.values) {
        if (c.dims[*i].find(v) == nullptr) return at(cond.where, fmt::format("'{}' is not an option of '{}'", v, cond.dim));
      }
    }
  }
  return {};
}

Result<void> check_options(Catalog& c) {
  const Dim& hw = c.dims.front();
  for (auto& d : c.dims) {
    for (auto& o : d.options) {
      if (auto r = resolve_rules(c, o.disable); !r) return r;
      for (const auto& name : o.validated_on) {
        if (hw.find(name) == nullptr) return at(o.where, fmt::format("validated_on names '{}', which is not in the hardware list", name));
      }
    }
  }
  return {};
}

Result<void> check_cells(const Catalog& c) {
  std::set<std::vector<std::string>> keys;
  for (const auto& cell : c.cells) {
    if (!keys.insert(cell.match).second) return at(cell.where, fmt::format("a cell for {} already exists", util::join(cell.match, "/")));
    if (cell.nnodes < 1) return at(cell.where, "nnodes must be at least 1");
  }
  return {};
}

Result<void> check_model_names(const Catalog& c) {
  for (const auto& [key, name] : c.model.names) {
    if (key == "default") continue;
    const bool known = std::any_of(c.dims.begin(), c.dims.end(), [&](const Dim& d) { return d.find(key) != nullptr; });
    if (!known) return at(c.file, fmt::format("model.names key '{}' is neither 'default' nor an option id", key));
  }
  return {};
}

// Every flag and env entry: splits into words, env is K=V, placeholders are declared.
Result<void> check_entries(const Catalog& c, const std::vector<std::string>& entries, const std::string& where,
                           bool env) {
  for (const auto& e : entries) {
    if (env && (e.find('=') == std::string::npos || e.front() == '=')) return at(where, fmt::format("env entry '{}' must be NAME=value", e));
    if (auto words = util::shell_split(e); !words || words->empty()) {
      return at(where, fmt::format("entry '{}' is empty or has an unterminated quote", e));
    }
    for (const auto& name : placeholder_names(e)) {
      const bool declared = std::any_of(c.placeholders.begin(), c.placeholders.end(), [&](const auto& p) { return p.name == name; });
      if (!declared) return at(where, fmt::format("placeholder {{{{{}}}}} is not declared in 'placeholders'", name));
    }
  }
  return {};
}

Result<void> check_all_entries(const Catalog& c) {
  for (const auto& cell : c.cells) {
    if (auto r = check_entries(c, cell.flags, cell.where, false); !r) return r;
    if (auto r = check_entries(c, cell.env, cell.where, true); !r) return r;
  }
  for (const auto& d : c.dims) {
    for (const auto& o : d.options) {
      if (auto r = check_entries(c, o.flags, o.where, false); !r) return r;
      if (auto r = check_entries(c, o.env, o.where, true); !r) return r;
    }
  }
  return {};
}

}  // namespace

Result<void> check_catalog(Catalog& catalog, const std::vector<GpuFacts>& gpus) {
  for (auto check : {check_ids, check_cells, check_model_names, check_all_entries}) {
    if (auto r = check(catalog); !r) return r;
  }
  if (auto r = check_hardware(catalog, gpus); !r) return r;
  return check_options(catalog);
}

}  // namespace servebench::recipe
