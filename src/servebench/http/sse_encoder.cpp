#include "servebench/http/sse_encoder.hpp"

namespace servebench::http {

void append_sse_data(std::string& out, std::string_view payload) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = payload.find_first_of("\r\n", start);
    out.append("data: ");
    out.append(payload.substr(start, end - start));
    out.push_back('\n');
    if (end == std::string_view::npos) break;
    start = end + 1;
    if (payload[end] == '\r' && start < payload.size() && payload[start] == '\n') ++start;
  }
  out.push_back('\n');
}

void append_sse_done(std::string& out) { out.append("data: [DONE]\n\n"); }

}  // namespace servebench::http
