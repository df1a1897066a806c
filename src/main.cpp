#include "servebench/cli/run.hpp"
int main(int argc, char** argv) { return servebench::cli::run(argc, argv); }
