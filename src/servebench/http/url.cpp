#include "servebench/http/url.hpp"

#include <fmt/format.h>

#include "servebench/util/strings.hpp"

namespace servebench::http {
namespace {

constexpr std::string_view k_scheme = "http://";

// Host names and IPv4 literals: letters, digits, '.', '-', '_'; IPv6 literals also ':' and '%'.
bool valid_host(std::string_view host, bool bracketed) {
  for (const char c : host) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '-' || c == '_';
    if (!plain && !(bracketed && (c == ':' || c == '%'))) return false;
  }
  return true;
}

util::Result<std::uint16_t> parse_port(std::string_view s, std::string_view url) {
  const auto port = util::parse_int(s, "port");
  if (!port || *port < 1 || *port > 65535) {
    return util::failf(util::ErrorKind::bad_input, "invalid url '{}': bad port '{}'", url, s);
  }
  return static_cast<std::uint16_t>(*port);
}

// Splits "host[:port]" (IPv6 literals in brackets) into the url's host and port.
util::Result<void> parse_authority(std::string_view authority, std::string_view text, Url& url) {
  std::string_view host = authority;
  std::string_view port;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      return util::failf(util::ErrorKind::bad_input, "invalid url '{}': unclosed '[' in host", text);
    }
    host = authority.substr(1, close - 1);
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) {
      return util::failf(util::ErrorKind::bad_input, "invalid url '{}': junk after ']'", text);
    }
    if (!rest.empty()) port = rest.substr(1);
  } else if (const std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) return util::failf(util::ErrorKind::bad_input, "invalid url '{}': missing host", text);
  if (!valid_host(host, authority.starts_with('['))) {
    return util::failf(util::ErrorKind::bad_input, "invalid url '{}': bad host '{}'", text, host);
  }
  url.host = std::string(host);
  if (authority.ends_with(':') || !port.empty()) {
    const auto p = parse_port(port, text);
    if (!p) return std::unexpected(p.error());
    url.port = *p;
  }
  return {};
}

}  // namespace

util::Result<Url> parse_url(std::string_view text) {
  const std::string_view trimmed = util::trim(text);
  const std::string lower = util::to_lower(trimmed.substr(0, std::min(trimmed.size(), k_scheme.size() + 1)));
  if (lower.starts_with("https://")) {
    return util::failf(util::ErrorKind::bad_input, "invalid url '{}': https is not supported, use http://", text);
  }
  if (!lower.starts_with(k_scheme)) {
    return util::failf(util::ErrorKind::bad_input, "invalid url '{}': expected http://host:port", text);
  }
  std::string_view rest = trimmed.substr(k_scheme.size());
  if (rest.find_first_of("?#") != std::string_view::npos) {
    return util::failf(util::ErrorKind::bad_input, "invalid url '{}': a base url has no query or fragment", text);
  }
  const std::size_t slash = rest.find('/');
  Url url;
  if (auto ok = parse_authority(rest.substr(0, slash), text, url); !ok) return std::unexpected(ok.error());
  if (slash != std::string_view::npos) {
    std::string_view prefix = rest.substr(slash);
    while (prefix.ends_with('/')) prefix.remove_suffix(1);
    url.prefix = std::string(prefix);
  }
  const bool v6 = url.host.find(':') != std::string::npos;
  url.text = fmt::format("http://{}{}{}:{}{}", v6 ? "[" : "", url.host, v6 ? "]" : "", url.port, url.prefix);
  return url;
}

}  // namespace servebench::http
