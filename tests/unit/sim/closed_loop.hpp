#pragma once
// Test support: the simulator's closed-loop client (servebench/sim/closed_loop.hpp).
#include "servebench/sim/closed_loop.hpp"
