#pragma once
// The requests in flight of one engine, by engine request id: an open-addressing index from the id
// to a slot of the driver's pool (virtual_load.cpp). Internal to `plan`.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "servebench/sim/request.hpp"

namespace servebench::plan {

// Engine request id -> index of its Live in the pool: open addressing with linear probing on the id's
// low bits (ids are handed out in sequence, so the ids in flight rarely collide), backward-shift
// deletion. Id 0 (never an engine id) marks an empty cell.
class LiveIndex {
 public:
  static constexpr std::uint32_t k_none = ~0u;

  std::uint32_t find(sim::RequestId id) const {
    if (m_cells.empty()) return k_none;
    for (std::size_t i = id & m_mask;; i = (i + 1) & m_mask) {
      if (m_cells[i].id == id) return m_cells[i].value;
      if (m_cells[i].id == 0) return k_none;
    }
  }
  void insert(sim::RequestId id, std::uint32_t value) {
    if ((m_size + 1) * 2 > m_cells.size()) grow();
    std::size_t i = id & m_mask;
    while (m_cells[i].id != 0) i = (i + 1) & m_mask;
    m_cells[i] = {id, value};
    ++m_size;
  }
  void erase(sim::RequestId id) {
    std::size_t i = id & m_mask;
    while (m_cells[i].id != id) i = (i + 1) & m_mask;
    // Move later cells of the probe run back into the hole when their home is at or before it.
    for (std::size_t j = (i + 1) & m_mask; m_cells[j].id != 0; j = (j + 1) & m_mask) {
      const std::size_t home = m_cells[j].id & m_mask;
      if (((j - home) & m_mask) >= ((j - i) & m_mask)) {
        m_cells[i] = m_cells[j];
        i = j;
      }
    }
    m_cells[i] = {};
    --m_size;
  }

 private:
  struct Cell {
    sim::RequestId id = 0;
    std::uint32_t value = 0;
  };
  void grow() {
    std::vector<Cell> old = std::move(m_cells);
    m_cells.assign(std::max<std::size_t>(64, old.size() * 2), Cell{});
    m_mask = m_cells.size() - 1;
    m_size = 0;
    for (const Cell& c : old) {
      if (c.id != 0) insert(c.id, c.value);
    }
  }
  std::vector<Cell> m_cells;
  std::size_t m_mask = 0, m_size = 0;
};

}  // namespace servebench::plan
