// The CUDA build's NVRTC compile of every kernel, which needs no GPU (CI has nvcc but no GPU); the
// device cases on CUDA devices are in test_device_api.cpp.
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_CUDA
#include <string>
#include <vector>

#include "backends/embedded_kernels.hpp"
#include "device/cuda/cuda_device.hpp"
#include "device/program_source.hpp"
#include "errors.hpp"
#endif

namespace clfdtd::test {

#ifdef CLFDTD_HAVE_CUDA
TEST_CASE("cuda program: NVRTC compiles the whole program for sm_90, magnetic and not") {
  // An onepass shape, magnetic, as sm_90 machine code; the patent's tile, not magnetic, as PTX
  // (a few seconds each on a CI core).
  const std::string cubin = device::compile_cuda_program(
      {{"TILE_X", 1}, {"TILE_Y", 2}, {"TILE_Z4", 32}, {"MAGNETIC", 1}}, "sm_90");
  REQUIRE(cubin.size() > 4);
  CHECK(cubin.compare(0, 4, "\x7f" "ELF") == 0);  // a CUBIN is an ELF image
  const std::string ptx = device::compile_cuda_program(
      {{"TILE_X", 2}, {"TILE_Y", 2}, {"TILE_Z4", 30}, {"MAGNETIC", 0}}, "compute_90");
  // extern "C": every kernel keeps its name.
  for (const char* k : {"update_h", "update_e", "update_onepass", "update_h_rows", "upml_slabs_h",
                        "upml_slabs_e", "add_sources", "sample_probes", "energy_sums",
                        "check_finite", "dft_gather", "dft_accumulate", "mode_project"}) {
    INFO(k);
    CHECK(ptx.find(std::string(".entry ") + k + "(") != std::string::npos);
  }
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

#endif

}  // namespace clfdtd::test
