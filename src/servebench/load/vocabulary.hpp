#pragma once
// The server's vocabulary as seen by the prompt generator: ids [0, size) minus special tokens.
// Token-id prompts draw only from the ordinary ids, so a prompt never contains a BOS/EOS/control
// token that would change what the server does with it.
#include <cstdint>
#include <random>
#include <vector>

#include "servebench/util/result.hpp"

namespace servebench::load {

class Vocabulary {
 public:
  // Fails (bad_input) when size is not positive, or when every id is excluded.
  static util::Result<Vocabulary> make(std::int32_t size, std::vector<std::int32_t> excluded);

  std::int32_t size() const { return m_size; }
  // Number of ordinary ids (size minus the distinct excluded ids inside [0, size)).
  std::int32_t ordinary_count() const { return static_cast<std::int32_t>(m_ordinary.size()); }
  // The k-th ordinary id, k in [0, ordinary_count()).
  std::int32_t ordinary(std::int32_t k) const { return m_ordinary[static_cast<std::size_t>(k)]; }
  // A uniformly random ordinary id.
  std::int32_t draw(std::mt19937_64& rng) const;

 private:
  std::int32_t m_size = 0;
  std::vector<std::int32_t> m_ordinary;
};

}  // namespace servebench::load
