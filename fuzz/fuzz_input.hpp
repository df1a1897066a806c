#pragma once
// What every fuzz target shares: the input as text, and a selector byte taken from its front
// (which parser, route or engine; where to split the bytes).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

namespace servebench::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : m_rest(reinterpret_cast<const char*>(data), size) {}
  // The next byte (0 when used up), removed from the front.
  std::uint8_t take_byte() {
    if (m_rest.empty()) return 0;
    const auto b = static_cast<std::uint8_t>(m_rest.front());
    m_rest.remove_prefix(1);
    return b;
  }
  std::string_view rest() const { return m_rest; }

 private:
  std::string_view m_rest;
};

// A property of the code under test that does not hold: abort, so libFuzzer saves the input.
inline void expect(bool cond, const char* what) {
  if (cond) return;
  std::fprintf(stderr, "fuzz property violated: %s\n", what);
  std::abort();
}

}  // namespace servebench::fuzz
