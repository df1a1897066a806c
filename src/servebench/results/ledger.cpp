#include "servebench/results/ledger.hpp"

#include <fstream>
#include <map>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::results {
namespace {

bool ends_without_newline(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return false;
  in.seekg(-1, std::ios::end);
  char last = 0;
  in.get(last);
  return last != '\n';
}

void parse_line(std::string_view line, std::size_t number, bool is_torn_tail, Ledger& out) {
  boost::system::error_code ec;
  const boost::json::value v = boost::json::parse(boost::json::string_view(line.data(), line.size()), ec);
  if (ec || !v.is_object()) {
    const char* what = is_torn_tail ? "torn last line (likely a crash mid-write), ignored" : "not a JSON object, skipped";
    out.issues.push_back({number, fmt::format("line {}: {}", number, what)});
    return;
  }
  const auto& o = v.get_object();
  const auto schema = util::json_string(o, "schema");
  if (schema && *schema != k_point_schema && !schema->starts_with("servebench.point/")) {
    out.others.push_back(o);
    return;
  }
  auto r = from_json(o);
  if (!r) {
    out.issues.push_back({number, fmt::format("line {}: {}, skipped", number, r.error().message)});
    return;
  }
  out.records.push_back(std::move(*r));
}

}  // namespace

std::vector<PointRecord> Ledger::latest() const {
  std::map<PointKey, std::size_t> slot;
  std::vector<PointRecord> out;
  for (const auto& r : records) {
    const auto [it, inserted] = slot.try_emplace(key_of(r), out.size());
    if (inserted) {
      out.push_back(r);
    } else {
      out[it->second] = r;
    }
  }
  return out;
}

Ledger parse_ledger(std::string_view text) {
  Ledger out;
  const auto lines = util::split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = util::trim(lines[i]);
    if (line.empty()) continue;
    const bool is_torn_tail = i + 1 == lines.size();  // the text did not end with '\n'
    parse_line(line, i + 1, is_torn_tail, out);
  }
  return out;
}

util::Result<Ledger> read_ledger(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return Ledger{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  return parse_ledger(*text);
}

util::Result<void> append_object(const std::filesystem::path& path, const boost::json::object& o) {
  std::string line;
  if (ends_without_newline(path)) line.push_back('\n');
  util::append_json_text(line, o);
  line.push_back('\n');
  return util::append_durable(path, line);
}

util::Result<void> append_point(const std::filesystem::path& path, const PointRecord& r) {
  return append_object(path, to_json(r));
}

}  // namespace servebench::results
