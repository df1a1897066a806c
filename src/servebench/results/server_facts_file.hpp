#pragma once
// arms/<arm>/server_facts.json (servebench.server_facts/1, docs/formats.md): what the server said
// about itself when the arm became ready, how it was launched (command, env, fingerprint), the
// recipe it came from, and the simulator's `sim` block. The campaign writes it; the report, the
// recipe evidence and dry runs read it — all through this one reader and writer.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "servebench/util/result.hpp"
#include "servebench/wire/server_facts.hpp"

namespace servebench::results {

inline constexpr std::string_view k_server_facts_schema = "servebench.server_facts/1";

struct RecipeOrigin {
  std::string catalog, select;  // the catalog name and the selection that rendered the launch
};

// One part of a prefill/decode-disaggregated arm ("prefill", "decode", "router"): how it was launched
// and what it said about itself (docs/formats.md "server_facts.json").
struct PartFacts {
  std::string part;
  std::string launch, launched, base_url;
  std::optional<wire::ServerFacts> facts;  // nullopt: could not be read (facts_error says why)
  std::string facts_error;
  boost::json::value raw = boost::json::object{};
};

struct ServerFactsFile {
  std::string arm, engine;
  std::optional<std::int64_t> gpus;
  std::string launch;    // the launch command as the campaign file gives it ("" when attached)
  std::string launched;  // the command actually run (program resolved, port filled in)
  std::vector<std::pair<std::string, std::string>> env;  // behavioural environment, in order
  std::string fingerprint, base_url, captured_at;
  std::optional<RecipeOrigin> recipe;
  // What the engine said; nullopt when its facts could not be read (facts_error says why).
  std::optional<wire::ServerFacts> facts;
  std::string facts_error;
  boost::json::value raw = boost::json::object{};  // {"<route>": <body>, ...} as read
  // A disaggregated arm: each part in launch order (the arm's own facts are the router's); empty otherwise.
  std::vector<PartFacts> parts;
};

boost::json::object to_json(const ServerFactsFile& f);
// Fails (bad_input, naming `what`) when the text is not a JSON object; absent keys stay empty.
util::Result<ServerFactsFile> parse_server_facts(std::string_view text, const std::string& what);
// The file at `path`; nullopt when it does not exist. Fails when it exists but cannot be read or parsed.
util::Result<std::optional<ServerFactsFile>> read_server_facts(const std::filesystem::path& path);
// Writes the file atomically, creating its directory.
util::Result<void> write_server_facts(const std::filesystem::path& path, const ServerFactsFile& f);

}  // namespace servebench::results
