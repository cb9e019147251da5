// choose_device / format_device_table over hand-made DeviceInfo lists: device.select's rules
// ("" the best GPU else CPU, an index, gpu / cpu, part of a device or platform name).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "device/device.hpp"
#include "errors.hpp"

namespace clfdtd::test {

namespace {

device::DeviceInfo dev(int index, const std::string& type, const std::string& name,
                       const std::string& platform, unsigned units, unsigned mhz) {
  device::DeviceInfo d;
  d.index = index;
  d.type = type;
  d.name = name;
  d.platform = platform;
  d.compute_units = units;
  d.clock_mhz = mhz;
  d.global_mem_bytes = 1ull << 30;
  d.max_alloc_bytes = 1ull << 28;
  d.version = "OpenCL 3.0";
  return d;
}

const std::vector<device::DeviceInfo> kMixed = {
    dev(0, "cpu", "cpu-haswell-Intel Xeon", "Portable Computing Language", 2, 2400),
    dev(1, "gpu", "NVIDIA A100-SXM4-40GB", "NVIDIA CUDA", 108, 1410),
    dev(2, "gpu", "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", 132, 1980),
    dev(3, "accelerator", "FPGA emulator", "Intel FPGA", 64, 3000),
};

}  // namespace

TEST_CASE("choose_device: empty select takes the best GPU, else a CPU, else anything") {
  CHECK(device::choose_device(kMixed, "") == 2);
  CHECK(device::choose_device({kMixed[0], kMixed[3]}, "") == 0);
  CHECK(device::choose_device({kMixed[3]}, "  ") == 0);
}

TEST_CASE("choose_device: index, type, or part of a device or platform name") {
  CHECK(device::choose_device(kMixed, "1") == 1);
  CHECK(device::choose_device(kMixed, "003") == 3);
  CHECK(device::choose_device(kMixed, "0") == 0);
  CHECK(device::choose_device(kMixed, "gpu") == 2);
  CHECK(device::choose_device(kMixed, "GPU") == 2);
  CHECK(device::choose_device(kMixed, "cpu") == 0);
  CHECK(device::choose_device(kMixed, "a100") == 1);
  CHECK(device::choose_device(kMixed, "nvidia") == 2);   // two match: the better one
  CHECK(device::choose_device(kMixed, "portable") == 0);  // platform name
  // Indices are the devices' own, not positions in the list.
  CHECK(device::choose_device({kMixed[2], kMixed[1]}, "1") == 1);
}

TEST_CASE("choose_device: no match is a ConfigError on device.select listing the devices") {
  for (const char* select : {"7", "tpu", "amd"}) {
    INFO(select);
    try {
      device::choose_device(kMixed, select);
      FAIL("no error");
    } catch (const ConfigError& e) {
      CHECK(e.key() == "device.select");
      const std::string what = e.what();
      CHECK(what.find(std::string("\"") + select + "\"") != std::string::npos);
      CHECK(what.find("2 = NVIDIA H100 80GB HBM3 (gpu, NVIDIA CUDA)") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(device::choose_device({kMixed[0]}, "gpu"), clfdtd::ConfigError);
  CHECK_THROWS_AS(device::choose_device({}, ""), DeviceError);
}

TEST_CASE("format_device_table: one row per device, the default marked") {
  const std::string t = device::format_device_table(kMixed);
  CHECK(t.find("NVIDIA H100 80GB HBM3") != std::string::npos);
  CHECK(t.find("cpu-haswell-Intel Xeon") != std::string::npos);
  CHECK(t.find("* 2 ") != std::string::npos);
  CHECK(t.find("* 1 ") == std::string::npos);
  CHECK(t.find("1024 MiB") != std::string::npos);
  CHECK(device::format_device_table({}).find("No device") != std::string::npos);
}

}  // namespace clfdtd::test

TEST_CASE("split_device_select: a comma-separated list, entries trimmed") {
  CHECK(clfdtd::device::split_device_select("") == std::vector<std::string>{""});
  CHECK(clfdtd::device::split_device_select("gpu") == std::vector<std::string>{"gpu"});
  CHECK(clfdtd::device::split_device_select("0, 1") == std::vector<std::string>{"0", "1"});
  CHECK(clfdtd::device::split_device_select(" NVIDIA H100 ,1") ==
        std::vector<std::string>{"NVIDIA H100", "1"});
  CHECK_THROWS_AS(clfdtd::device::split_device_select("0,,1"), clfdtd::ConfigError);
  CHECK_THROWS_AS(clfdtd::device::split_device_select("0,"), clfdtd::ConfigError);
}
