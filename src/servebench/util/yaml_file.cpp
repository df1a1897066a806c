#include "servebench/util/yaml_file.hpp"

#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::util {
namespace {

std::string mark_where(const std::string& file, const YAML::Mark& m) {
  if (m.line < 0) return file;
  return fmt::format("{}:{}:{}", file, m.line + 1, m.column + 1);
}

std::string describe(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Scalar: return fmt::format("'{}'", n.Scalar());
    default: return "an undefined value";
  }
}

// The deepest nesting a servebench file may have; none needs more than a dozen levels.
constexpr int k_max_yaml_depth = 256;

// yaml-cpp keeps every entry of a mapping but a lookup sees only the first, so a repeated key
// would be silently ignored. The walk is bounded: aliases can make a small file a huge tree
// (`budget`, nodes), and nesting — deep, or an alias inside its own anchor — is an error beyond
// k_max_yaml_depth levels instead of a recursion that overflows the stack (found by fuzzing).
Result<void> check_unique_keys(const std::string& file, const YAML::Node& node, std::size_t& budget, int depth = 0) {
  if (budget == 0) return {};
  --budget;
  if (depth > k_max_yaml_depth) {
    return fail(ErrorKind::bad_input,
                fmt::format("{}: nested deeper than {} levels (or an alias used inside its own anchor)",
                            mark_where(file, node.Mark()), k_max_yaml_depth));
  }
  if (node.IsSequence()) {
    for (const auto& item : node) {
      if (auto ok = check_unique_keys(file, item, budget, depth + 1); !ok) return ok;
    }
  }
  if (!node.IsMap()) return {};
  std::vector<std::pair<std::string, YAML::Mark>> seen;
  for (const auto& entry : node) {
    if (entry.first.IsScalar()) {
      const std::string& key = entry.first.Scalar();
      for (const auto& [earlier, mark] : seen) {
        if (earlier != key) continue;
        return fail(ErrorKind::bad_input, fmt::format("{}: duplicate key '{}' (first at line {}, column {})",
                                                      mark_where(file, entry.first.Mark()), key, mark.line + 1,
                                                      mark.column + 1));
      }
      seen.emplace_back(key, entry.first.Mark());
    }
    if (auto ok = check_unique_keys(file, entry.second, budget, depth + 1); !ok) return ok;
  }
  return {};
}

}  // namespace

Result<YamlDoc> load_yaml_string(const std::string& text, const std::string& name) {
  try {
    YamlDoc doc{name, YAML::Load(text)};
    std::size_t budget = 1'000'000;  // nodes checked
    if (auto ok = check_unique_keys(name, doc.root, budget); !ok) return std::unexpected(ok.error());
    return doc;
  } catch (const YAML::Exception& e) {
    return fail(ErrorKind::bad_input, fmt::format("{}: {}", mark_where(name, e.mark), e.msg));
  }
}

Result<YamlDoc> load_yaml_file(const std::string& path) {
  auto text = read_file(path);
  if (!text) return fail(ErrorKind::bad_input, text.error().message);
  return load_yaml_string(*text, path);
}

std::string yaml_where(const std::string& file, const YAML::Node& node) {
  if (!node.IsDefined()) return file;
  return mark_where(file, node.Mark());
}

Error yaml_error(const std::string& file, const YAML::Node& node, std::string_view message) {
  return Error{ErrorKind::bad_input, fmt::format("{}: {}", yaml_where(file, node), message)};
}

Result<YAML::Node> yaml_top_list(const YamlDoc& doc, const std::string& key) {
  // (A const node's missing key is an invalid node, which throws when asked its type: IsDefined first.)
  const YAML::Node list = doc.root.IsMap() ? doc.root[key] : YAML::Node();
  if (!list.IsDefined() || !list.IsSequence()) return std::unexpected(yaml_error(doc.file, doc.root, fmt::format("needs a '{}' list", key)));
  return list;
}

Result<std::string> yaml_string(const std::string& file, const YAML::Node& n, std::string_view what) {
  if (!n.IsScalar()) return std::unexpected(yaml_error(file, n, fmt::format("{} must be a string, got {}", what, describe(n))));
  return n.Scalar();
}

Result<std::int64_t> yaml_int(const std::string& file, const YAML::Node& n, std::string_view what) {
  if (n.IsScalar()) {
    if (auto v = parse_int(n.Scalar(), what)) return *v;
  }
  return std::unexpected(yaml_error(file, n, fmt::format("{} must be an integer, got {}", what, describe(n))));
}

Result<double> yaml_double(const std::string& file, const YAML::Node& n, std::string_view what) {
  if (n.IsScalar()) {
    if (auto v = parse_double(n.Scalar(), what)) return *v;
  }
  return std::unexpected(yaml_error(file, n, fmt::format("{} must be a number, got {}", what, describe(n))));
}

