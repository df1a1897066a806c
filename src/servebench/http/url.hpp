#pragma once
// Base URLs of servers: "http://host:port[/prefix]". Only plain http — the tool talks to servers
// on loopback or a trusted network, and TLS would put a second transport on the hot path.
#include <cstdint>
#include <string>
#include <string_view>

#include "servebench/util/result.hpp"

namespace servebench::http {

struct Url {
  std::string host;    // "127.0.0.1", "localhost", "::1" (brackets removed)
  std::uint16_t port = 80;
  std::string prefix;  // "" or "/v2" (no trailing '/'); prepended to every request target
  std::string text;    // the normalized base URL, for messages: "http://127.0.0.1:30000/v2"
};

// Parses a base URL; the port defaults to 80. Fails with ErrorKind::bad_input naming the URL for
// https, another scheme, a missing host, a bad port, or a query/fragment in a base URL.
util::Result<Url> parse_url(std::string_view text);

}  // namespace servebench::http
