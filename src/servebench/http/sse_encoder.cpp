#include "servebench/http/sse_encoder.hpp"

#include <cstring>

namespace servebench::http {
namespace {

// Index of the first '\r' or '\n' in `s` (s.size() when none); memchr keeps the common case —
// a JSON payload without line breaks — at memory speed.
std::size_t find_line_break(std::string_view s) {
  const void* lf = std::memchr(s.data(), '\n', s.size());
  const std::size_t limit = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - s.data()) : s.size();
  const void* cr = std::memchr(s.data(), '\r', limit);
  return cr ? static_cast<std::size_t>(static_cast<const char*>(cr) - s.data()) : limit;
}

}  // namespace

void append_sse_data(std::string& out, std::string_view payload) {
  for (;;) {
    const std::size_t end = find_line_break(payload);
    out.append("data: ");
    out.append(payload.substr(0, end));
    out.push_back('\n');
    if (end == payload.size()) break;
    std::size_t next = end + 1;
    if (payload[end] == '\r' && next < payload.size() && payload[next] == '\n') ++next;
    payload.remove_prefix(next);
  }
  out.push_back('\n');
}

void append_sse_done(std::string& out) { out.append("data: [DONE]\n\n"); }

}  // namespace servebench::http
