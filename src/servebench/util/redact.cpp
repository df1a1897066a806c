#include "servebench/util/redact.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>

#include <boost/json.hpp>

#include "servebench/util/strings.hpp"

namespace servebench::util {
namespace {

constexpr std::array<std::string_view, 2> k_key_flags{"--api-key", "--admin-api-key"};

bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_space(char c) { return c == ' ' || c == '\t'; }
// Where an unquoted value ends: whitespace, a quote, or shell and list punctuation.
bool ends_value(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == ',' || c == ';' ||
         c == ')' || c == '&' || c == '|' || c == '}' || c == ']';
}

// A value that names where a secret comes from, or says there is none, is no secret.
bool is_reference(std::string_view v) {
  const bool placeholder = v.size() >= 2 && v.front() == '<' && v.back() == '>';  // <your-hf-token>
  return v.empty() || v.starts_with('$') || placeholder || v == "None" || v == "null";
}

// Redacts the value starting at `text[i]` into `out`; returns the index after it. A quoted value
// keeps its quotes.
std::size_t redact_value(std::string_view text, std::size_t i, std::string& out) {
  if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
    const char q = text[i];
    const std::size_t close = text.find(q, i + 1);
    const std::size_t end = close == std::string_view::npos ? text.size() : close;
    const std::string_view value = text.substr(i + 1, end - i - 1);
    out += q;
    out += is_reference(value) ? value : k_redacted;
    if (close != std::string_view::npos) out += q;
    return close == std::string_view::npos ? end : end + 1;
  }
  std::size_t end = i;
  while (end < text.size() && !ends_value(text[end])) ++end;
  const std::string_view value = text.substr(i, end - i);
  out += is_reference(value) ? value : k_redacted;
  return end;
}

std::size_t skip_spaces(std::string_view text, std::size_t i, std::string& out) {
  while (i < text.size() && is_space(text[i])) out += text[i++];
  return i;
}

bool starts_word(std::string_view text, std::size_t i) { return i == 0 || !(is_name_char(text[i - 1]) || text[i - 1] == '-'); }

// `--api-key VALUE` / `--api-key=VALUE` at `i`; returns the index after the value, or npos.
std::size_t key_flag(std::string_view text, std::size_t i, std::string& out) {
  for (const std::string_view flag : k_key_flags) {
    if (!text.substr(i).starts_with(flag)) continue;
    const std::size_t after = i + flag.size();
    if (after < text.size() && text[after] != '=' && !is_space(text[after])) continue;  // --api-key-env
    out += flag;
    if (after == text.size()) return after;
    if (text[after] == '=') {
      out += '=';
      return redact_value(text, after + 1, out);
    }
    return redact_value(text, skip_spaces(text, after, out), out);
  }
  return std::string_view::npos;
}

// NAME=VALUE, NAME: VALUE, "NAME": "VALUE", Authorization: Bearer VALUE at `i` (a name start).
std::size_t assignment(std::string_view text, std::size_t i, std::string& out) {
  std::size_t end = i;
  while (end < text.size() && is_name_char(text[end])) ++end;
  const std::string_view name = text.substr(i, end - i);
  if (name.empty() || !is_secret_name(name)) return std::string_view::npos;
  std::size_t j = end;
  const bool quoted_key = j < text.size() && (text[j] == '"' || text[j] == '\'');
  if (quoted_key) ++j;
  if (j >= text.size() || (text[j] != '=' && text[j] != ':')) return std::string_view::npos;
  // `NAME: value` is also how prose reads ("campaign secrets: 3 points"): only a quoted key, a
  // name with an underscore (HF_TOKEN, api_key) or the Authorization header counts.
  if (text[j] == ':' && !quoted_key && name.find('_') == std::string_view::npos && to_lower(name) != "authorization") {
    return std::string_view::npos;
  }
  ++j;
  out += text.substr(i, j - i);
  j = skip_spaces(text, j, out);
  const bool quoted = j < text.size() && (text[j] == '"' || text[j] == '\'');
  if (to_lower(name) == "authorization") {
    // Keep the scheme: `Bearer <redacted>`.
    std::size_t k = quoted ? j + 1 : j;
    std::size_t word = k;
    while (word < text.size() && is_name_char(text[word])) ++word;
    const std::string scheme = to_lower(text.substr(k, word - k));
    if ((scheme == "bearer" || scheme == "basic" || scheme == "token") && word < text.size() && is_space(text[word])) {
      if (quoted) out += text[j];
      out += text.substr(k, word - k);
      std::size_t v = skip_spaces(text, word, out);
      if (quoted) {
        const std::size_t close = text.find(text[j], v);
        const std::size_t stop = close == std::string_view::npos ? text.size() : close;
        out += is_reference(text.substr(v, stop - v)) ? text.substr(v, stop - v) : k_redacted;
        return stop;
      }
      return redact_value(text, v, out);
    }
  }
  return redact_value(text, j, out);
}

}  // namespace

