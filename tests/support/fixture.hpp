#pragma once
// Test helpers: read files under tests/fixtures/ and split recorded SSE streams into event data.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace servebench::testing {

inline std::string read_fixture(const std::string& relative) {
  std::ifstream in(std::string(SERVEBENCH_SOURCE_DIR) + "/tests/fixtures/" + relative, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The data of every "data: ..." line of a recorded stream, in order.
inline std::vector<std::string> sse_data(const std::string& stream) {
  std::vector<std::string> out;
  std::istringstream in(stream);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("data: ", 0) == 0) out.push_back(line.substr(6));
  }
  return out;
}

}  // namespace servebench::testing
