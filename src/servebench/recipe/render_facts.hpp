#pragma once
// How the cookbook page writes commands, per engine and per GPU vendor, as data
// (data/recipe_engines.yaml): the serve command, the multi-node flags and where they go, the
// multi-node header, the PD ports, and the Docker command's fixed lines.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "servebench/flags/flag_registry.hpp"
#include "servebench/util/result.hpp"

namespace servebench::recipe {

struct MultiNodeFacts {
  // The node flags go right after the last flag of one of these families, else after the first
  // flag of one of `otherwise_after`, else at the end.
  std::vector<std::string> after_last, otherwise_after;
  std::vector<std::string> flags;   // {{NNODES}} is the node count; other {{KEYS}} are placeholders
  std::vector<std::string> header;  // comment lines (without "# "); {{NNODES}} and {{LAST_NODE_RANK}}
};

struct EngineRendering {
  flags::Dialect engine = flags::Dialect::sglang;
  std::string command;          // program words of the Python tab, e.g. "sglang serve"
  std::string docker_image;     // when the catalog names none
  std::string docker_command;   // after the image; "" when the image's entrypoint serves
  MultiNodeFacts multi_node;
  std::string port_flag = "--port";
  std::string default_port;     // published when the command has no port flag
  std::vector<std::pair<std::string, std::string>> pd_ports;  // role → port
};

struct VendorDocker {
  std::string vendor;              // nvidia | amd | npu
  std::vector<std::string> lines;  // the first lines of `docker run`, one option per line
  bool hf_cache = true;            // mount the Hugging Face cache
};

struct RenderFacts {
  std::vector<EngineRendering> engines;
  std::vector<VendorDocker> vendors;
  // Extra docker lines for multi-node and PD commands, by vendor or hardware name.
  std::vector<std::pair<std::string, std::vector<std::string>>> fabric;
  std::string hf_cache_mount;
  const EngineRendering* engine(flags::Dialect d) const;  // nullptr when the file has none
  const VendorDocker* vendor(std::string_view name) const;
  const std::vector<std::string>* fabric_for(std::string_view key) const;
};

// Parses data/recipe_engines.yaml text; errors name file:line:col (bad_input).
util::Result<RenderFacts> parse_render_facts(const std::string& yaml_text, const std::string& file);
// The embedded file (or $SERVEBENCH_DATA_DIR's).
util::Result<RenderFacts> load_render_facts();

}  // namespace servebench::recipe
