#include "servebench/recipe/compose.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "servebench/recipe/greying.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

struct Overlays {
  std::vector<Entry> flags, env, hints;
  std::set<std::string, std::less<>> strip;
};

void append(std::vector<Entry>& out, const EntryCases& cases, const Selection& s, const std::string& origin) {
  if (const EntryList* list = cases.pick(s.options)) {
    for (const auto& e : *list) out.push_back({e.text, origin, e.where});
  }
}

Overlays active_overlays(const Catalog& c, const Selection& s) {
  Overlays out;
  for (std::size_t i = c.key_dims(); i < c.dims.size(); ++i) {
    if (!contributes(c, s, i)) continue;
    const Option& o = chosen(c, s, i);
    const std::string origin = fmt::format("overlay {}={}", c.dims[i].id, o.id);
    append(out.flags, o.flags, s, origin);
    append(out.env, o.env, s, origin);
    append(out.hints, o.hints, s, origin);
    if (const EntryList* strip = o.strip_prefixes.pick(s.options)) {
      for (const auto& e : *strip) out.strip.insert(e.text);
    }
  }
  return out;
}

std::vector<Entry> merge_flags(std::vector<Entry> cell, const Overlays& o) {
  if (o.strip.empty()) {
    cell.insert(cell.end(), o.flags.begin(), o.flags.end());
    return cell;
  }
  std::vector<Entry> out;
  std::vector<bool> used(o.flags.size(), false);
  for (auto& flag : cell) {
    const auto family = flag_family(flag.text);
    if (!o.strip.contains(family)) {
      out.push_back(std::move(flag));
      continue;
    }
    for (std::size_t i = 0; i < o.flags.size(); ++i) {
      if (used[i] || flag_family(o.flags[i].text) != family) continue;
      used[i] = true;
      out.push_back(o.flags[i]);
    }
  }
  for (std::size_t i = 0; i < o.flags.size(); ++i) {
    if (!used[i]) out.push_back(o.flags[i]);
  }
  return out;
}

// "single" → 1, "multi-4" → 4, "2" → 2; 0 when the id says nothing.
int nodes_of(std::string_view id) {
  if (id == "single") return 1;
  if (id.starts_with("multi-")) id.remove_prefix(6);
  int n = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), n);
  return ec == std::errc() && end == id.data() + id.size() ? n : 0;
}

int nnodes_of(const Catalog& c, const Selection& s, const Cell& cell) {
  const auto nodes = c.dim_index("nodes");
  if (cell.pd_role.empty() && nodes && c.dims[*nodes].kind == DimKind::match) {
    if (const int n = nodes_of(s.options[*nodes]); n > 0) return n;
  }
  return cell.nnodes;
}

void insert_node_flags(const Catalog& c, int nnodes, std::vector<Entry>& flags) {
  const MultiNodeFacts& m = c.rendering().multi_node;
  const auto in = [](const std::vector<std::string>& names, const Entry& e) {
    return std::find(names.begin(), names.end(), flag_family(e.text)) != names.end();
  };
  auto at = flags.end();
  const auto last = std::find_if(flags.rbegin(), flags.rend(), [&](const Entry& e) { return in(m.after_last, e); });
  if (last != flags.rend()) {
    at = last.base();
  } else if (auto first = std::find_if(flags.begin(), flags.end(), [&](const Entry& e) { return in(m.otherwise_after, e); });
             first != flags.end()) {
    at = first + 1;
  }
  std::vector<Entry> node_flags;
  for (const auto& f : m.flags) node_flags.push_back({util::replace_all(f, "{{NNODES}}", std::to_string(nnodes)), "multi-node", ""});
  flags.insert(at, node_flags.begin(), node_flags.end());
}

std::string role_of(const Catalog& c, const Selection& s, const Cell& cell) {
  if (!cell.pd_role.empty()) return cell.pd_role;
  const auto dim = c.dim_index("pdMode");
  if (!dim) return "";
  const std::string& v = s.options[*dim];
  return v == "prefill" || v == "decode" ? v : "";
}

void set_role_port(const Catalog& c, const std::string& role, std::vector<Entry>& flags) {
  const EngineRendering& r = c.rendering();
  const auto port = std::find_if(r.pd_ports.begin(), r.pd_ports.end(), [&](const auto& p) { return p.first == role; });
  if (port == r.pd_ports.end()) return;
  for (auto& f : flags) {
    if (flag_family(f.text) == r.port_flag) f.text = r.port_flag + " " + port->second;
  }
}

}  // namespace

std::string_view flag_family(std::string_view entry) {
  const auto end = entry.find_first_of(" \t=");
  return entry.substr(0, end);
}

Composition compose(const Catalog& catalog, const Selection& s, const Cell& cell) {
  Composition out;
  const Overlays overlays = active_overlays(catalog, s);
  std::vector<Entry> cell_flags;
  for (const auto& f : cell.flags) cell_flags.push_back({f.text, "cell", f.where});
  out.flags = merge_flags(std::move(cell_flags), overlays);
  for (const auto& e : cell.env) out.env.push_back({e.text, "cell", e.where});
  out.env.insert(out.env.end(), overlays.env.begin(), overlays.env.end());
  for (const auto& h : cell.hints) out.hints.push_back({h.text, "cell", h.where});
  out.hints.insert(out.hints.end(), overlays.hints.begin(), overlays.hints.end());
  out.nnodes = nnodes_of(catalog, s, cell);
  if (out.nnodes > 1) {
    insert_node_flags(catalog, out.nnodes, out.flags);
    for (const auto& [hw, lines] : catalog.multi_node_hints) {
      if (hw != s.options.front()) continue;
      for (const auto& l : lines) out.hints.push_back({l.text, "multi-node", l.where});
    }
  }
  out.pd_role = role_of(catalog, s, cell);
  if (!out.pd_role.empty()) set_role_port(catalog, out.pd_role, out.flags);
  return out;
}

}  // namespace servebench::recipe
