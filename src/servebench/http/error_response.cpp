#include "servebench/http/error_response.hpp"

#include <fmt/format.h>

namespace servebench::http {

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

Response error_response(int status, std::string_view message) {
  return Response{status, fmt::format(R"({{"error":{{"message":{},"code":{}}}}})", json_quote(message), status),
                  "application/json"};
}

}  // namespace servebench::http
