#include "servebench/sim/http_front.hpp"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "front_fixture.hpp"
#include "support/wait_for.hpp"

using namespace servebench;
using namespace servebench::sim;
using sim::test::Front;
using namespace std::chrono_literals;

TEST(SimServer, BindFailureNamesTheAddress) {
  Front first;
  auto options = sim::test::fast_options();
  options.server.port = first.server.port();
  SimServer second(make_deployment({}).value(), options);
  const auto started = second.start();
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().kind, util::ErrorKind::unreachable);
  EXPECT_NE(started.error().message.find("127.0.0.1:" + std::to_string(first.server.port())), std::string::npos)
      << started.error().message;
}

TEST(SimServer, StopEndsOpenStreamsAndIsIdempotent) {
  auto options = sim::test::fast_options();
  options.loop.time_scale = 1;
  Front f(options);
  auto client = http::BlockingClient::create(f.server.base_url()).value();
  auto pending = std::async(std::launch::async, [&] {
    return client->send({http::Method::post,
                         "/v1/completions",
                         R"({"prompt":[1,2],"max_tokens":100000,"ignore_eos":true,"stream":true})",
                         "application/json",
                         {}},
                        20s);
  });
  // Wait until the engine runs it, then stop: the client must see the connection end, not hang.
  servebench::testing::wait_until(
      [&] { return f.get("/metrics").body.find("sglang:num_running_reqs{model_name=\"llama-3.1-8b\"} 1") != std::string::npos; },
      10s, 2ms);
  const auto began = std::chrono::steady_clock::now();
  f.server.stop();
  f.server.stop();
  EXPECT_EQ(pending.wait_for(5s), std::future_status::ready);
  EXPECT_LT(std::chrono::steady_clock::now() - began, 5s);
}

TEST(SimServer, HealthIsReadyAfterStart) {
  Front f;
  EXPECT_EQ(f.get("/health").status, 200);
  EXPECT_FALSE(f.server.base_url().empty());
}
