#include "servebench/results/in_service_file.hpp"

#include <boost/json.hpp>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::results {
namespace json = boost::json;
namespace {

json::value snapshot_json(const std::optional<ServiceSnapshot>& s) {
  if (!s) return nullptr;
  json::object o{{"at", s->at}, {"healthy", s->healthy}, {"health_status", s->health_status}};
  o["facts"] = s->facts ? json::value(wire::to_json(*s->facts)) : json::value(nullptr);
  if (!s->error.empty()) o["error"] = s->error;
  return o;
}

std::optional<ServiceSnapshot> snapshot_of(const json::object& parent, std::string_view key) {
  const auto* v = parent.if_contains(key);
  if (v == nullptr || !v->is_object()) return std::nullopt;
  const json::object& o = v->get_object();
  ServiceSnapshot s;
  s.at = util::json_string(o, "at").value_or("");
  s.healthy = util::json_bool(o, "healthy").value_or(false);
  s.health_status = static_cast<int>(util::json_int(o, "health_status").value_or(0));
  if (const auto* f = o.if_contains("facts"); f != nullptr && f->is_object()) s.facts = wire::server_facts_from_json(f->get_object());
  s.error = util::json_string(o, "error").value_or("");
  return s;
}

}  // namespace

util::Result<std::optional<InServiceRecord>> read_in_service(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return std::optional<InServiceRecord>{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  auto v = util::parse_json(*text, path.string());
  if (!v) return util::fail(util::ErrorKind::bad_input, v.error().message);
  if (!v->is_object() || util::json_string(v->get_object(), "schema") != k_in_service_schema) {
    return util::failf(util::ErrorKind::bad_input, "{}: not a {} file", path.string(), k_in_service_schema);
  }
  const json::object& o = v->get_object();
  InServiceRecord r;
  r.arm = util::json_string(o, "arm").value_or("");
  r.url = util::json_string(o, "url").value_or("");
  r.restore_check = util::json_string(o, "restore_check").value_or("");
  r.before = snapshot_of(o, "before");
  r.after = snapshot_of(o, "after");
  r.restored = util::json_bool(o, "restored");
  if (const auto* d = o.if_contains("differences"); d != nullptr && d->is_array()) {
    for (const auto& x : d->get_array()) {
      if (x.is_string()) r.differences.emplace_back(x.get_string());
    }
  }
  return std::optional<InServiceRecord>{std::move(r)};
}

util::Result<void> write_in_service(const std::filesystem::path& path, const InServiceRecord& r) {
  json::array differences;
  for (const auto& d : r.differences) differences.emplace_back(d);
  json::object o{{"schema", k_in_service_schema}, {"arm", r.arm}, {"url", r.url}, {"restore_check", r.restore_check}};
  o["before"] = snapshot_json(r.before);
  o["after"] = snapshot_json(r.after);
  o["restored"] = r.restored ? json::value(*r.restored) : json::value(nullptr);
  o["differences"] = std::move(differences);
  if (auto ok = util::make_dirs(path.parent_path()); !ok) return ok;
  boost::json::value v = std::move(o);
  util::redact_json(v);
  return util::write_file_atomic(path, util::to_json_text_pretty(v) + "\n");
}

}  // namespace servebench::results
