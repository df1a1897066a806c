#pragma once
// A ServerControl that answers from fields, counting the calls the runner makes.
#include "servebench/load/server_control.hpp"

namespace servebench::load::testing {

class FakeControl final : public ServerControl {
 public:
  bool healthy = true;
  std::string model = "fake-model";
  CounterWindow window{.hit_rate = 0.0, .accept_length = 2.5};
  int flushes = 0, windows_begun = 0, windows_ended = 0;
  TextCodec* text_codec = nullptr;

  util::Result<void> check_health() override {
    if (!healthy) return util::fail(util::ErrorKind::unreachable, "cannot connect to http://127.0.0.1:9: refused");
    return {};
  }
  util::Result<std::string> first_model() override { return model; }
  util::Result<void> flush_cache() override {
    ++flushes;
    return {};
  }
  void begin_window() override { ++windows_begun; }
  CounterWindow end_window() override {
    ++windows_ended;
    return window;
  }
  boost::json::value server_info() override { return boost::json::object{{"version", "fake"}}; }
  boost::json::object facts() override { return {{"engine", "fake"}}; }
  std::optional<Vocabulary> vocabulary() override {
    auto v = Vocabulary::make(1000, {0, 1, 2});
    return v ? std::optional<Vocabulary>(*v) : std::nullopt;
  }
  TextCodec* codec() override { return text_codec; }
};

}  // namespace servebench::load::testing
