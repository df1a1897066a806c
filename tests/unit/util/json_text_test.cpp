#include "servebench/util/json_text.hpp"

#include <cmath>
#include <limits>

#include <boost/json.hpp>
#include <gtest/gtest.h>

using namespace servebench::util;

TEST(JsonText, NumbersInShortestDecimalForm) {
  boost::json::object o;
  o["a"] = 41.2;
  o["b"] = 3.0;
  o["c"] = std::int64_t{-7};
  o["d"] = std::numeric_limits<double>::quiet_NaN();
  o["s"] = "q\"\n";
  EXPECT_EQ(to_json_text(o), R"({"a":41.2,"b":3,"c":-7,"d":null,"s":"q\"\n"})");
}

TEST(JsonText, RoundTripsThroughBoostParse) {
  const auto v = parse_json(R"({"x":[1,2.5,{"y":null}],"z":"é"})", "test");
  ASSERT_TRUE(v);
  EXPECT_EQ(boost::json::parse(to_json_text(*v)), *v);
  EXPECT_EQ(boost::json::parse(to_json_text_pretty(*v)), *v);
}

TEST(JsonText, ParseErrorNamesWhat) {
  const auto r = parse_json("{\"a\":", "server_facts.json");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("server_facts.json"), std::string::npos);
}

TEST(JsonText, TypedAccess) {
  const auto v = boost::json::parse(R"({"n":2,"d":2.5,"s":"x","b":true,"z":null})").as_object();
  EXPECT_EQ(json_number(v, "n"), 2.0);
  EXPECT_EQ(json_int(v, "n"), 2);
  EXPECT_EQ(json_int(v, "d"), std::nullopt);
  EXPECT_EQ(json_string(v, "s"), "x");
  EXPECT_EQ(json_bool(v, "b"), true);
  EXPECT_EQ(json_number(v, "z"), std::nullopt);
  EXPECT_EQ(json_number(v, "missing"), std::nullopt);
}

TEST(JsonText, AnIntegerBeyondInt64IsAbsentNotWrapped) {
  // 8.9e53 (found by fuzzing the ledger reader) was an out-of-range cast: undefined behaviour.
  const auto v =
      boost::json::parse(R"({"big":8.88889e53,"edge":9223372036854775808.0,"u":18446744073709551615,"ok":4.0e18,)"
                         R"("neg":-9223372036854775808.0,"max":9223372036854775807})")
          .as_object();
  EXPECT_EQ(json_int(v, "big"), std::nullopt);
  EXPECT_EQ(json_int(v, "edge"), std::nullopt);  // 2^63
  EXPECT_EQ(json_int(v, "u"), std::nullopt);     // a uint64 above int64's range
  EXPECT_EQ(json_int(v, "ok"), 4'000'000'000'000'000'000);
  EXPECT_EQ(json_int(v, "neg"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(json_int(v, "max"), std::numeric_limits<std::int64_t>::max());
}