bool is_secret_name(std::string_view name) {
  const std::string n = to_lower(name);
  return n.ends_with("_token") || n.ends_with("_key") || n.find("secret") != std::string::npos ||
         n.find("password") != std::string::npos || n == "authorization";
}

std::string redact(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (starts_word(text, i)) {
      std::size_t next = text[i] == '-' ? key_flag(text, i, out) : std::string_view::npos;
      if (next == std::string_view::npos && is_name_char(text[i])) next = assignment(text, i, out);
      if (next != std::string_view::npos) {
        i = next;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

void redact_json(boost::json::value& v) {
  if (auto* s = v.if_string()) {
    *s = redact(std::string_view(*s));
  } else if (auto* a = v.if_array()) {
    bool secret_next = false;
    for (auto& e : *a) {
      if (secret_next && e.is_string() && !is_reference(std::string_view(e.get_string()))) {
        e = std::string(k_redacted);
      } else {
        redact_json(e);
      }
      const auto* s = e.if_string();
      secret_next = s != nullptr && (*s == k_key_flags[0] || *s == k_key_flags[1]);
    }
  } else if (auto* o = v.if_object()) {
    for (auto& [key, value] : *o) {
      const auto* s = value.if_string();
      if (is_secret_name(std::string_view(key)) && s != nullptr && !is_reference(std::string_view(*s))) {
        value = std::string(k_redacted);
      } else {
        redact_json(value);
      }
    }
  }
}

}  // namespace servebench::util

namespace servebench::util {
namespace {

ssize_t redacting_write(void* cookie, const char* buf, size_t size) {
  const int fd = static_cast<int>(reinterpret_cast<std::intptr_t>(cookie));
  const std::string text = redact(std::string_view(buf, size));
  std::string_view left(text);
  while (!left.empty()) {
    const ssize_t n = ::write(fd, left.data(), left.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    left.remove_prefix(static_cast<std::size_t>(n));
  }
  return static_cast<ssize_t>(size);
}

std::FILE* g_redacting_out = nullptr;
std::FILE* g_redacting_err = nullptr;

std::FILE* redacting_stream(int fd, int buffering) {
  cookie_io_functions_t io{};
  io.write = redacting_write;
  std::FILE* f = fopencookie(reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)), "w", io);
  if (f != nullptr) setvbuf(f, nullptr, buffering, buffering == _IONBF ? 0 : 1 << 16);
  return f;
}

}  // namespace

void redact_standard_streams() {
  std::fflush(stdout);
  std::fflush(stderr);
  // glibc's stdout and stderr are plain variables, meant to be reassignable.
  if (g_redacting_out != nullptr) return;
  if (std::FILE* out = redacting_stream(STDOUT_FILENO, _IOLBF)) stdout = g_redacting_out = out;
  if (std::FILE* err = redacting_stream(STDERR_FILENO, _IONBF)) stderr = g_redacting_err = err;
}

int stream_descriptor(std::FILE* f) {
  if (f == nullptr) return -1;
  if (f == g_redacting_out) return STDOUT_FILENO;
  if (f == g_redacting_err) return STDERR_FILENO;
  return fileno(f);
}

}  // namespace servebench::util
