#pragma once
// A `servebench serve-sim` child process on an ephemeral port, and `bench` runs against it with
// the client-health gate as shipped (not relaxed): for the tests of the gate itself.
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "e2e/bench_process.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::e2e {

struct SimChild {
  std::filesystem::path dir;
  ChildProcess child;
  std::string url;

  SimChild(const std::string& name, const std::vector<std::string>& args)
      : dir(bench_temp_dir(name)),
        child(testing::servebench_argv(with_port(args)), {{}, dir / "sim_stdout.txt", dir / "sim_stderr.txt"}) {
    url = child.wait_for_line("servebench serve-sim listening on ", std::chrono::seconds(60)).value_or("");
    EXPECT_FALSE(url.empty()) << child.stderr_text();
  }
  static std::vector<std::string> with_port(std::vector<std::string> args) {
    args.insert(args.begin(), "serve-sim");
    args.insert(args.end(), {"--port", "0", "--log-level", "warning"});
    return args;
  }
  // `bench` with the gate's defaults; the result line goes to out.jsonl (one line per run).
  Finished bench(const std::vector<std::string>& extra) const {
    std::vector<std::string> a{"bench", "--base-url", url, "--no-progress", "--output-file", (dir / "out.jsonl").string()};
    a.insert(a.end(), extra.begin(), extra.end());
    return run_servebench(a, dir);
  }
  boost::json::object last_result() const {
    const std::string text = util::read_file(dir / "out.jsonl").value_or("");
    const auto lines = util::split(util::trim(text), '\n');
    auto v = util::parse_json(lines.back(), "out.jsonl");
    return v && v->is_object() ? v->as_object() : boost::json::object{};
  }
};

inline double number_of(const boost::json::object& o, std::string_view key) {
  return util::json_number(o, key).value_or(-1);
}

}  // namespace servebench::e2e
