#include "servebench/wire/json_writer.hpp"

#include <charconv>
#include <cmath>

#include "servebench/util/result.hpp"

namespace servebench::wire {
namespace {

constexpr char k_hex[] = "0123456789abcdef";

// Length of the well-formed UTF-8 sequence that starts at s[i] (a byte >= 0x80), or 0 when there
// is none (stray continuation byte, overlong form, surrogate, beyond U+10FFFF, truncated).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    lo = c == 0xE0 ? 0xA0 : 0x80;
    hi = c == 0xED ? 0x9F : 0xBF;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    lo = c == 0xF0 ? 0x90 : 0x80;
    hi = c == 0xF4 ? 0x8F : 0xBF;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
  }
  return n;
}

}  // namespace

// Bytes that are not UTF-8 (a byte-level token on its own, say) become U+FFFD, as a tokenizer
// decoding with errors="replace" does: JSON text must be UTF-8 (RFC 8259).
void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  std::size_t run = 0;  // start of the pending run of bytes that need no escaping
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    if (c >= 0x80) {
      if (const auto n = utf8_sequence_length(s, i); n > 0) {
        i += n - 1;
        continue;
      }
      out.append(s.data() + run, i - run);
      run = i + 1;
      out += "\\ufffd";
      continue;
    }
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out.push_back(k_hex[c >> 4]);
        out.push_back(k_hex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void JsonWriter::separate() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << m_depth;
  if ((m_first & bit) == 0) m_out.push_back(',');
  m_first &= ~bit;
}

void JsonWriter::begin_object() {
  separate();
  m_out.push_back('{');
  SB_CHECK(m_depth < 63);
  m_first |= std::uint64_t{1} << ++m_depth;
}

void JsonWriter::end_object() {
  m_out.push_back('}');
  --m_depth;
}

void JsonWriter::begin_array() {
  separate();
  m_out.push_back('[');
  SB_CHECK(m_depth < 63);
  m_first |= std::uint64_t{1} << ++m_depth;
}

void JsonWriter::end_array() {
  m_out.push_back(']');
  --m_depth;
}

void JsonWriter::key(std::string_view name) {
  separate();
  append_json_string(m_out, name);
  m_out.push_back(':');
  m_after_key = true;
}

void JsonWriter::string(std::string_view s) {
  separate();
  append_json_string(m_out, s);
}

void JsonWriter::integer(std::int64_t v) {
  separate();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  m_out.append(buf, r.ptr);
}

void JsonWriter::number(double v) {
  separate();
  if (!std::isfinite(v)) {
    m_out += "null";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  m_out.append(buf, r.ptr);
}

void JsonWriter::boolean(bool v) {
  separate();
  m_out += v ? "true" : "false";
}

void JsonWriter::null() {
  separate();
  m_out += "null";
}

void JsonWriter::raw(std::string_view json) {
  separate();
  m_out += json;
}

}  // namespace servebench::wire
