#include "servebench/recipe/page_json.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::recipe {
namespace {

namespace json = boost::json;

json::object selection_json(const Catalog& c, const Selection& s) {
  json::object out;
  for (const auto& [dim, option] : all_pairs(c, s)) out[dim] = option;
  return out;
}

json::array strings(const std::vector<std::string>& items) {
  json::array out;
  for (const auto& i : items) out.emplace_back(i);
  return out;
}

json::value optional_text(const std::optional<std::string>& text) {
  return text ? json::value(*text) : json::value(nullptr);
}

json::value spec_json(const std::optional<SpecNotice>& n) {
  if (!n) return nullptr;
  json::object out{{"kind", n->kind}, {"algorithm", n->algorithm}};
  if (n->value) out["value"] = *n->value;
  return out;
}

}  // namespace

json::object to_json(const Catalog& c, const PageView& p) {
  json::array reasons;
  for (const auto& g : p.greyed) {
    reasons.push_back(json::object{{"dim", c.dims[g.dim].id}, {"value", g.value}, {"kind", to_string(g.kind)}, {"reason", g.reason}});
  }
  json::object out{{"selection", selection_json(c, p.selection)}, {"disabled", !p.greyed.empty()},
                   {"reasons", std::move(reasons)}, {"cell_found", p.cell_found}, {"model_name", p.model_name},
                   {"flags", strings(p.flags)}, {"env", strings(p.env)}, {"hints", strings(p.hints)}};
  if (p.cell_found) out["nnodes"] = p.nnodes;
  out["command"] = optional_text(p.command);
  out["docker_command"] = optional_text(p.docker_command);
  out["verification"] = to_string(p.badge);
  if (p.cell_found) {
    out["warn"] = optional_text(p.warn);
    out["spec_notice"] = spec_json(p.spec_notice);
  }
  if (p.snapped) out["snapped_selection"] = selection_json(c, *p.snapped);
  return out;
}

std::vector<json::object> export_pages(const Catalog& catalog) {
  std::vector<json::object> out;
  for (const auto& s : all_selections(catalog)) out.push_back(to_json(catalog, page_view(catalog, s)));
  return out;
}

util::Result<std::vector<json::object>> read_pages(std::string_view text, const std::string& what) {
  std::vector<json::object> out;
  std::size_t line_no = 0;
  for (const auto line : util::split(text, '\n')) {
    ++line_no;
    if (util::trim(line).empty()) continue;
    boost::system::error_code ec;
    json::value v = json::parse(line, ec);
    if (ec || !v.is_object() || !v.get_object().contains("selection") || !v.get_object().at("selection").is_object()) {
      return util::failf(util::ErrorKind::bad_input, "{}:{}: not a cookbook selection (a JSON object with a 'selection' object)",
                         what, line_no);
    }
    out.push_back(std::move(v.get_object()));
  }
  return out;
}

}  // namespace servebench::recipe
