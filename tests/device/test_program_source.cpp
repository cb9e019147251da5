// embedded_program_source(): every .cl file once, includes expanded once each, and #line
// directives that map every line back to its file and line (checked line by line).
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backends/embedded_kernels.hpp"
#include "device/device.hpp"
#include "device/program_source.hpp"
#include "errors.hpp"

namespace clfdtd::test {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::map<std::string, std::vector<std::string>> embedded_lines() {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& f : embedded_kernel_files()) out[f.name] = lines_of(f.text);
  return out;
}

bool is_local_include(const std::string& line) {
  return line.rfind("#include \"", 0) == 0;
}

// Walks `source`: every line that is not a #line directive must be line `n` of the file the last
// directive named (counting on from it). Returns how often each file starts (#line 1).
std::map<std::string, int> check_line_map(const std::string& source) {
  const auto files = embedded_lines();
  std::map<std::string, int> starts;
  std::string file;
  std::size_t n = 0;
  for (const auto& line : lines_of(source)) {
    if (line.rfind("#line ", 0) == 0) {
      std::istringstream d(line.substr(6));
      std::string quoted;
      d >> n >> quoted;
      file = quoted.substr(1, quoted.size() - 2);
      if (n == 1) ++starts[file];
      continue;
    }
    REQUIRE_MESSAGE(files.count(file), "a line before any #line directive: " << line);
    const auto& text = files.at(file);
    REQUIRE_MESSAGE(n >= 1, file);
    REQUIRE_MESSAGE(n <= text.size(), file << " has no line " << n);
    CHECK_MESSAGE(line == text[n - 1], file << ":" << n);
    CHECK_MESSAGE(!is_local_include(line), file << ":" << n << " was not expanded");
    ++n;
  }
  return starts;
}

}  // namespace

TEST_CASE("embedded program: every .cl file and header once, each line mapped to its origin") {
  const auto starts = check_line_map(device::embedded_program_source());
  int cl_files = 0;
  for (const auto& f : embedded_kernel_files()) {
    const std::string name = f.name;
    INFO(name);
    CHECK(starts.count(name) == 1);
    if (starts.count(name)) CHECK(starts.at(name) == 1);
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".cl") == 0) ++cl_files;
  }
  CHECK(cl_files >= 10);
  CHECK(starts.size() == embedded_kernel_files().size());
}

TEST_CASE("embedded program: one file alone brings what it includes, recursively") {
  const std::string src = device::embedded_file_source("check_finite.cl");
  const auto starts = check_line_map(src);
  // check_finite.cl -> fdtd_common.h -> compat.h, headers first, each once.
  CHECK(starts.size() == 3);
  CHECK(src.find("#line 1 \"compat.h\"") < src.find("KERNEL void check_finite"));
  CHECK(src.find("KERNEL void check_finite") != std::string::npos);
  // Every .cl file expands on its own.
  for (const auto& f : embedded_kernel_files()) {
    INFO(f.name);
    check_line_map(device::embedded_file_source(f.name));
  }
}

TEST_CASE("embedded program: a kernel file brings the headers it includes") {
  // upml_zslab.cl includes upml_lanes.h, which includes fdtd_common.h, which includes compat.h:
  // each once, whatever other files the program holds.
  const std::string src = device::embedded_file_source("upml_zslab.cl");
  const auto starts = check_line_map(src);
  CHECK(starts.count("upml_lanes.h") == 1);
  CHECK(starts.count("fdtd_common.h") == 1);
  CHECK(starts.count("compat.h") == 1);
}

TEST_CASE("embedded program: a file that is not embedded is a DeviceError naming it") {
  try {
    device::embedded_file_source("no_such_file.cl");
    FAIL("no error");
  } catch (const DeviceError& e) {
    CHECK(std::string(e.what()).find("cl_kernels/no_such_file.cl") != std::string::npos);
  }
}

TEST_CASE("device API names") {
  CHECK(std::string(device::api_name(device::Api::OpenCL)) == "opencl");
  CHECK(std::string(device::api_name(device::Api::Cuda)) == "cuda");
}

}  // namespace clfdtd::test
