// kill -9 of the campaign at random moments, then resume: every planned point ends with exactly
// one final record, no corpus window is ever sent twice, and no server outlives its campaign.
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "e2e/campaign_process.hpp"

namespace servebench::e2e {
namespace {

using results::PointStatus;

// ~9,000 words of varied text: enough windows for a full pass plus what kills waste.
std::string corpus_text() {
  const std::vector<std::string> words = {"river", "stone", "model", "cache", "token", "window", "garden", "signal",
                                          "harbor", "lantern", "copper", "meadow", "engine", "quiet", "orbit", "maple"};
  std::mt19937 rng(5);
  std::string text;
  for (int i = 0; i < 9000; ++i) {
    text += words[rng() % words.size()];
    text += (i % 13 == 12) ? ".\n" : " ";
  }
  return text;
}

bool process_alive(pid_t pid) { return kill(pid, 0) == 0; }

TEST(CampaignResume, KillNineAtRandomMomentsThenResumeRecordsEveryPointOnceAndNeverReusesAWindow) {
  const auto dir = campaign_temp_dir("kill9");
  write_text(dir / "corpus.txt", corpus_text());
  write_text(dir / "c.yaml", "name: kill9\n"
                             "protocol:\n"
                             "  num_prompts: \"max(2, c)\"\n"
                             "  warmup_requests: 1\n"
                             "  client_lag_limit: 1000\n"
                             "  prompts: {source: corpus, path: corpus.txt}\n"
                             "arms:\n"
                             "  - {name: a, engine: sim, gate: {problems: 2}, launch: \"" + sim_launch("", 1.0) + "\"}\n"
                             "  - {name: b, engine: sim, gate: {problems: 2}, launch: \"" + sim_launch("", 1.0) + "\"}\n"
                             "scenarios:\n"
                             "  - {name: s, isl: 128, osl: 48, concurrency: [1, 2, 3]}\n"
                             "  - {name: t, isl: 96, osl: 24, concurrency: [1, 4]}\n");
  const unsigned seed = std::random_device{}();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delay_ms(100, 1500), after_point_ms(0, 400);
  int kills = 0;
  std::set<pid_t> servers;
  std::set<std::size_t> recorded_at_kill;  // ledger sizes at the kills: the moments fell in different phases
  for (int round = 0; round < 12 && kills < 6; ++round) {
    // Even rounds: a random moment from the start (launch, gate, first point). Odd rounds: a random
    // moment after the next point is recorded, so kills also land between and inside later points.
    const std::size_t before = read_run_ledger(dir / "out").records.size();
    ChildProcess p = start_in({"campaign", "run", "c.yaml", "--out", "out"}, dir, "round" + std::to_string(round));
    if (round % 2 == 1) {
      wait_until([&] { return read_run_ledger(dir / "out").records.size() > before || p.wait_exit(std::chrono::milliseconds(0)); },
                 std::chrono::seconds(30));
    }
    const auto at = std::chrono::milliseconds(round % 2 == 1 ? after_point_ms(rng) : delay_ms(rng));
    if (p.wait_exit(at)) break;  // finished before the kill: nothing left to interrupt
    p.signal(SIGKILL);
    ASSERT_TRUE(p.wait_exit(std::chrono::seconds(10)).has_value());
    ++kills;
    recorded_at_kill.insert(read_run_ledger(dir / "out").records.size());
    if (auto pid = util::read_file(dir / "out/arms/a/server.pid")) servers.insert(std::stoi(*pid));
    if (auto pid = util::read_file(dir / "out/arms/b/server.pid")) servers.insert(std::stoi(*pid));
  }
  EXPECT_GE(kills, 5) << "seed " << seed;
  EXPECT_GE(recorded_at_kill.size(), 2u) << "every kill landed before the first point (seed " << seed << ")";
  const auto last = run_servebench({"campaign", "run", "c.yaml", "--out", "out"}, dir, std::chrono::seconds(120), "final");
  ASSERT_EQ(last.exit_code, 0) << "seed " << seed << "\n" << last.out << last.err;

  for (const pid_t pid : servers) {
    EXPECT_TRUE(wait_until([&] { return !process_alive(pid); }, std::chrono::seconds(10)))
        << "server " << pid << " outlived its campaign (seed " << seed << ")";
  }
  const auto ledger = read_run_ledger(dir / "out");
  std::map<std::string, int> ok_records;
  for (const auto& r : ledger.records) {
    if (r.status == PointStatus::ok) ++ok_records[results::point_id(results::key_of(r))];
  }
  const std::set<std::string> planned = {"a/s/c1", "a/s/c2", "a/s/c3", "a/t/c1", "a/t/c4",
                                         "b/s/c1", "b/s/c2", "b/s/c3", "b/t/c1", "b/t/c4"};
  std::set<std::string> latest;
  for (const auto& r : ledger.latest()) {
    latest.insert(results::point_id(results::key_of(r)));
    EXPECT_EQ(r.status, PointStatus::ok) << results::point_id(results::key_of(r)) << ": " << r.reason;
  }
  EXPECT_EQ(latest, planned) << "seed " << seed;
  for (const auto& id : planned) EXPECT_EQ(ok_records[id], 1) << id << " measured ok more than once (seed " << seed << ")";

  // Windows are reserved in ledger order: each reservation starts where the previous one ended.
  std::int64_t offset = 0;
  int reservations = 0;
  for (const auto& o : ledger.others) {
    if (util::json_string(o, "schema") != "servebench.cursor/1") continue;
    ++reservations;
    EXPECT_EQ(util::json_int(o, "from_offset"), offset) << "a window range was reserved twice (seed " << seed << ")";
    EXPECT_EQ(util::json_int(o, "passes"), 0) << "the corpus was not used up: nothing may be recycled";
    offset = util::json_int(o, "offset").value_or(-1);
  }
  EXPECT_GE(reservations, 10);
  for (const auto& r : ledger.latest()) EXPECT_FALSE(r.prompts.recycled);
}

}  // namespace
}  // namespace servebench::e2e
