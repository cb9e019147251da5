// clfdtd sparams: the S-matrix of a model's lumped (or waveguide) ports from one finished run per port, as a
// Touchstone file (output/port_network.hpp, output/touchstone.hpp, docs/PORTS.md).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "config/printable.hpp"
#include "errors.hpp"
#include "output/port_network.hpp"
#include "output/text_file.hpp"
#include "output/touchstone.hpp"

namespace clfdtd::cli {

namespace {

const char* kSparamsUsage =
    "usage: clfdtd sparams <run folder> [<run folder> ...] --output=<file.sNp> [--overwrite]\n"
    "  joins finished runs of one model with N lumped ports (or N waveguide ports), each run\n"
    "  driving one port with amplitude = 0 on the others, into the N-port S-matrix as a\n"
    "  Touchstone file (Hz, real and imaginary parts; version 1.1, or 2.0 where the ports'\n"
    "  resistances differ); docs/PORTS.md\n";

bool ends_with_ci(const std::string& s, const std::string& tail) {
  if (s.size() < tail.size()) return false;
  return std::equal(tail.begin(), tail.end(), s.end() - static_cast<long>(tail.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) ==
                                                std::tolower(static_cast<unsigned char>(b)); });
}

}  // namespace

int sparams_command(const std::vector<std::string>& args) {
  std::vector<std::string> runs;
  std::string output;
  bool overwrite = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kSparamsUsage, stdout);
      return 0;
    }
    if (a == "--overwrite") {
      overwrite = true;
    } else if (a.rfind("--output=", 0) == 0) {
      output = a.substr(9);
    } else if (a == "--output") {
      if (i + 1 >= args.size()) throw ConfigError("", 0, "--output", "a file name after it");
      output = args[++i];
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "clfdtd: bad input: unknown option '%s'\n\n%s", printable(a).c_str(),
                   kSparamsUsage);
      return 2;
    } else {
      runs.push_back(a);
    }
  }
  if (runs.empty() || output.empty()) {
    std::fprintf(stderr, "clfdtd: bad input: %s\n\n%s",
                 runs.empty() ? "no run folders given" : "--output=<file.sNp> is missing",
                 kSparamsUsage);
    return 2;
  }
  const NetworkData network = read_port_network(runs);
  const std::string extension = touchstone_extension(network.port_names.size());
  if (!ends_with_ci(output, extension))
    throw ConfigError("", 0, "--output",
                      "a name ending in " + extension + " for " +
                          std::to_string(network.port_names.size()) +
                          (network.port_names.size() == 1 ? " port" : " ports") +
                          " (readers take the port count from it), got '" +
                          printable(output) + "'");
  check_replaceable_file(output, overwrite);
  replace_text_file(output, touchstone_text(network));
  std::string ports;
  for (std::size_t k = 0; k < network.port_names.size(); ++k)
    ports += (k ? ", " : "") + network.port_names[k] + " " +
             touchstone_number(network.reference_ohm[k]) + " ohm";
  const std::size_t count = network.port_names.size();
  std::printf("sparams    %zu %s (%s), %zu frequencies: %s\n", count, count == 1 ? "port" : "ports",
              ports.c_str(), network.frequencies_hz.size(), output.c_str());
  return 0;
}

}  // namespace clfdtd::cli
