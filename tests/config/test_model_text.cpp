// The model file as bytes: what is echoed in messages is escaped and cut, a UTF-8 byte order mark
// is skipped, and only a plain file of at most kMaxModelFileBytes is read.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "config/load_config.hpp"
#include "config/printable.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

const std::string kHead = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 10\n";

std::string error_text(const std::string& text, const std::vector<std::string>& args = {}) {
  try {
    load_config_text(text, "m.ini", args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError");
  return "";
}

std::string file_error(const std::string& path) {
  try {
    load_config(path, {});
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError for " << path);
  return "";
}

// Nothing a terminal would act on: no byte below 0x20, no DEL.
bool terminal_safe(const std::string& message) {
  for (unsigned char c : message)
    if (c < 0x20 || c == 0x7F) return false;
  return true;
}

std::string scratch(const std::string& name) {
  return "/tmp/clfdtd_model_text_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace

TEST_CASE("printable escapes control bytes and invalid UTF-8, keeps UTF-8, cuts long text") {
  CHECK(printable("plain text") == "plain text");
  CHECK(printable("a\x1b]0;title\x07" "b") == "a\\x1b]0;title\\x07b");
  CHECK(printable("tab\there") == "tab\\x09here");
  CHECK(printable("\x7f") == "\\x7f");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");           // é stays
  CHECK(printable("\xc2\x9b" "2J") == "\\xc2\\x9b2J");         // C1 CSI is a control
  CHECK(printable("\xff\xfe") == "\\xff\\xfe");                // not UTF-8
  const std::string longer(1000000, 'k');
  CHECK(printable(longer) == std::string(80, 'k') + "... (1000000 bytes)");
  CHECK(all_printable("glass-2 caf\xc3\xa9"));
  CHECK_FALSE(all_printable("a\nb"));
  CHECK_FALSE(all_printable("\xff"));
}

TEST_CASE("messages that echo model text escape it and cut long values") {
  // A value with an escape sequence that would clear the screen and set the window title.
  std::string m = error_text(kHead + "[output]\nenergy = \x1b[2J\x1b]0;pwned\x07\n");
  CHECK(terminal_safe(m));
  CHECK(m.find("got '\\x1b[2J\\x1b]0;pwned\\x07'") != std::string::npos);
  // A line that is neither a header nor a key.
  m = error_text(kHead + "\x1b[31mred\n");
  CHECK(terminal_safe(m));
  CHECK(m.find("got '\\x1b[31mred'") != std::string::npos);
  // A 1 MB key is cut to one line.
  m = error_text(kHead + "[boundary]\n" + std::string(1000000, 'q') + " = 1\n");
  CHECK(m.size() < 400);
  CHECK(m.find("... (") != std::string::npos);
  // A 1 MB value too.
  m = error_text(kHead, {"--grid.courant=" + std::string(1000000, '9') + "x"});
  CHECK(m.size() < 400);
  CHECK(m.find("(1000001 bytes)") != std::string::npos);
  // An unknown section's name, and a key on the command line.
  m = error_text(kHead + "[\x1b[2Jgrd]\n");
  CHECK(terminal_safe(m));
  m = error_text(kHead, {"--gr\x1b" "id.size=1"});
  CHECK(terminal_safe(m));
}

TEST_CASE("free-text values with control characters are refused") {
  CHECK(error_text(kHead + "[output]\ndir = out\x1b[2J\n").find(
            "'output.dir': text without control characters") != std::string::npos);
  CHECK(error_text(kHead, {"--device=gp\x07u"}).find("'device.select': text without control") !=
        std::string::npos);
  CHECK(error_text(kHead + "[object.o]\nshape = sphere\ncenter = 0 0 0\nradius = 1\n"
                           "material = gl\x01ss\n")
            .find("'object.o.material': text without control") != std::string::npos);
}

TEST_CASE("a UTF-8 byte order mark at the start of the file is skipped") {
  const RunConfig cfg = load_config_text("\xEF\xBB\xBF" + kHead, "bom.ini", {});
  CHECK(cfg.grid.max_frequency_hz == 1e9);
  CHECK(cfg.line_of("grid") == 1);
  // Anywhere else it is an error like any stray bytes, and printed escaped.
  const std::string m = error_text(kHead + "\xEF\xBB\xBF[boundary]\n");
  CHECK(m.find("\\xef\\xbb\\xbf") != std::string::npos);
}

TEST_CASE("only a plain model file of at most 16 MiB is read") {
  namespace fs = std::filesystem;
  // A valid model padded with comments past the limit: refused before parsing.
  const std::string big = scratch("big.ini");
  {
    std::ofstream out(big, std::ios::binary);
    out << kHead;
    const std::string comment = "#" + std::string(1022, 'c') + "\n";
    for (std::size_t n = kHead.size(); n <= kMaxModelFileBytes; n += comment.size()) out << comment;
  }
  std::string m = file_error(big);
  CHECK(m.find("at most 16777216 bytes (16 MiB)") != std::string::npos);
  fs::remove(big);
  // Just below the limit it loads.
  {
    std::ofstream out(big, std::ios::binary);
    out << kHead << "#" << std::string(kMaxModelFileBytes - kHead.size() - 2, 'c') << "\n";
  }
  CHECK(fs::file_size(big) == kMaxModelFileBytes);
  CHECK(load_config(big, {}).time.steps == 10L);
  fs::remove(big);

  // Devices and FIFOs are refused without reading (a FIFO would block, /dev/zero never ends).
  CHECK(file_error("/dev/zero").find("not a regular file") != std::string::npos);
  const std::string fifo = scratch("fifo.ini");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(file_error(fifo).find("not a regular file") != std::string::npos);
  fs::remove(fifo);
  // A directory says so.
  CHECK(file_error("tests/data").find("it is a directory") != std::string::npos);
  CHECK(file_error("tests/data/no_such_model.ini").find("no such file") != std::string::npos);
}
