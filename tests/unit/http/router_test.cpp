#include "servebench/http/router.hpp"

#include <gtest/gtest.h>

using namespace servebench::http;

namespace {

ServerRequest request(std::string method, std::string path) {
  ServerRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.target = r.path;
  return r;
}

}  // namespace

TEST(SplitTarget, SeparatesPathAndQuery) {
  EXPECT_EQ(split_target("/a/b?x=1&y=2"), std::make_pair(std::string_view("/a/b"), std::string_view("x=1&y=2")));
  EXPECT_EQ(split_target("/plain"), std::make_pair(std::string_view("/plain"), std::string_view()));
  EXPECT_EQ(split_target("/q?"), std::make_pair(std::string_view("/q"), std::string_view()));
}

TEST(Router, FindsByMethodAndExactPath) {
  Router router;
  router.add(Method::get, "/health", [](const ServerRequest&) { return Response{200, "ok", "text/plain"}; });
  router.add(Method::post, "/v1/completions", [](const ServerRequest&, std::shared_ptr<Stream>) {});
  EXPECT_NE(router.find("GET", "/health").handler, nullptr);
  EXPECT_NE(router.find("POST", "/v1/completions").stream_handler, nullptr);
  EXPECT_EQ(router.find("POST", "/health").handler, nullptr);
  EXPECT_EQ(router.find("GET", "/health/").handler, nullptr);
  EXPECT_EQ(router.find("GET", "/healt").handler, nullptr);
}

TEST(Router, LaterRegistrationReplaces) {
  Router router;
  router.add(Method::get, "/x", [](const ServerRequest&) { return Response{200, "first", "text/plain"}; });
  router.add(Method::get, "/x", [](const ServerRequest&) { return Response{200, "second", "text/plain"}; });
  const auto match = router.find("GET", "/x");
  ASSERT_NE(match.handler, nullptr);
  EXPECT_EQ((*match.handler)(request("GET", "/x")).body, "second");
}

TEST(Router, UnknownPathIs404Json) {
  Router router;
  const Response r = router.unmatched(request("GET", "/nope"));
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, R"({"error":{"message":"no route for GET /nope","code":404}})");
}

TEST(Router, KnownPathWithOtherMethodIs405) {
  Router router;
  router.add(Method::post, "/flush_cache", [](const ServerRequest&) { return Response{200, "", "text/plain"}; });
  EXPECT_EQ(router.unmatched(request("GET", "/flush_cache")).status, 405);
}

TEST(Router, FallbackAnswersUnmatchedRequests) {
  Router router;
  router.set_fallback([](const ServerRequest& r) { return Response{418, "teapot " + r.path, "text/plain"}; });
  const Response r = router.unmatched(request("GET", "/x"));
  EXPECT_EQ(r.status, 418);
  EXPECT_EQ(r.body, "teapot /x");
}
