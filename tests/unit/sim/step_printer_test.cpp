#include "servebench/sim/step_printer.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace servebench;
using namespace servebench::sim;
using namespace std::chrono_literals;

namespace {

class FixedWall final : public util::WallClock {
 public:
  util::WallTime now() const noexcept override { return util::WallTime{std::chrono::seconds(1'767'225'600)}; }
};

// A FILE* whose contents the test reads back.
class Captured {
 public:
  Captured() : m_file(std::tmpfile()) {}
  ~Captured() { std::fclose(m_file); }
  std::FILE* file() { return m_file; }
  std::string text() {
    std::fflush(m_file);
    std::rewind(m_file);
    std::string out;
    char buf[4096];
    while (const auto n = std::fread(buf, 1, sizeof buf, m_file)) out.append(buf, n);
    return out;
  }

 private:
  std::FILE* m_file;
};

StepLog decode_at(std::chrono::nanoseconds at) {
  StepLog l;
  l.kind = BatchKind::decode;
  l.at = at;
  l.running_req = 4;
  return l;
}

int count(const std::string& text, std::string_view what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(StepPrinter, PrintsEveryPrefillAndEveryNthDecode) {
  Captured out;
  FixedWall wall;
  StepPrinter printer(out.file(), 4, wall);
  StepLog prefill;
  prefill.kind = BatchKind::prefill;
  prefill.new_seq = 2;
  std::int64_t generated = 0;
  printer.observe(std::span(&prefill, 1), generated);
  for (int i = 1; i <= 12; ++i) {
    const StepLog d = decode_at(std::chrono::milliseconds(10 * i));
    generated += 4;
    printer.observe(std::span(&d, 1), generated);
  }
  const std::string text = out.text();
  EXPECT_EQ(count(text, "Prefill batch. #new-seq: 2"), 1);
  EXPECT_EQ(count(text, "Decode batch. #running-req: 4"), 3);
  EXPECT_EQ(count(text, "[2026-01-01 00:00:00] "), 4);
  // 4 tokens per 10 ms step: 400 token/s over each window.
  EXPECT_NEAR(printer.gen_throughput(), 400.0, 1e-6);
  EXPECT_NE(text.find("gen throughput (token/s): 400.00"), std::string::npos) << text;
}

TEST(StepPrinter, SilentPrinterStillMeasuresThroughput) {
  StepPrinter printer(nullptr, 2);
  std::int64_t generated = 0;
  for (int i = 1; i <= 4; ++i) {
    const StepLog d = decode_at(std::chrono::milliseconds(5 * i));
    generated += 10;
    printer.observe(std::span(&d, 1), generated);
  }
  EXPECT_NEAR(printer.gen_throughput(), 2000.0, 1e-6);
}
