#pragma once
// Counts the heap allocations of a test binary, so a test can check that a hot path allocates
// nothing: include this header in exactly one source file of the binary (it defines the global
// allocation functions) and read servebench::testing::allocations() around the code under test.
// Every replaceable non-aligned form is replaced, plain, array and nothrow, so that whatever
// allocates through one form and frees through another (std::stable_sort's temporary buffer is
// nothrow new freed by plain delete) stays with malloc/free; the aligned forms keep the library's
// (or a sanitizer's) own pair and are not counted.
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace servebench::testing {
inline std::atomic<long> g_allocations{0};
inline long allocations() { return g_allocations.load(std::memory_order_relaxed); }
inline void* counted_malloc(std::size_t n) noexcept {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace servebench::testing

void* operator new(std::size_t n) {
  if (void* p = servebench::testing::counted_malloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return servebench::testing::counted_malloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return servebench::testing::counted_malloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
