#include "servebench/http/handler.hpp"

#include <gtest/gtest.h>

using servebench::http::ServerRequest;

TEST(ServerRequest, HeaderLookupIgnoresCase) {
  ServerRequest r;
  r.headers = {{"Content-Type", "application/json"}, {"X-Twice", "first"}, {"x-twice", "second"}};
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.header("CONTENT-TYPE"), "application/json");
  EXPECT_EQ(r.header("x-TWICE"), "first");
  EXPECT_EQ(r.header("Authorization"), "");
}