Result<bool> yaml_bool(const std::string& file, const YAML::Node& n, std::string_view what) {
  if (n.IsScalar()) {
    if (auto v = parse_bool(n.Scalar(), what)) return *v;
  }
  return std::unexpected(yaml_error(file, n, fmt::format("{} must be true or false, got {}", what, describe(n))));
}

YamlMap::YamlMap(std::string file, YAML::Node node, std::string what)
    : m_file(std::move(file)), m_node(node), m_what(std::move(what)) {}

Result<YamlMap> YamlMap::of(const std::string& file, const YAML::Node& node, std::string what) {
  if (!node.IsMap()) {
    return std::unexpected(yaml_error(file, node, fmt::format("{} must be a mapping, got {}", what, describe(node))));
  }
  return YamlMap(file, node, std::move(what));
}

bool YamlMap::has(const std::string& key) const {
  m_known.insert(key);
  const YAML::Node n = m_node[key];
  return n.IsDefined() && !n.IsNull();
}

YAML::Node YamlMap::node(const std::string& key) {
  m_known.insert(key);
  return m_node[key];
}

Error YamlMap::type_error(const YAML::Node& n, const std::string& key, std::string_view expected) const {
  return yaml_error(m_file, n, fmt::format("{}.{} must be {}, got {}", m_what, key, expected, describe(n)));
}

Result<std::string> YamlMap::required_string(const std::string& key) {
  if (!has(key)) return std::unexpected(yaml_error(m_file, m_node, fmt::format("{} needs '{}'", m_what, key)));
  auto v = optional_string(key);
  if (!v) return std::unexpected(v.error());
  return **v;
}

Result<std::int64_t> YamlMap::required_int(const std::string& key) {
  if (!has(key)) return std::unexpected(yaml_error(m_file, m_node, fmt::format("{} needs '{}'", m_what, key)));
  auto v = optional_int(key);
  if (!v) return std::unexpected(v.error());
  return **v;
}

Result<double> YamlMap::required_double(const std::string& key) {
  if (!has(key)) return std::unexpected(yaml_error(m_file, m_node, fmt::format("{} needs '{}'", m_what, key)));
  auto v = optional_double(key);
  if (!v) return std::unexpected(v.error());
  return **v;
}

Result<std::optional<std::string>> YamlMap::optional_string(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const YAML::Node n = node(key);
  if (!n.IsScalar()) return std::unexpected(type_error(n, key, "a string"));
  return n.Scalar();
}

Result<std::optional<std::int64_t>> YamlMap::optional_int(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const YAML::Node n = node(key);
  if (n.IsScalar()) {
    if (auto v = parse_int(n.Scalar(), key)) return *v;
  }
  return std::unexpected(type_error(n, key, "an integer"));
}

Result<std::optional<double>> YamlMap::optional_double(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const YAML::Node n = node(key);
  if (n.IsScalar()) {
    if (auto v = parse_double(n.Scalar(), key)) return *v;
  }
  return std::unexpected(type_error(n, key, "a number"));
}

Result<std::optional<bool>> YamlMap::optional_bool(const std::string& key) {
  if (!has(key)) return std::nullopt;
  const YAML::Node n = node(key);
  if (n.IsScalar()) {
    if (auto v = parse_bool(n.Scalar(), key)) return *v;
  }
  return std::unexpected(type_error(n, key, "true or false"));
}

Result<std::vector<std::int64_t>> YamlMap::int_list(const std::string& key) {
  std::vector<std::int64_t> out;
  if (!has(key)) return out;
  const YAML::Node n = node(key);
  if (n.IsScalar()) {
    auto v = yaml_int(m_file, n, fmt::format("{}.{}", m_what, key));
    if (!v) return std::unexpected(v.error());
    out.push_back(*v);
    return out;
  }
  if (!n.IsSequence()) return std::unexpected(type_error(n, key, "a list of integers"));
  for (const auto& item : n) {
    auto v = yaml_int(m_file, item, fmt::format("{}.{} item", m_what, key));
    if (!v) return std::unexpected(v.error());
    out.push_back(*v);
  }
  return out;
}

Result<std::vector<std::string>> YamlMap::string_list(const std::string& key) {
  std::vector<std::string> out;
  if (!has(key)) return out;
  const YAML::Node n = node(key);
  if (!n.IsSequence()) return std::unexpected(type_error(n, key, "a list of strings"));
  for (const auto& item : n) {
    auto v = yaml_string(m_file, item, fmt::format("{}.{} item", m_what, key));
    if (!v) return std::unexpected(v.error());
    out.push_back(*v);
  }
  return out;
}

Result<void> YamlMap::finish() const {
  for (const auto& kv : m_node) {
    const std::string key = kv.first.Scalar();
    if (m_known.count(key) != 0) continue;
    std::vector<std::string> allowed(m_known.begin(), m_known.end());
    return std::unexpected(yaml_error(m_file, kv.first,
                                      fmt::format("unknown key '{}' in {}; expected one of: {}", key, m_what,
                                                  join(allowed, ", "))));
  }
  return {};
}

}  // namespace servebench::util
