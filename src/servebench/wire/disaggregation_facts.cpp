#include "servebench/wire/disaggregation_facts.hpp"

#include <boost/json.hpp>

#include "servebench/util/json_text.hpp"

namespace servebench::wire {
namespace {

namespace json = boost::json;

std::vector<std::string> strings_of(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  const auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_array()) return out;
  for (const auto& item : v->get_array()) {
    if (item.is_string()) out.emplace_back(item.get_string());
  }
  return out;
}

std::optional<KvTransferFacts> kv_transfer_of(const json::object& info) {
  const auto* sim = info.if_contains("sim");
  if (sim == nullptr || !sim->is_object()) return std::nullopt;
  const auto& s = sim->get_object();
  KvTransferFacts t;
  t.bytes_per_token = util::json_number(s, "kv_transfer_bytes_per_token");
  if (!t.bytes_per_token) return std::nullopt;
  t.backend = util::json_string(info, "disaggregation_transfer_backend").value_or("");
  t.bytes_per_token_per_gpu = util::json_number(s, "kv_transfer_bytes_per_token_per_gpu");
  t.link_gbs = util::json_number(s, "kv_transfer_link_gbs");
  t.latency_us = util::json_number(s, "kv_transfer_latency_us");
  return t;
}

json::value opt(const std::optional<double>& v) { return v ? json::value(*v) : json::value(nullptr); }

json::array array_of(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

}  // namespace

std::optional<double> KvTransferFacts::time_ms(double isl) const {
  if (!bytes_per_token_per_gpu || !link_gbs || !latency_us) return std::nullopt;
  if (*link_gbs <= 0) return 0.0;  // no bytes move
  return *latency_us / 1e3 + isl * *bytes_per_token_per_gpu / (*link_gbs * 1e9) * 1e3;
}

std::optional<DisaggregationFacts> disaggregation_of_server_info(const json::object& info) {
  const auto mode = util::json_string(info, "disaggregation_mode");
  if (!mode || (*mode != "prefill" && *mode != "decode" && *mode != "router")) return std::nullopt;
  DisaggregationFacts d;
  d.mode = *mode;
  if (const auto* router = info.if_contains("pd_router"); router && router->is_object()) {
    d.prefill_urls = strings_of(router->get_object(), "prefill");
    d.decode_urls = strings_of(router->get_object(), "decode");
  }
  d.kv_transfer = kv_transfer_of(info);
  return d;
}

json::object to_json(const DisaggregationFacts& d) {
  json::object o{{"mode", d.mode}, {"prefill", array_of(d.prefill_urls)}, {"decode", array_of(d.decode_urls)},
                 {"kv_transfer", nullptr}};
  if (const auto& t = d.kv_transfer) {
    o["kv_transfer"] = json::object{{"backend", t->backend},
                                    {"bytes_per_token", opt(t->bytes_per_token)},
                                    {"bytes_per_token_per_gpu", opt(t->bytes_per_token_per_gpu)},
                                    {"link_gbs", opt(t->link_gbs)},
                                    {"latency_us", opt(t->latency_us)}};
  }
  return o;
}

DisaggregationFacts disaggregation_from_json(const json::object& o) {
  DisaggregationFacts d;
  d.mode = util::json_string(o, "mode").value_or("");
  d.prefill_urls = strings_of(o, "prefill");
  d.decode_urls = strings_of(o, "decode");
  if (const auto* t = o.if_contains("kv_transfer"); t && t->is_object()) {
    const auto& k = t->get_object();
    d.kv_transfer = KvTransferFacts{util::json_string(k, "backend").value_or(""), util::json_number(k, "bytes_per_token"),
                                    util::json_number(k, "bytes_per_token_per_gpu"), util::json_number(k, "link_gbs"),
                                    util::json_number(k, "latency_us")};
  }
  return d;
}

std::string encode_router_server_info(std::span<const RouterPart> prefill, std::span<const RouterPart> decode) {
  const auto parse = [](const RouterPart& p) -> json::value {
    boost::system::error_code ec;
    json::value v = json::parse(p.server_info, ec);
    return !ec && v.is_object() ? v : json::value(nullptr);
  };
  json::array prefill_infos, decode_infos, prefill_urls, decode_urls;
  for (const auto& p : prefill) {
    prefill_infos.push_back(parse(p));
    prefill_urls.emplace_back(p.url);
  }
  for (const auto& p : decode) {
    decode_infos.push_back(parse(p));
    decode_urls.emplace_back(p.url);
  }
  json::object out;
  if (!decode_infos.empty() && decode_infos.front().is_object()) out = decode_infos.front().get_object();
  out["disaggregation_mode"] = "router";
  out["pd_router"] = json::object{{"prefill", std::move(prefill_urls)}, {"decode", std::move(decode_urls)}};
  out["prefill"] = std::move(prefill_infos);
  out["decode"] = std::move(decode_infos);
  return json::serialize(out);
}

}  // namespace servebench::wire
