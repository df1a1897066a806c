// docs/campaign-file.md documents every key the campaign reader accepts, and only those: for each
// section of the document, a campaign with an unknown key in that mapping makes the reader list
// the keys it accepts there, and the list must equal the document's table.
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "servebench/campaign/spec.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {
namespace {

using KeySets = std::map<std::string, std::set<std::string>>;

// "## `protocol.request`" opens a section; "| `api` | ..." rows name its keys.
KeySets documented_keys() {
  std::ifstream in(std::string(SERVEBENCH_SOURCE_DIR) + "/docs/campaign-file.md");
  EXPECT_TRUE(in.good()) << "docs/campaign-file.md is missing";
  const std::regex heading("^## `([a-z_.\\[\\]]+)`");
  const std::regex row("^\\| `([a-z_]+)` \\|");
  KeySets out;
  std::string section;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, heading)) section = m[1];
    else if (line.starts_with("## ")) section.clear();
    else if (!section.empty() && std::regex_search(line, m, row)) out[section].insert(m[1]);
  }
  return out;
}

// A valid campaign with every mapping present; `@name` marks where an unknown key goes.
constexpr std::string_view k_template = R"(name: k
model: m
protocol: {cold_cache: true, request: {api: completions @protocol.request}, prompts: {source: random-ids @protocol.prompts} @protocol}
arms:
  - {name: a, engine: sim, launch: "servebench serve-sim --port {port}", gate: {required: true @arms[].gate}, recipe: {catalog: c, select: "hw=x" @arms[].recipe}, in_service: {url: "http://127.0.0.1:1" @arms[].in_service} @arms[]}
scenarios:
  - {name: s, isl: 10, osl: 4, concurrency: [1] @scenarios[]}
baseline: {name: b, ledger: b.jsonl @baseline}
telemetry: {interval_s: 30 @telemetry}
assets: []
@campaign
)";

// The keys the reader accepts in `section`, from its unknown-key message.
std::set<std::string> accepted_keys(const std::string& section) {
  std::string yaml(k_template);
  const std::regex marker(" ?@[a-z_.\\[\\]]+");
  std::string out;
  std::sregex_iterator it(yaml.begin(), yaml.end(), marker), end;
  std::size_t last = 0;
  for (; it != end; ++it) {
    out += yaml.substr(last, static_cast<std::size_t>(it->position()) - last);
    const std::string name(util::trim(it->str()).substr(1));
    if (name == section) out += section == "campaign" ? "zz_unknown: 1" : ", zz_unknown: 1";
    last = static_cast<std::size_t>(it->position() + it->length());
  }
  out += yaml.substr(last);
  const auto spec = parse_campaign(out, "k.yaml", "/");
  EXPECT_FALSE(spec) << section << ": the unknown key was accepted";
  if (spec) return {};
  const std::string& message = spec.error().message;
  const auto at = message.find("expected one of: ");
  EXPECT_NE(at, std::string::npos) << message;
  std::set<std::string> keys;
  if (at == std::string::npos) return keys;
  for (auto k : util::split(std::string_view(message).substr(at + 17), ',')) keys.insert(std::string(util::trim(k)));
  return keys;
}

TEST(CampaignFileDoc, TheTemplateIsAValidCampaign) {
  std::string yaml(k_template);
  yaml = std::regex_replace(yaml, std::regex(" ?@[a-z_.\\[\\]]+"), "");
  const auto spec = parse_campaign(yaml, "k.yaml", "/");
  EXPECT_TRUE(spec) << spec.error().message;
}

TEST(CampaignFileDoc, EverySectionListsExactlyTheKeysTheReaderAccepts) {
  const KeySets documented = documented_keys();
  const std::vector<std::string> sections{"campaign",  "protocol", "protocol.request", "protocol.prompts",
                                          "arms[]",    "arms[].gate", "arms[].recipe", "arms[].in_service", "scenarios[]",
                                          "baseline",  "telemetry"};
  EXPECT_EQ(documented.size(), sections.size()) << "a section of docs/campaign-file.md is not checked here";
  for (const auto& section : sections) {
    const auto it = documented.find(section);
    ASSERT_NE(it, documented.end()) << "docs/campaign-file.md has no section `" << section << "`";
    EXPECT_EQ(it->second, accepted_keys(section)) << "section `" << section << "`";
  }
}

}  // namespace
}  // namespace servebench::campaign
