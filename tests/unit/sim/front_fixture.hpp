#pragma once
// A SimServer on 127.0.0.1:<ephemeral> in fast timing (time_scale 0) and a blocking client for it.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <memory>

#include "servebench/http/blocking_client.hpp"
#include "servebench/sim/http_front.hpp"
#include "support/ephemeral_sim.hpp"

namespace servebench::sim::test {

using namespace std::chrono_literals;

inline FrontOptions fast_options() { return servebench::testing::fast_front_options(); }

struct Front {
  explicit Front(FrontOptions options = fast_options(), SimConfig config = {})
      : server(make_deployment(config).value(), std::move(options)) {
    const auto started = server.start();
    EXPECT_TRUE(started) << started.error().message;
    client = http::BlockingClient::create(server.base_url()).value();
  }

  http::Response post(std::string target, std::string body) {
    auto r = client->send({http::Method::post, std::move(target), std::move(body), "application/json", {}}, 20s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  }
  http::Response get(std::string target) {
    auto r = client->send({http::Method::get, std::move(target), "", "application/json", {}}, 20s);
    EXPECT_TRUE(r) << r.error().message;
    return r.value_or(http::Response{});
  }
  static boost::json::value json(const http::Response& r) { return boost::json::parse(r.body); }

  SimServer server;
  std::unique_ptr<http::BlockingClient> client;
};

}  // namespace servebench::sim::test
