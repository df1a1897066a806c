#pragma once
// JSON text for files people read (ledgers, results, reports): Boost.JSON values serialized with
// numbers in shortest round-trip decimal form ("41.2", not Boost's "4.12E1"); NaN and infinities,
// which JSON cannot carry, become null. Parsing stays with boost::json::parse.
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

#include "servebench/util/result.hpp"

namespace servebench::util {

// Appends the compact JSON text of `v` to `out`.
void append_json_text(std::string& out, const boost::json::value& v);
std::string to_json_text(const boost::json::value& v);
// Indented (2 spaces) for files meant to be read by people (server_facts.json, gate.json).
std::string to_json_text_pretty(const boost::json::value& v);

// Parses one JSON document; the error names `what` and the parser's message.
Result<boost::json::value> parse_json(std::string_view text, std::string_view what);

// Typed field access on an object: nullopt when absent, null or of another type.
std::optional<double> json_number(const boost::json::object& o, std::string_view key);
std::optional<std::int64_t> json_int(const boost::json::object& o, std::string_view key);
std::optional<std::string> json_string(const boost::json::object& o, std::string_view key);
std::optional<bool> json_bool(const boost::json::object& o, std::string_view key);
const boost::json::object* json_object(const boost::json::object& o, std::string_view key);  // or null

// A double as JSON: the number, or null when it is NaN or infinite.
boost::json::value json_double_or_null(double v);

}  // namespace servebench::util
