#pragma once
// Hand-made run directories for evidence tests: a ledger with chosen points and each arm's
// server_facts.json, written the way a campaign writes them. Fingerprints come from the flags module.
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "servebench/flags/command.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"

namespace servebench::recipe::testing {

struct ArmSpec {
  std::string name, engine = "sim", launch;
  std::optional<std::pair<std::string, std::string>> recipe = std::nullopt;  // {catalog, select}
  std::string version = "0.1.0-sim";
  bool write_facts = true;
};

struct PointSpec {
  std::string scenario = "chat";
  std::int64_t concurrency = 16;
  results::PointStatus status = results::PointStatus::ok;
  std::optional<bool> gate_passed = true;
};

class RunDir {
 public:
  explicit RunDir(const std::string& tag) {
    static int counter = 0;
    m_path = std::filesystem::temp_directory_path() /
             ("servebench-recipe-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~RunDir() { std::filesystem::remove_all(m_path); }
  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;

  const std::filesystem::path& path() const { return m_path; }

  // Writes the arm's facts (unless told not to) and one ledger point per spec; returns the fingerprint.
  std::string add_arm(const ArmSpec& arm, const std::vector<PointSpec>& points) {
    auto fp = flags::fingerprint_command(flags::Dialect::sglang, arm.launch);
    EXPECT_TRUE(fp) << fp.error().message;
    if (arm.write_facts) write_facts(arm, *fp);
    for (const auto& p : points) append(arm, p, *fp);
    return *fp;
  }

 private:
  void write_facts(const ArmSpec& arm, const std::string& fp) {
    boost::json::object o{{"schema", "servebench.server_facts/1"}, {"arm", arm.name}, {"engine", arm.engine},
                          {"gpus", 4}, {"launch", arm.launch}, {"env", boost::json::object{}}, {"fingerprint", fp},
                          {"facts", boost::json::object{{"version", arm.version}}}};
    if (arm.recipe) o["recipe"] = boost::json::object{{"catalog", arm.recipe->first}, {"select", arm.recipe->second}};
    const auto dir = m_path / "arms" / arm.name;
    ASSERT_TRUE(util::make_dirs(dir));
    ASSERT_TRUE(util::write_file_atomic(dir / "server_facts.json", util::to_json_text_pretty(o)));
  }

  void append(const ArmSpec& arm, const PointSpec& p, const std::string& fp) {
    results::PointRecord r;
    r.campaign = "glm-5.3-flash-recipe";
    r.arm = arm.name;
    r.scenario = p.scenario;
    r.isl = 1000;
    r.osl = 1000;
    r.concurrency = r.effective_concurrency = p.concurrency;
    r.num_prompts = r.completed = 80;
    r.status = p.status;
    r.started_at = "2026-11-29T15:00:00Z";
    r.gpus = 4;
    r.ttft_ms.mean = 120.04;
    r.tpot_ms.mean = 6.434;
    r.throughput.output_tok_per_s = 4000;
    r.throughput.total_tok_per_s = 8000;
    r.throughput.total_tok_per_s_per_gpu = 2000;
    r.gate = {p.gate_passed, true};
    r.server = {arm.engine, fp, "arms/" + arm.name + "/server_facts.json"};
    ASSERT_TRUE(results::append_point(m_path / "ledger.jsonl", r));
  }

  std::filesystem::path m_path;
};

}  // namespace servebench::recipe::testing
