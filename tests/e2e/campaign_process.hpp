#pragma once
// Helpers for the campaign end-to-end tests: the real `servebench` CLI as a child process
// (support/child_process.hpp) in a temp directory per test, campaign files written from text, and
// the run directory read back.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "servebench/campaign/process_table.hpp"
#include "servebench/results/ledger.hpp"
#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "support/child_process.hpp"
#include "support/wait_for.hpp"

namespace servebench::e2e {

using testing::ChildProcess;
using testing::Finished;
using testing::run_servebench;
using testing::wait_until;

// `servebench <args...>` running in `dir` (stdout → dir/<log>.out, stderr → dir/<log>.err).
inline ChildProcess start_in(const std::vector<std::string>& args, const std::filesystem::path& dir,
                             const std::string& log) {
  return ChildProcess(testing::servebench_argv(args), {dir, dir / (log + ".out"), dir / (log + ".err")});
}

inline std::filesystem::path campaign_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("campaign_e2e_" + std::to_string(getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Whether a process is alive; a zombie is not (it has exited and waits for its parent to reap it).
inline bool process_alive(pid_t pid) {
  const auto s = campaign::read_proc_stat(pid);
  return s && s->state != 'Z';
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  ASSERT_TRUE(util::write_file_atomic(path, text));
}

inline results::Ledger read_run_ledger(const std::filesystem::path& run_dir) {
  auto ledger = results::read_ledger(run_dir / "ledger.jsonl");
  EXPECT_TRUE(ledger.has_value());
  return ledger ? std::move(*ledger) : results::Ledger{};
}

// The latest record of every point of a ledger, by point id ("arm/scenario/c4").
inline std::map<std::string, results::PointRecord> points_by_id(const results::Ledger& ledger) {
  std::map<std::string, results::PointRecord> out;
  for (const auto& r : ledger.latest()) out[results::point_id(results::key_of(r))] = r;
  return out;
}

inline boost::json::object read_json_file(const std::filesystem::path& path) {
  auto text = util::read_file(path);
  EXPECT_TRUE(text.has_value()) << path;
  auto v = util::parse_json(text.value_or("{}"), path.string());
  EXPECT_TRUE(v && v->is_object()) << path;
  return v && v->is_object() ? v->get_object() : boost::json::object{};
}

// A sim launch line for campaign files: Llama 3.1 8B on one H200, fast time scale, oracle on.
inline std::string sim_launch(const std::string& extra = "", double time_scale = 0.05) {
  return "servebench serve-sim --hw h200 --model llama-3.1-8b --port {port} --sim-oracle --sim-time-scale " +
         std::to_string(time_scale) + (extra.empty() ? "" : " " + extra);
}

}  // namespace servebench::e2e
