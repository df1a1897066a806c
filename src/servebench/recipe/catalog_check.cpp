#include "servebench/recipe/catalog_check.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "servebench/recipe/lookup_keys.hpp"
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
    if (!dim_ids.insert(d.id).second) return at(d.where, fmt::format("dimension '{}' is declared twice", d.id));
    std::set<std::string> option_ids;
    for (const auto& o : d.options) {
      if (!option_ids.insert(o.id).second) return at(o.where, fmt::format("option '{}' appears twice in '{}'", o.id, d.id));
      if (o.id.find_first_of(",=|") != std::string::npos) {
        return at(o.where, fmt::format("option id '{}' may not contain ',', '=' or '|'", o.id));
      }
    }
    for (const auto& choice : d.default_option.cases) {
      if (d.find(choice.value) == nullptr) return at(choice.where, fmt::format("default '{}' of '{}' is not one of its options", choice.value, d.id));
    }
  }
  return {};
}

Result<void> resolve(const Catalog& c, Conditions& when) {
  for (auto& cond : when) {
    const auto i = c.dim_index(cond.dim);
    if (!i) return at(cond.where, fmt::format("condition names unknown dimension '{}'", cond.dim));
    cond.dim_index = *i;
    for (const auto& v : cond.values) {
      if (c.dims[*i].find(v) == nullptr) return at(cond.where, fmt::format("'{}' is not an option of '{}'", v, cond.dim));
    }
  }
  return {};
}

template <class T>
Result<void> resolve(const Catalog& c, Cases<T>& cases) {
  for (auto& k : cases.cases) {
    if (auto r = resolve(c, k.when); !r) return r;
  }
  return {};
}

Result<void> resolve_option(const Catalog& c, Option& o) {
  for (auto& rule : o.disable) {
    if (auto r = resolve(c, rule.when); !r) return r;
  }
  for (auto* cases : {&o.flags, &o.env, &o.strip_prefixes, &o.hints}) {
    if (auto r = resolve(c, *cases); !r) return r;
  }
  return resolve(c, o.show_when);
}

// Every condition of the catalog names a dim and its options; resolves dim indices.
Result<void> resolve_all(Catalog& c) {
  for (auto& d : c.dims) {
    for (auto& o : d.options) {
      if (auto r = resolve_option(c, o); !r) return r;
    }
    if (auto r = resolve(c, d.default_option); !r) return r;
    if (auto r = resolve(c, d.show_when); !r) return r;
  }
  for (auto& cell : c.cells) {
    if (auto r = resolve(c, cell.verification); !r) return r;
  }
  if (c.docker.host_network_when) {
    if (auto r = resolve(c, *c.docker.host_network_when); !r) return r;
  }
  return resolve(c, c.verification);
}

Result<void> check_hardware_names(const Catalog& c) {
  const Dim& hw = c.dims.front();
  for (const auto& d : c.dims) {
    for (const auto& o : d.options) {
      for (const auto& name : o.validated_on) {
        if (hw.find(name) == nullptr) return at(o.where, fmt::format("validated_on names '{}', which is not in the hardware list", name));
      }
    }
  }
  for (const auto& [name, lines] : c.multi_node_hints) {
    if (hw.find(name) == nullptr) return at(c.file, fmt::format("multi_node_hints names '{}', which is not in the hardware list", name));
  }
  return {};
}

Result<void> check_cells(const Catalog& c) {
  std::set<std::vector<std::string>> keys;
  for (const auto& cell : c.cells) {
    if (!keys.insert(cell.match).second) return at(cell.where, fmt::format("a cell for {} already exists", util::join(cell.match, "/")));
    if (cell.nnodes < 1) return at(cell.where, "nnodes must be at least 1");
    for (const auto& badge : cell.verification.cases) {
      if (badge.value != "verified" && badge.value != "in-progress" && badge.value != "unverified") {
        return at(badge.where, fmt::format("verification '{}' must be verified, in-progress or unverified", badge.value));
      }
    }
  }
  return {};
}

Result<void> check_keys(const Catalog& c, const std::vector<std::pair<std::string, std::string>>& map, std::string_view what,
                        const std::vector<KeyPattern>& patterns) {
  for (const auto& [key, value] : map) {
    if (key_can_match(c, key, patterns)) continue;
    return at(c.file, fmt::format("{} key '{}' matches no selection; keys are option ids joined by '|' as {}", what, key,
                                  describe(c, patterns)));
  }
  return {};
}

bool declared(const Catalog& c, const std::string& name) {
  // The multi-node flags bring these two; a catalog may use them without declaring them.
  if (name == k_node_rank || name == k_node0_ip) return true;
  return std::any_of(c.placeholders.begin(), c.placeholders.end(), [&](const auto& p) { return p.name == name; });
}

enum class EntryKind { flag, env };

// Each entry splits into words, env is K=V, placeholders are declared.
Result<void> check_list(const Catalog& c, const EntryList& entries, EntryKind kind) {
  for (const auto& e : entries) {
    if (kind == EntryKind::env && (e.text.find('=') == std::string::npos || e.text.front() == '=')) {
      return at(e.where, fmt::format("env entry '{}' must be NAME=value", e.text));
    }
    if (auto words = util::shell_split(e.text); !words || words->empty()) {
      return at(e.where, fmt::format("entry '{}' is empty or has an unterminated quote", e.text));
    }
    for (const auto& name : placeholder_names(e.text)) {
      if (!declared(c, name)) return at(e.where, fmt::format("placeholder {{{{{}}}}} is not declared in 'placeholders'", name));
    }
  }
  return {};
}

// strip_prefixes name flags: an overlay replaces the cell's flags of these names.
Result<void> check_strip(const EntryCases& strip) {
  for (const auto& k : strip.cases) {
    for (const auto& e : k.value) {
      if (e.text.starts_with("-") && e.text.find_first_of(" \t=") == std::string::npos) continue;
      return at(e.where, fmt::format("strip_prefixes entry '{}' must be a flag name such as --kv-cache-dtype", e.text));
    }
  }
  return {};
}

Result<void> check_entries(const Catalog& c) {
  for (const auto& cell : c.cells) {
    if (auto r = check_list(c, cell.flags, EntryKind::flag); !r) return r;
    if (auto r = check_list(c, cell.env, EntryKind::env); !r) return r;
  }
  for (const auto& d : c.dims) {
    for (const auto& o : d.options) {
      for (const auto& k : o.flags.cases) {
        if (auto r = check_list(c, k.value, EntryKind::flag); !r) return r;
      }
      for (const auto& k : o.env.cases) {
        if (auto r = check_list(c, k.value, EntryKind::env); !r) return r;
      }
      if (auto r = check_strip(o.strip_prefixes); !r) return r;
    }
  }
  return check_list(c, c.docker.mounts, EntryKind::flag);
}

}  // namespace

Result<void> check_catalog(Catalog& catalog) {
  for (auto check : {check_ids, check_cells, check_hardware_names}) {
    if (auto r = check(catalog); !r) return r;
  }
  if (auto r = check_keys(catalog, catalog.model.names, "model.names", model_name_patterns()); !r) return r;
  if (auto r = check_keys(catalog, catalog.docker.images, "docker.images", docker_image_patterns()); !r) return r;
  if (auto r = resolve_all(catalog); !r) return r;
  return check_entries(catalog);
}

}  // namespace servebench::recipe
