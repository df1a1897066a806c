#include "servebench/sim/route_errors.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "fake_stream.hpp"

using namespace servebench;
using namespace servebench::sim;

TEST(RouteErrors, RouteErrorBecomesItsStatusWithAJsonBody) {
  const auto handler = guarded(http::Handler([](const http::ServerRequest&) -> http::Response {
    throw RouteError(400, "max_tokens: expected an integer >= 0, got -1");
  }));
  const auto response = handler(http::ServerRequest{});
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(response.content_type, "application/json");
  const auto body = boost::json::parse(response.body).as_object();
  EXPECT_EQ(body.at("message"), "max_tokens: expected an integer >= 0, got -1");
  EXPECT_EQ(body.at("code"), 400);
  EXPECT_EQ(body.at("object"), "error");
}

TEST(RouteErrors, OtherExceptionsBecome500) {
  const auto handler =
      guarded(http::Handler([](const http::ServerRequest&) -> http::Response { throw std::runtime_error("boom"); }));
  const auto response = handler(http::ServerRequest{});
  EXPECT_EQ(response.status, 500);
  EXPECT_EQ(boost::json::parse(response.body).at("message"), "boom");
}

TEST(RouteErrors, StreamHandlerErrorsAnswerTheStream) {
  const auto handler = guarded(http::StreamHandler(
      [](const http::ServerRequest&, std::shared_ptr<http::Stream>) { throw RouteError(404, "no such model"); }));
  auto stream = std::make_shared<test::FakeStream>();
  handler(http::ServerRequest{}, stream);
  ASSERT_TRUE(stream->response());
  EXPECT_EQ(stream->response()->status, 404);
  EXPECT_EQ(boost::json::parse(stream->response()->body).at("message"), "no such model");
}
