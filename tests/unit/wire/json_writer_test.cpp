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
