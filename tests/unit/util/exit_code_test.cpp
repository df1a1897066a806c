#include "servebench/util/exit_code.hpp"

#include <csignal>

#include <gtest/gtest.h>

namespace servebench::util {
namespace {

// Users' scripts branch on these numbers; they are a contract.
TEST(ExitCode, NumbersAreTheDocumentedOnes) {
  EXPECT_EQ(k_exit_ok, 0);
  EXPECT_EQ(k_exit_measured_failure, 1);
  EXPECT_EQ(k_exit_bad_input, 2);
  EXPECT_EQ(k_exit_unreachable, 3);
  EXPECT_EQ(exit_code_for_signal(SIGINT), 130);
  EXPECT_EQ(exit_code_for_signal(SIGTERM), 143);
}

TEST(ExitCode, EveryErrorKindMapsToOne) {
  EXPECT_EQ(exit_code_for(ErrorKind::bad_input), k_exit_bad_input);
  EXPECT_EQ(exit_code_for(ErrorKind::unreachable), k_exit_unreachable);
  EXPECT_EQ(exit_code_for(ErrorKind::failed), k_exit_measured_failure);
  EXPECT_EQ(exit_code_for(ErrorKind::io), k_exit_measured_failure);
}

}  // namespace
}  // namespace servebench::util
