#include "servebench/results/ledger.hpp"

#include <fstream>
#include <map>

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/redact.hpp"
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

// Parses ledger lines one by one into a Ledger, reusing one JSON parser; each parsed line lives in
// a stack arena only until its record is built (a large ledger has millions of JSON nodes).
class LineParser {
 public:
  // Parses one line into `out`; a point record is appended to out.records and also returned.
  PointRecord* parse(std::string_view line, std::size_t number, bool is_torn_tail, Ledger& out) {
    if (number == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);  // a UTF-8 BOM from an editor
    unsigned char arena[16384];
    boost::json::monotonic_resource mr(arena, sizeof arena);
    m_parser.reset(&mr);
    boost::system::error_code ec;
    m_parser.write(line.data(), line.size(), ec);
    const boost::json::value v = ec ? boost::json::value() : m_parser.release();
    if (ec || !v.is_object()) {
      const char* what = is_torn_tail ? "torn last line (likely a crash mid-write), ignored" : "not a JSON object, skipped";
      out.issues.push_back({number, fmt::format("line {}: {}", number, what)});
      return nullptr;
    }
    const auto& o = v.get_object();
    const auto schema = util::json_string(o, "schema");
    if (schema && *schema != k_point_schema && !schema->starts_with("servebench.point/")) {
      out.others.emplace_back(o, boost::json::storage_ptr());  // a copy that outlives the arena
      return nullptr;
    }
    auto r = from_json(o);
    if (!r) {
      out.issues.push_back({number, fmt::format("line {}: {}, skipped", number, r.error().message)});
      return nullptr;
    }
    out.records.push_back(std::move(*r));
    return &out.records.back();
  }

 private:
  boost::json::parser m_parser;
};

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
  LineParser parser;
  const auto lines = util::split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = util::trim(lines[i]);
    if (line.empty()) continue;
    const bool is_torn_tail = i + 1 == lines.size();  // the text did not end with '\n'
    parser.parse(line, i + 1, is_torn_tail, out);
  }
  return out;
}

util::Result<Ledger> read_ledger(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return Ledger{};
  auto text = util::read_file(path);
  if (!text) return std::unexpected(text.error());
  return parse_ledger(*text);
}

util::Result<Ledger> read_latest(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) return Ledger{};
  if (!std::filesystem::is_regular_file(path)) {  // /dev/zero would be one endless line
    return util::failf(util::ErrorKind::bad_input, "cannot read {}: not a regular file", path.string());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return util::failf(util::ErrorKind::io, "cannot open {}", path.string());
  Ledger out;
  LineParser parser;
  std::map<PointKey, std::size_t> slot;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string_view trimmed = util::trim(line);
    if (trimmed.empty()) continue;
    const bool is_torn_tail = in.eof();  // getline met the end of the file before a '\n'
    PointRecord* r = parser.parse(trimmed, number, is_torn_tail, out);
    if (r == nullptr) continue;
    const auto [it, inserted] = slot.try_emplace(key_of(*r), out.records.size() - 1);
    if (!inserted) {  // a later record of a point already seen replaces it in place
      out.records[it->second] = std::move(*r);
      out.records.pop_back();
    }
  }
  if (in.bad()) return util::failf(util::ErrorKind::io, "cannot read {}", path.string());
  return out;
}

util::Result<void> append_object(const std::filesystem::path& path, const boost::json::object& o) {
  std::string line;
  if (ends_without_newline(path)) line.push_back('\n');
  boost::json::value v = o;
  util::redact_json(v);  // reasons quote servers and logs
  util::append_json_text(line, v);
  line.push_back('\n');
  return util::append_durable(path, line);
}

util::Result<void> append_point(const std::filesystem::path& path, const PointRecord& r) {
  return append_object(path, to_json(r));
}

}  // namespace servebench::results
