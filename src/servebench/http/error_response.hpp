#pragma once
// The body of every error the HTTP scaffolding answers by itself (400, 404, 405, 413, 500):
//   {"error":{"message":"<message>","code":<status>}}
// (the "error" object of OpenAI-compatible servers). Handlers may use it for their own errors.
#include <string>
#include <string_view>

#include "servebench/http/exchange.hpp"

namespace servebench::http {

// A JSON error response with `status` and `message` (JSON-escaped here).
Response error_response(int status, std::string_view message);

// `text` as a JSON string literal, quotes included.
std::string json_quote(std::string_view text);

}  // namespace servebench::http
