#include "servebench/wire/json_writer.hpp"

#include <cmath>

#include <boost/json.hpp>
#include <gtest/gtest.h>

namespace servebench::wire {
namespace {

TEST(JsonWriter, NestsWithCommasInTheRightPlaces) {
  std::string out;
  JsonWriter json(out);
  json.begin_object();
  json.member("a", 1);
  json.key("b");
  json.begin_array();
  json.integer(1);
  json.begin_object();
  json.end_object();
  json.begin_array();
  json.end_array();
  json.null();
  json.end_array();
  json.member("c", true);
  json.key("d");
  json.raw(R"({"x":[1]})");
  json.end_object();
  EXPECT_EQ(out, R"({"a":1,"b":[1,{},[],null],"c":true,"d":{"x":[1]}})");
}

TEST(JsonWriter, EscapesStringsSoBoostReadsThemBack) {
  const std::string nasty = "q\"b\\s/n\nt\tr\rctl\x01\x1f utf8 \xc3\xa9 end";
  std::string out;
  append_json_string(out, nasty);
  EXPECT_EQ(out.find('\n'), std::string::npos);
  EXPECT_NE(out.find("\\u0001"), std::string::npos);
  EXPECT_EQ(boost::json::parse(out).as_string(), nasty);
}

TEST(JsonWriter, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const std::string valid = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";  // é € 😀
  std::string out;
  append_json_string(out, valid);
  EXPECT_EQ(boost::json::parse(out).as_string(), valid);
  // stray continuation, truncated 2-byte, overlong '/', UTF-16 surrogate, > U+10FFFF, 0xff
  out.clear();
  append_json_string(out, "a\x80" "b\xc3\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xff");
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(boost::json::parse(out).as_string(), "a" + r + "b" + r + r + r + r + r + r + r + r + r + r + r);
}

TEST(JsonWriter, NumbersAreShortestAndNonFiniteIsNull) {
  std::string out;
  JsonWriter json(out);
  json.begin_array();
  json.number(0.1);
  json.number(41.2);
  json.number(NAN);
  json.number(INFINITY);
  json.integer(-9007199254740993);
  json.end_array();
  EXPECT_EQ(out, "[0.1,41.2,null,null,-9007199254740993]");
}

TEST(JsonWriter, AppendsToExistingContent) {
  std::string out = "data: ";
  JsonWriter json(out);
  json.begin_object();
  json.member("k", "v");
  json.end_object();
  EXPECT_EQ(out, R"(data: {"k":"v"})");
}

}  // namespace
}  // namespace servebench::wire
