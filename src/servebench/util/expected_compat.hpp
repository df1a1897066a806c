#pragma once
// std::expected for compilers whose standard library hides it. GCC 12's <expected> needs
// __cpp_concepts >= 202002L, which clang 14 (the fuzzers' compiler and clang-tidy's front end on
// Debian 12) does not define, so under clang 14 the header is empty. The product is built with GCC
// and never includes this file; clang 14 builds force-include it (`-include
// servebench/util/expected_compat.hpp`) and get the subset of std::expected the code uses
// (construction from a value or std::unexpected, has_value/bool, *, ->, value, error, value_or,
// comparison), built on std::variant.
#include <exception>
#include <version>
#include <type_traits>
#include <utility>
#include <variant>

#if !defined(__cpp_lib_expected)
namespace std {  // NOLINT(cert-dcl58-cpp): stands in for the missing standard declarations

template <class E>
class unexpected {
 public:
  template <class G = E>
    requires is_constructible_v<E, G>
  constexpr explicit unexpected(G&& e) : e_(std::forward<G>(e)) {}
  constexpr const E& error() const& noexcept { return e_; }
  constexpr E& error() & noexcept { return e_; }
  constexpr E&& error() && noexcept { return std::move(e_); }

 private:
  E e_;
};
template <class E>
unexpected(E) -> unexpected<E>;

template <class E>
class bad_expected_access : public exception {
 public:
  const char* what() const noexcept override { return "bad access to std::expected without expected value"; }
};

template <class T, class E>
class expected {
  using Value = conditional_t<is_void_v<T>, monostate, T>;

 public:
  using value_type = T;
  using error_type = E;

  constexpr expected() : v_(in_place_index<0>) {}
  template <class U = Value>
    requires(!is_void_v<T> && is_constructible_v<Value, U> &&
             !is_same_v<remove_cvref_t<U>, expected> && !is_same_v<remove_cvref_t<U>, in_place_t>)
  constexpr expected(U&& v) : v_(in_place_index<0>, std::forward<U>(v)) {}  // NOLINT: implicit like std
  template <class G>
  constexpr expected(const unexpected<G>& u) : v_(in_place_index<1>, u.error()) {}  // NOLINT
  template <class G>
  constexpr expected(unexpected<G>&& u) : v_(in_place_index<1>, std::move(u).error()) {}  // NOLINT
  template <class... A>
  constexpr explicit expected(in_place_t, A&&... a) : v_(in_place_index<0>, std::forward<A>(a)...) {}

  constexpr bool has_value() const noexcept { return v_.index() == 0; }
  constexpr explicit operator bool() const noexcept { return has_value(); }

  template <class U = T>
    requires(!is_void_v<U>)
  constexpr const U& operator*() const& { return std::get<0>(v_); }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr U& operator*() & { return std::get<0>(v_); }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr U&& operator*() && { return std::get<0>(std::move(v_)); }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr const U* operator->() const { return &std::get<0>(v_); }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr U* operator->() { return &std::get<0>(v_); }

  constexpr void value() const
    requires is_void_v<T>
  {
    if (!has_value()) throw bad_expected_access<E>();
  }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr const U& value() const& {
    if (!has_value()) throw bad_expected_access<E>();
    return std::get<0>(v_);
  }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr U& value() & {
    if (!has_value()) throw bad_expected_access<E>();
    return std::get<0>(v_);
  }
  template <class U = T>
    requires(!is_void_v<U>)
  constexpr U&& value() && {
    if (!has_value()) throw bad_expected_access<E>();
    return std::get<0>(std::move(v_));
  }
  template <class U>
  constexpr auto value_or(U&& fallback) const& {
    return has_value() ? static_cast<T>(std::get<0>(v_)) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  constexpr auto value_or(U&& fallback) && {
    return has_value() ? static_cast<T>(std::get<0>(std::move(v_))) : static_cast<T>(std::forward<U>(fallback));
  }

  constexpr const E& error() const& { return std::get<1>(v_); }
  constexpr E& error() & { return std::get<1>(v_); }
  constexpr E&& error() && { return std::get<1>(std::move(v_)); }

  template <class U>
    requires(!is_void_v<T>)
  friend constexpr bool operator==(const expected& x, const U& v) {
    return x.has_value() && *x == v;
  }

 private:
  variant<Value, E> v_;
};

}  // namespace std
#endif
