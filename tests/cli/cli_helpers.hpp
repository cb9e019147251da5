// Helpers for the end-to-end tests: run the built clfdtd program and look at what it wrote.
#pragma once
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clfdtd_test {

struct Ran {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// Runs `clfdtd <args>` from the project root, capturing its output.
inline Ran run_clfdtd(const std::string& args) {
  static int counter = 0;
  const std::string log = "/tmp/clfdtd_cli_test_" + std::to_string(::getpid()) + "_" +
                          std::to_string(counter++) + ".log";
  const std::string cmd = std::string(CLFDTD_BIN) + " " + args + " > " + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  Ran r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  r.out = ss.str();
  std::filesystem::remove(log);
  return r;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh scratch directory for one test's outputs.
inline std::string scratch_dir(const std::string& name) {
  const std::string dir = "/tmp/clfdtd_cli_" + std::to_string(::getpid()) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(std::filesystem::path(dir).parent_path());
  return dir;
}

// A CSV file's text (probes.csv, monitor tables) as numbers, one row per line; `header` gets the
// first line.
inline std::vector<std::vector<double>> csv_rows(const std::string& text, std::string& header) {
  std::istringstream in(text);
  std::getline(in, header);
  std::vector<std::vector<double>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    std::string cell;
    // strtod, not stod: a source's far tail is written down to subnormal values (4e-320), which
    // stod refuses as out of range.
    while (std::getline(cells, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace clfdtd_test
