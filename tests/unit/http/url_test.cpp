#include "servebench/http/url.hpp"

#include <gtest/gtest.h>

using servebench::http::parse_url;
using servebench::util::ErrorKind;

TEST(ParseUrl, HostAndPort) {
  const auto url = parse_url("http://127.0.0.1:30000");
  ASSERT_TRUE(url) << url.error().message;
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 30000);
  EXPECT_EQ(url->prefix, "");
  EXPECT_EQ(url->text, "http://127.0.0.1:30000");
}

TEST(ParseUrl, PrefixWithoutTrailingSlash) {
  const auto url = parse_url("http://localhost:8000/v2/");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->host, "localhost");
  EXPECT_EQ(url->prefix, "/v2");
  EXPECT_EQ(url->text, "http://localhost:8000/v2");
}

TEST(ParseUrl, DefaultPortAndUppercaseScheme) {
  const auto url = parse_url("HTTP://example.org");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->port, 80);
  EXPECT_EQ(url->text, "http://example.org:80");
}

TEST(ParseUrl, BracketedIpv6) {
  const auto url = parse_url("http://[::1]:9000");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, 9000);
  EXPECT_EQ(url->text, "http://[::1]:9000");
}

TEST(ParseUrl, RejectsHttpsClearly) {
  const auto url = parse_url("https://api.example.com");
  ASSERT_FALSE(url);
  EXPECT_EQ(url.error().kind, ErrorKind::bad_input);
  EXPECT_NE(url.error().message.find("https is not supported"), std::string::npos);
  EXPECT_NE(url.error().message.find("https://api.example.com"), std::string::npos);
}

TEST(ParseUrl, RejectsGarbage) {
  for (const char* bad : {"", "127.0.0.1:8000", "ftp://host", "http://", "http://:80", "http://host:0",
                          "http://host:65536", "http://host:port", "http://host:80?x=1", "http://us er@host",
                          "http://[::1", "http://host:"}) {
    const auto url = parse_url(bad);
    EXPECT_FALSE(url) << bad;
    if (!url) {
      EXPECT_EQ(url.error().kind, ErrorKind::bad_input) << bad;
    }
  }
}
