#include "servebench/results/asset_ledger.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace json = boost::json;
namespace {

json::object entry_json(const AssetEntry& e) {
  return {{"role", e.role}, {"name", e.name}, {"path", e.path}, {"sha256", e.sha256}, {"size", e.size}};
}

AssetEntry entry_of(const json::object& o) {
  return {util::json_string(o, "role").value_or(""), util::json_string(o, "name").value_or(""),
          util::json_string(o, "path").value_or(""), util::json_string(o, "sha256").value_or(""),
          util::json_int(o, "size").value_or(0)};
}

std::optional<AssetEntry> optional_entry(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_object()) return std::nullopt;
  return entry_of(v->get_object());
}

std::string short_hash(const AssetEntry& e) { return e.sha256.substr(0, 12); }

}  // namespace

std::vector<AssetChange> compare_assets(const std::vector<AssetEntry>& before, const std::vector<AssetEntry>& after) {
  using Key = std::pair<std::string, std::string>;
  std::map<Key, std::pair<const AssetEntry*, const AssetEntry*>> both;
  for (const auto& e : before) both[{e.role, e.name}].first = &e;
  for (const auto& e : after) both[{e.role, e.name}].second = &e;
  std::vector<AssetChange> out;
  for (const auto& [key, pair] : both) {
    const auto [b, a] = pair;
    if (b != nullptr && a != nullptr && b->sha256 == a->sha256 && b->size == a->size) continue;
    AssetChange c{key.first, key.second, std::nullopt, std::nullopt, ""};
    if (b != nullptr) c.before = *b;
    if (a != nullptr) c.after = *a;
    out.push_back(std::move(c));
  }
  return out;
}

std::string describe(const AssetChange& c, std::string_view before_label, std::string_view after_label) {
  if (!c.after) return fmt::format("{} {}: only in {}", c.role, c.name, before_label);
  if (!c.before) return fmt::format("{} {}: only in {}", c.role, c.name, after_label);
  return fmt::format("{} {}: {} {} ({} B) → {} {} ({} B)", c.role, c.name, before_label, short_hash(*c.before),
                     c.before->size, after_label, short_hash(*c.after), c.after->size);
}

util::Result<std::optional<AssetLedger>> read_assets(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return std::optional<AssetLedger>{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto v = util::parse_json(*text, path.string());
  if (!v) return util::fail(util::ErrorKind::bad_input, v.error().message);
  if (!v->is_object() || util::json_string(v->get_object(), "schema") != k_assets_schema) {
    return util::failf(util::ErrorKind::bad_input, "{}: not a {} file", path.string(), k_assets_schema);
  }
  const json::object& o = v->get_object();
  AssetLedger ledger;
  ledger.recorded_at = util::json_string(o, "recorded_at").value_or("");
  if (const auto* a = o.if_contains("assets"); a != nullptr && a->is_array()) {
    for (const auto& e : a->get_array()) {
      if (e.is_object()) ledger.assets.push_back(entry_of(e.get_object()));
    }
  }
  if (const auto* a = o.if_contains("changes"); a != nullptr && a->is_array()) {
    for (const auto& e : a->get_array()) {
      if (!e.is_object()) continue;
      const json::object& c = e.get_object();
      ledger.changes.push_back({util::json_string(c, "role").value_or(""), util::json_string(c, "name").value_or(""),
                                optional_entry(c, "before"), optional_entry(c, "after"),
                                util::json_string(c, "accepted_at").value_or("")});
    }
  }
  return std::optional<AssetLedger>{std::move(ledger)};
}

util::Result<void> write_assets(const std::filesystem::path& path, const AssetLedger& ledger) {
  json::array assets, changes;
  for (const auto& e : ledger.assets) assets.push_back(entry_json(e));
  for (const auto& c : ledger.changes) {
    json::object o{{"role", c.role}, {"name", c.name}, {"accepted_at", c.accepted_at}};
    o["before"] = c.before ? json::value(entry_json(*c.before)) : json::value(nullptr);
    o["after"] = c.after ? json::value(entry_json(*c.after)) : json::value(nullptr);
    changes.push_back(std::move(o));
  }
  json::object out{{"schema", k_assets_schema}, {"recorded_at", ledger.recorded_at}};
  out["assets"] = std::move(assets);
  out["changes"] = std::move(changes);
  if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  boost::json::value v = std::move(out);
  util::redact_json(v);  // hook commands name files, and may carry keys
  return util::write_file_atomic(path, util::to_json_text_pretty(v) + "\n");
}

}  // namespace servebench::results
