// The device API on CUDA: NVRTC compiles every kernel without a GPU (CI has nvcc but no GPU), and
// the device_cases.hpp cases run on every CUDA device present (skipped with a message when none).
#include "device/device_cases.hpp"

#ifdef CLFDTD_HAVE_CUDA
#include "backends/embedded_kernels.hpp"
#include "device/cuda/cuda_device.hpp"
#include "device/program_source.hpp"
#endif

namespace clfdtd::test {

#ifdef CLFDTD_HAVE_CUDA
TEST_CASE("cuda program: NVRTC compiles the whole program for sm_90 with several define sets") {
  // The patent's tile and an onepass shape, not magnetic and magnetic (a few seconds each).
  const std::vector<Defines> sets = {
      {{"TILE_X", 2}, {"TILE_Y", 2}, {"TILE_Z4", 30}, {"MAGNETIC", 0}},
      {{"TILE_X", 1}, {"TILE_Y", 2}, {"TILE_Z4", 32}, {"MAGNETIC", 1}},
  };
  for (const auto& d : sets) {
    INFO("TILE " << d.at("TILE_X") << "x" << d.at("TILE_Y") << "x" << d.at("TILE_Z4")
                 << " MAGNETIC " << d.at("MAGNETIC"));
    const std::string cubin = device::compile_cuda_program(d, "sm_90");
    REQUIRE(cubin.size() > 4);
    CHECK(cubin.compare(0, 4, "\x7f" "ELF") == 0);  // a CUBIN is an ELF image
  }
  const std::string ptx = device::compile_cuda_program(device::Defines{}, "compute_90");
  CHECK(ptx.find(".entry update_onepass") != std::string::npos);  // extern "C": names unmangled
  CHECK(ptx.find(".entry check_finite") != std::string::npos);
}

TEST_CASE("cuda program: every .cl file compiles alone with what it includes") {
  for (const auto& f : embedded_kernel_files()) {
    const std::string name = f.name;
    if (name.size() < 3 || name.compare(name.size() - 3, 3, ".cl") != 0) continue;
    // MAGNETIC 1 only, to stay fast: it has the longer argument lists; the whole program is
    // compiled with both above.
    INFO(name);
    CHECK_NOTHROW(device::compile_cuda_source(device::embedded_file_source(name),
                                              {{"MAGNETIC", 1}}, "compute_90"));
  }
}

TEST_CASE("cuda program: a failed compile is a DeviceError with the options and NVRTC's log") {
  try {
    device::compile_cuda_program({{"ENERGY_GROUP", -1}}, "sm_90");
    FAIL("no error");
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("-DENERGY_GROUP=-1") != std::string::npos);
    CHECK(what.find("--gpu-architecture=sm_90") != std::string::npos);
    CHECK(what.find("energy.cl") != std::string::npos);  // the log names the file (#line)
  }
  CHECK_THROWS_AS(device::compile_cuda_program({{"1X", 1}}, "sm_90"), DeviceError);
}

TEST_CASE("cuda program: the target follows the device's compute capability") {
  CHECK(device::nvrtc_target(9, 0) == "sm_90");
  CHECK(device::nvrtc_target(8, 0) == "sm_80");
  // An architecture newer than this NVRTC knows gets PTX of the newest one below it.
  const std::string future = device::nvrtc_target(99, 9);
  CHECK(future.rfind("compute_", 0) == 0);
  CHECK_THROWS_AS(device::nvrtc_target(1, 0), DeviceError);
}

TEST_CASE("cuda device: info, buffers, read_rect") {
  on_every_device(device::Api::Cuda, [](Device& dev) {
    CHECK(dev.info().api == device::Api::Cuda);
    CHECK(!dev.info().code_target.empty());
    check_info(dev);
    check_round_trip(dev);
    check_fill_and_copy(dev);
    check_read_rect(dev);
  });
}

TEST_CASE("cuda device: programs, kernels, build errors") {
  on_every_device(device::Api::Cuda, [](Device& dev) {
    check_program_cache(dev);
    check_missing_kernel(dev);
    check_build_failure(dev);
  });
}

TEST_CASE("cuda device: embedded kernels launched, timers, memory limit") {
  on_every_device(device::Api::Cuda, [](Device& dev) {
    check_finite_kernel(dev);
    check_sample_probes(dev);
    check_timer_and_memory(dev);
    check_argument_errors(dev);
  });
}
#else
TEST_CASE("cuda device: not compiled into this build") {
  CHECK(device::list_devices(device::Api::Cuda).empty());
  CHECK_THROWS_AS(device::open_device(device::Api::Cuda, 0), DeviceError);
}
#endif

}  // namespace clfdtd::test
