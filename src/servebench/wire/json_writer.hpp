#pragma once
// Appends compact JSON to a caller-owned buffer without intermediate values: the writer for
// request bodies and response chunks, whose buffers are reused so the hot path does not allocate.
// Parsing stays with Boost.JSON.
#include <cstdint>
#include <string>
#include <string_view>

namespace servebench::wire {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : m_out(out) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // An object member name; the next call writes its value.
  void key(std::string_view name);
  void string(std::string_view s);
  void integer(std::int64_t v);
  void number(double v);  // shortest round-trip form; NaN and infinities become null
  void boolean(bool v);
  void null();
  // A value that is already JSON text (e.g. a member of a caller's extra-body object).
  void raw(std::string_view json);

  template <class T>
  void member(std::string_view name, const T& value) {
    key(name);
    write(value);
  }

 private:
  void write(std::string_view s) { string(s); }
  void write(const char* s) { string(s); }
  void write(const std::string& s) { string(s); }
  void write(bool v) { boolean(v); }
  void write(double v) { number(v); }
  void write(std::int64_t v) { integer(v); }
  void write(int v) { integer(v); }
  void separate();

  std::string& m_out;
  std::uint64_t m_first = 1;  // bit d: no value written yet at nesting depth d
  int m_depth = 0;
  bool m_after_key = false;
};

// Appends `s` as a quoted JSON string (escapes quotes, backslashes and control characters); each
// byte that is not part of well-formed UTF-8 becomes U+FFFD, so the output is always valid JSON.
void append_json_string(std::string& out, std::string_view s);

}  // namespace servebench::wire
