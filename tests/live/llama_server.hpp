#pragma once
// A real llama.cpp llama-server for the live tests (ctest label `live`). They run when
// SERVEBENCH_LLAMA_SERVER names the llama-server binary and SERVEBENCH_LLAMA_MODEL a GGUF model
// (scripts/live-llama-server builds both; docs/engines.md), and skip with the reason otherwise.
// Each server runs on a free loopback port in its own directory and is killed with its test.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "e2e/bench_process.hpp"
#include "servebench/http/blocking_client.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"
#include "servebench/wire/prometheus.hpp"
#include "support/wait_for.hpp"

namespace servebench::live {

using e2e::ChildProcess;
using e2e::Finished;
namespace json = boost::json;

struct LiveEnv {
  std::string server, model, why_not;
};

inline LiveEnv live_env() {
  LiveEnv e;
  const char* server = std::getenv("SERVEBENCH_LLAMA_SERVER");
  const char* model = std::getenv("SERVEBENCH_LLAMA_MODEL");
  if (server == nullptr || *server == '\0') {
    e.why_not = "skipped: SERVEBENCH_LLAMA_SERVER is not set (the path of a llama-server binary; "
                "scripts/live-llama-server builds one)";
  } else if (!std::filesystem::is_regular_file(server)) {
    e.why_not = std::string("skipped: SERVEBENCH_LLAMA_SERVER=") + server + " is not a file";
  } else if (model == nullptr || *model == '\0') {
    e.why_not = "skipped: SERVEBENCH_LLAMA_MODEL is not set (the path of a GGUF model; scripts/live-llama-server)";
  } else if (!std::filesystem::is_regular_file(model)) {
    e.why_not = std::string("skipped: SERVEBENCH_LLAMA_MODEL=") + model + " is not a file";
  } else {
    e.server = server;
    e.model = model;
  }
  return e;
}

#define SKIP_UNLESS_LIVE(env)                        \
  const LiveEnv env = live_env();                    \
  if (!env.why_not.empty()) GTEST_SKIP() << env.why_not

// A free loopback port (llama-server needs a number; the race with another binder is remote).
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t n = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  ::close(fd);
  return ntohs(a.sin_port);
}

// The launch flags every live server gets: metrics for the counters, a slot save path so slots
// can be erased (flush), no host-memory prompt cache (cold runs), `slots` slots of 1,024 tokens
// each (-c is the whole KV pool, divided among the slots), one thread (two cores are shared).
// `slots` 0 leaves -np out: llama-server's default, 4 slots sharing a unified cache of -c 4096.
inline constexpr int k_auto_slots = 0;
inline std::string server_flags(const LiveEnv& env, const std::filesystem::path& dir, int slots,
                                const std::string& extra = "") {
  const std::string np = slots == k_auto_slots ? "" : fmt::format("-np {} ", slots);
  return fmt::format("-m {} --host 127.0.0.1 {}-c {} -t 1 --metrics --slot-save-path {} --cache-ram 0{}{}", env.model,
                     np, slots == k_auto_slots ? 4096 : 1024 * slots, dir.string(), extra.empty() ? "" : " ", extra);
}

struct LlamaServer {
  std::filesystem::path dir;
  int port = free_port();
  std::string url = "http://127.0.0.1:" + std::to_string(port);
  ChildProcess child;

  LlamaServer(const LiveEnv& env, const std::string& name, int slots = 4, const std::string& extra = "")
      : dir(e2e::bench_temp_dir("live_" + name)),
        child(util::shell_split(env.server + " " + server_flags(env, dir, slots, extra) + " --port " +
                                std::to_string(port))
                  .value_or(std::vector<std::string>{}),
              {{}, dir / "server_stdout.txt", dir / "server_stderr.txt"}) {}

  // True once /health answers 200 (the model is loaded), within two minutes.
  bool ready() const {
    auto client = http::BlockingClient::create(url);
    if (!client) return false;
    return testing::wait_until(
        [&] {
          auto r = (*client)->send({http::Method::get, "/health", "", "application/json", {}}, std::chrono::seconds(2));
          return r && r->status == 200;
        },
        std::chrono::minutes(2), std::chrono::milliseconds(100));
  }
  Finished bench(const std::vector<std::string>& extra) const {
    std::vector<std::string> a{"bench", "--backend", "llamacpp", "--base-url", url, "--no-progress",
                               "--output-file", (dir / "out.jsonl").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return e2e::run_servebench(a, dir);
  }
  // The last result line of the last bench run.
  json::object result() const {
    const std::string text = util::read_file(dir / "out.jsonl").value_or("");  // the lines are views into it
    const auto lines = util::split(util::trim(text), '\n');
    auto v = util::parse_json(lines.back(), "out.jsonl");
    return v && v->is_object() ? v->as_object() : json::object{};
  }
  std::vector<wire::Sample> metrics() const {
    auto client = http::BlockingClient::create(url);
    if (!client) return {};
    auto r = (*client)->send({http::Method::get, "/metrics", "", "text/plain", {}}, std::chrono::seconds(10));
    return r && r->status == 200 ? wire::parse_prometheus(r->body) : std::vector<wire::Sample>{};
  }
  std::string log() const { return util::read_file(dir / "server_stderr.txt").value_or(""); }
};

inline double num(const json::object& o, std::string_view key) { return util::json_number(o, key).value_or(-1); }

}  // namespace servebench::live
