// The device APIs the GPU cases run on: those compiled into this build with a device on this
// machine, and of them only the ones CLFDTD_TEST_API names where it is set (a comma list of
// `opencl`, `cuda`). A GPU machine can then run each API's cases in a process of its own, side by
// side: most of their time is the programs' compilation, on the CPU.
#pragma once
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::test {

inline bool test_api_selected(device::Api api) {
  const char* only = std::getenv("CLFDTD_TEST_API");
  if (only == nullptr || *only == '\0') return true;
  const std::string list = std::string(",") + only + ",";
  return list.find(std::string(",") + device::api_name(api) + ",") != std::string::npos;
}

// CLFDTD_TEST_REQUIRE: a comma list as above of the APIs whose absence fails the GPU cases
// instead of skipping them (tools/run_tests.sh names opencl for build/, where PoCL is installed,
// so a broken OpenCL setup cannot pass the suite by skipping it).
inline bool test_api_required(device::Api api) {
  const char* need = std::getenv("CLFDTD_TEST_REQUIRE");
  if (need == nullptr || *need == '\0') return false;
  const std::string list = std::string(",") + need + ",";
  return list.find(std::string(",") + device::api_name(api) + ",") != std::string::npos;
}

// Whether `api` has a device here; throws (failing the case) where it has none and is required.
inline bool has_device(device::Api api) {
  if (!device::list_devices(api).empty()) return true;
  if (test_api_required(api))
    throw std::runtime_error(std::string("CLFDTD_TEST_REQUIRE names ") + device::api_name(api) +
                             ", but this build or machine has no " + device::api_name(api) +
                             " device");
  return false;
}

// In the order OpenCL, CUDA; `skipped` (if given) receives a line for each API left out, and why.
inline std::vector<device::Api> test_apis(std::vector<std::string>* skipped = nullptr) {
  std::vector<device::Api> out;
  for (device::Api api : {device::Api::OpenCL, device::Api::Cuda}) {
    const std::string name = device::api_name(api);
    if (!test_api_selected(api)) {
      if (skipped) skipped->push_back(name + " cases skipped: CLFDTD_TEST_API leaves " + name + " out");
    } else if (!has_device(api)) {
      if (skipped) {
        skipped->push_back("no " + name + " device in this build or on this machine: " + name +
                           " cases skipped");
      }
    } else {
      out.push_back(api);
    }
  }
  return out;
}

}  // namespace clfdtd::test
