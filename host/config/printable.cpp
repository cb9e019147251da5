#include "config/printable.hpp"

#include <cstdio>

namespace clfdtd {

namespace {

// Length of the valid UTF-8 sequence at text[i] that encodes a printable character (not C1), or 0.
std::size_t utf8_char(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  std::size_t n = 0;
  unsigned cp = 0;
  if (b >= 0xC2 && b <= 0xDF) n = 2, cp = b & 0x1F;
  else if (b >= 0xE0 && b <= 0xEF) n = 3, cp = b & 0x0F;
  else if (b >= 0xF0 && b <= 0xF4) n = 4, cp = b & 0x07;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not valid; C1 controls are controls.
  const unsigned min_cp = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < min_cp || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF || cp < 0xA0) return 0;
  // Invisible format characters (zero-width, bidi overrides, the byte order mark) would make the
  // echoed text look different from what the file holds.
  if ((cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
      (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF)
    return 0;
  return n;
}

}  // namespace

std::string printable(const std::string& text, std::size_t max_bytes) {
  const bool cut = text.size() > max_bytes;
  const std::size_t end = cut ? max_bytes : text.size();
  std::string out;
  for (std::size_t i = 0; i < end;) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += text[i++];
    } else if (std::size_t n = b >= 0x80 ? utf8_char(text, i) : 0; n > 0 && i + n <= end) {
      out += text.substr(i, n);
      i += n;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      out += hex;
      ++i;
    }
  }
  if (cut) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

bool all_printable(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 || b == 0x7F) return false;
    if (b >= 0x80) {
      const std::size_t n = utf8_char(text, i);
      if (n == 0) return false;
      i += n;
    } else {
      ++i;
    }
  }
  return true;
}

}  // namespace clfdtd
