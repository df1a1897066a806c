#include "servebench/load/vocabulary.hpp"

#include <algorithm>

namespace servebench::load {

util::Result<Vocabulary> Vocabulary::make(std::int32_t size, std::vector<std::int32_t> excluded) {
  if (size <= 0) return util::failf(util::ErrorKind::bad_input, "vocabulary size {} is not positive", size);
  std::sort(excluded.begin(), excluded.end());
  Vocabulary v;
  v.m_size = size;
  v.m_ordinary.reserve(static_cast<std::size_t>(size));
  auto next_excluded = excluded.begin();
  for (std::int32_t id = 0; id < size; ++id) {
    while (next_excluded != excluded.end() && *next_excluded < id) ++next_excluded;
    if (next_excluded != excluded.end() && *next_excluded == id) continue;
    v.m_ordinary.push_back(id);
  }
  if (v.m_ordinary.empty()) {
    return util::failf(util::ErrorKind::bad_input, "vocabulary of {} ids has no ordinary token", size);
  }
  return v;
}

std::int32_t Vocabulary::draw(std::mt19937_64& rng) const {
  std::uniform_int_distribution<std::size_t> pick(0, m_ordinary.size() - 1);
  return m_ordinary[pick(rng)];
}

}  // namespace servebench::load
