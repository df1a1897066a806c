#include "servebench/campaign/gsm8k.hpp"

#include <boost/json.hpp>
#include <fmt/format.h>

#include "servebench/util/file_io.hpp"
#include "servebench/util/json_text.hpp"
#include "servebench/util/strings.hpp"

namespace servebench::campaign {

std::optional<std::int64_t> gsm8k_final_answer(std::string_view answer) {
  const auto mark = answer.rfind("####");
  if (mark == std::string_view::npos) return std::nullopt;
  std::string digits;
  for (const char c : util::trim(answer.substr(mark + 4))) {
    if (c == ',') continue;  // "1,234"
    digits += c;
  }
  if (digits.empty()) return std::nullopt;
  auto v = util::parse_int(digits, "gsm8k answer");
  return v ? std::optional<std::int64_t>(*v) : std::nullopt;
}

util::Result<std::vector<WordProblem>> load_gsm8k(const std::filesystem::path& file, std::size_t count) {
  auto text = util::read_file(file);
  if (!text) return util::failf(util::ErrorKind::bad_input, "gate.dataset: {}", text.error().message);
  std::vector<WordProblem> out;
  std::size_t line_no = 0;
  for (const auto line : util::split(*text, '\n')) {
    ++line_no;
    if (out.size() == count) break;
    if (util::trim(line).empty()) continue;
    const std::string where = fmt::format("{}:{}", file.string(), line_no);
    auto v = util::parse_json(line, where);
    const auto* o = v ? v->if_object() : nullptr;
    const auto question = o ? util::json_string(*o, "question") : std::nullopt;
    const auto answer = o ? util::json_string(*o, "answer") : std::nullopt;
    if (!question || !answer) {
      return util::failf(util::ErrorKind::bad_input, "{}: a GSM8K line is a JSON object with string \"question\" and "
                                                     "\"answer\"", where);
    }
    const auto n = gsm8k_final_answer(*answer);
    if (!n) return util::failf(util::ErrorKind::bad_input, "{}: the answer does not end in \"#### <integer>\"", where);
    out.push_back({*question, *n});
  }
  if (out.size() < count) {
    return util::failf(util::ErrorKind::bad_input, "gate.dataset {} has {} problems; gate.problems asks for {}",
                       file.string(), out.size(), count);
  }
  return out;
}

}  // namespace servebench::campaign
