#include "servebench/http/error_response.hpp"

#include <gtest/gtest.h>

using namespace servebench::http;

TEST(ErrorResponse, IsTheDocumentedJsonShape) {
  const Response r = error_response(413, "too big");
  EXPECT_EQ(r.status, 413);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, R"({"error":{"message":"too big","code":413}})");
}

TEST(JsonQuote, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(json_quote("l1\nl2\t\r"), R"("l1\nl2\t\r")");
  EXPECT_EQ(json_quote(std::string("\x01", 1)), R"("\u0001")");
  EXPECT_EQ(json_quote("ünïcode"), "\"ünïcode\"");
}
