#pragma once
// The simulator in-process on 127.0.0.1:<ephemeral port>, in fast timing (time scale 0): a real
// SGLang-compatible server for tests that need one without starting a process. Never a fixed port.
#include <gtest/gtest.h>

#include <string>

#include "servebench/sim/http_front.hpp"

namespace servebench::testing {

inline sim::FrontOptions fast_front_options() {
  sim::FrontOptions o;
  o.server.port = 0;
  o.loop.time_scale = 0;
  o.facts.version = "test";
  return o;
}

class EphemeralSim {
 public:
  explicit EphemeralSim(sim::FrontOptions options = fast_front_options(), const sim::SimConfig& config = {})
      : m_server(sim::make_deployment(config).value(), std::move(options)) {
    const auto started = m_server.start();
    EXPECT_TRUE(started) << started.error().message;
  }
  sim::SimServer& server() { return m_server; }
  std::string base_url() const { return m_server.base_url(); }

 private:
  sim::SimServer m_server;
};

}  // namespace servebench::testing
