#include "servebench/util/result.hpp"

#include <cstdio>
#include <cstdlib>

namespace servebench::util {

void check_failed(const char* expr, const char* file, int line) noexcept {
  std::fprintf(stderr, "servebench: internal check failed: %s at %s:%d\n", expr, file, line);
  std::abort();
}

}  // namespace servebench::util
