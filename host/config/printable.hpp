// Model-file text echoed in messages: a terminal must only ever see it as text. Control bytes
// (an escape sequence can clear the screen or set the window title) and bytes that are not valid
// UTF-8 are written as \xNN, and a long value is cut so that one message stays one line.
#pragma once
#include <cstddef>
#include <string>

namespace clfdtd {

// Values longer than this many bytes are cut in messages.
inline constexpr std::size_t kEchoMaxBytes = 80;

// `text` as it may be printed: \xNN for control bytes (also DEL and the C1 controls U+0080..U+009F),
// for invisible format characters (zero-width, bidi, byte order mark) and for bytes outside valid
// UTF-8; other UTF-8 characters are kept. More than `max_bytes`
// bytes: the first ones, then "... (N bytes)" with the full length.
std::string printable(const std::string& text, std::size_t max_bytes = kEchoMaxBytes);

// True when printable() keeps every byte of `text`: no control byte, valid UTF-8.
bool all_printable(const std::string& text);

}  // namespace clfdtd
