#include "servebench/util/sha256.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <openssl/evp.h>

namespace servebench::util {
namespace {

class Digest {
 public:
  Digest() : m_ctx(EVP_MD_CTX_new()) { EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr); }
  ~Digest() { EVP_MD_CTX_free(m_ctx); }
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;
  void update(const void* data, std::size_t n) { EVP_DigestUpdate(m_ctx, data, n); }
  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    EVP_DigestFinal_ex(m_ctx, md.data(), &len);
    static constexpr char k_digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(len * 2);
    for (unsigned int i = 0; i < len; ++i) {
      out.push_back(k_digits[md[i] >> 4]);
      out.push_back(k_digits[md[i] & 0xf]);
    }
    return out;
  }

 private:
  EVP_MD_CTX* m_ctx;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
  Digest d;
  d.update(data.data(), data.size());
  return d.hex();
}

Result<std::string> sha256_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return failf(ErrorKind::io, "cannot open {}: {}", path.string(), std::strerror(errno));
  Digest d;
  std::array<char, 1 << 16> buf{};
  while (in) {
    in.read(buf.data(), buf.size());
    d.update(buf.data(), static_cast<std::size_t>(in.gcount()));
  }
  return d.hex();
}

}  // namespace servebench::util
