#include "servebench/util/json_text.hpp"

#include <cmath>
#include <limits>

#include <boost/json.hpp>
#include <fmt/format.h>

namespace servebench::util {
namespace {

void append_indent(std::string& out, int indent, int depth) {
  if (indent <= 0) return;
  out.push_back('\n');
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void append_value(std::string& out, const boost::json::value& v, int indent, int depth) {
  switch (v.kind()) {
    case boost::json::kind::null: out += "null"; return;
    case boost::json::kind::bool_: out += v.get_bool() ? "true" : "false"; return;
    case boost::json::kind::int64: fmt::format_to(std::back_inserter(out), "{}", v.get_int64()); return;
    case boost::json::kind::uint64: fmt::format_to(std::back_inserter(out), "{}", v.get_uint64()); return;
    case boost::json::kind::double_: {
      const double d = v.get_double();
      if (!std::isfinite(d)) {
        out += "null";
      } else {
        fmt::format_to(std::back_inserter(out), "{}", d);
      }
      return;
    }
    case boost::json::kind::string: out += boost::json::serialize(v.get_string()); return;
    case boost::json::kind::array: {
      const auto& a = v.get_array();
      out.push_back('[');
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i > 0) out.push_back(',');
        append_indent(out, indent, depth + 1);
        append_value(out, a[i], indent, depth + 1);
      }
      if (!a.empty()) append_indent(out, indent, depth);
      out.push_back(']');
      return;
    }
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      out.push_back('{');
      bool first = true;
      for (const auto& kv : o) {
        if (!first) out.push_back(',');
        first = false;
        append_indent(out, indent, depth + 1);
        out += boost::json::serialize(boost::json::string_view(kv.key()));
        out += indent > 0 ? ": " : ":";
        append_value(out, kv.value(), indent, depth + 1);
      }
      if (!o.empty()) append_indent(out, indent, depth);
      out.push_back('}');
      return;
    }
  }
}

}  // namespace

void append_json_text(std::string& out, const boost::json::value& v) { append_value(out, v, 0, 0); }

std::string to_json_text(const boost::json::value& v) {
  std::string out;
  append_value(out, v, 0, 0);
  return out;
}

std::string to_json_text_pretty(const boost::json::value& v) {
  std::string out;
  append_value(out, v, 2, 0);
  out.push_back('\n');
  return out;
}

Result<boost::json::value> parse_json(std::string_view text, std::string_view what) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 BOM (first line of a JSONL file)
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(boost::json::string_view(text.data(), text.size()), ec);
  if (ec) return failf(ErrorKind::bad_input, "{}: invalid JSON: {}", what, ec.message());
  return v;
}

std::optional<double> json_number(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(boost::json::string_view(key.data(), key.size()));
  if (v == nullptr) return std::nullopt;
  if (v->is_double()) return v->get_double();
  if (v->is_int64()) return static_cast<double>(v->get_int64());
  if (v->is_uint64()) return static_cast<double>(v->get_uint64());
  return std::nullopt;
}

std::optional<std::int64_t> json_int(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(boost::json::string_view(key.data(), key.size()));
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  // Beyond int64's range (a uint64 above it, a whole double of 2^63 or more) is not an int64:
  // absent, not wrapped or cast (the cast is undefined behaviour).
  if (v->is_uint64()) {
    const std::uint64_t u = v->get_uint64();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v->is_double()) {
    const double d = v->get_double();
    constexpr double two63 = 9223372036854775808.0;
    if (std::floor(d) == d && d >= -two63 && d < two63) return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::optional<std::string> json_string(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(boost::json::string_view(key.data(), key.size()));
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

const boost::json::object* json_object(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

std::optional<bool> json_bool(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(boost::json::string_view(key.data(), key.size()));
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

boost::json::value json_double_or_null(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

}  // namespace servebench::util
