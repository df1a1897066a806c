#include "servebench/load/request_record.hpp"

#include <set>

#include <gtest/gtest.h>

namespace servebench::load {
namespace {

TEST(RequestRecord, ErrorKindNamesAreDistinctOutputKeys) {
  std::set<std::string_view> names;
  for (std::size_t k = 0; k < k_request_error_kinds; ++k) names.insert(to_string(static_cast<RequestError>(k)));
  EXPECT_EQ(names.size(), k_request_error_kinds);
  EXPECT_EQ(to_string(RequestError::connect_refused), "connect_refused");
}

TEST(RequestRecord, CountsFallBackWhenTheServerSaidNothing) {
  RequestRecord r;
  r.input_tokens_planned = 100;
  r.chunk_tokens = 7;
  EXPECT_EQ(r.input_tokens(), 100);
  EXPECT_EQ(r.output_tokens(), 7);
  r.input_tokens_served = 103;
  r.output_tokens_served = 8;
  EXPECT_EQ(r.input_tokens(), 103);
  EXPECT_EQ(r.output_tokens(), 8);
}

}  // namespace
}  // namespace servebench::load
