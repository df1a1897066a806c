#pragma once
// The servebench command line. Exit codes (util/exit_code.hpp): 0 ok, 1 measured failure,
// 2 bad usage or input, 3 server unreachable or failed to start.

namespace servebench::cli {

int run(int argc, char** argv);

}  // namespace servebench::cli
