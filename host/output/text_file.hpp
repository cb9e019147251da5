// Whole-file text writes that report the system's reason (no space left, permission denied, ...)
// as an OutputError naming the path; iostreams lose errno, so this goes through stdio.
#pragma once
#include <string>

namespace clfdtd {

// One CSV field: `text` as is, or quoted (RFC 4180, inner quotes doubled) when it holds a comma,
// a quote or a line break.
std::string csv_field(const std::string& text);

// Creates or truncates `path` and writes `text`; a failure to create, write or close throws
// OutputError.
void write_text_file(const std::string& path, const std::string& text);

// The same, through "<path>.part" renamed over `path` at the end, so that `path` is always whole
// (the old text or the new); errors name `path`, and a failed write leaves no .part behind.
void replace_text_file(const std::string& path, const std::string& text);

// What a command's --output may replace: nothing that is not a plain file, and a plain file only
// with --overwrite; throws OutputRefusedError naming the path otherwise.
void check_replaceable_file(const std::string& path, bool overwrite);

}  // namespace clfdtd
