#include "common/secure_random.h"

#include <openssl/rand.h>

#include <iterator>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace foundry {
namespace {

void Fill(unsigned char* out, size_t n) {
  if (RAND_bytes(out, static_cast<int>(n)) != 1) {
    throw std::runtime_error("OpenSSL's random generator failed");
  }
}

}  // namespace

uint64_t SecureRandom64() {
  unsigned char b[8];
  Fill(b, sizeof b);
  uint64_t v = 0;
  for (unsigned char c : b) v = v << 8 | c;
  return v;
}

std::string SecureRandomHex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (bytes > 0) Fill(buf.data(), bytes);
  std::string out;
  out.reserve(2 * bytes);
  for (unsigned char c : buf) fmt::format_to(std::back_inserter(out), "{:02x}", c);
  return out;
}

}  // namespace foundry
