// The CUDA backend's host side, most of it without a GPU (so CI, which has nvcc but no GPU, runs
// it): block-shape choice for both variants, grid sizes, the memory check, error texts, device
// choice and table, the compiled kernel table; and with a GPU the identity strings, the zero
// start, the finite flag and bad selections.
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_CUDA

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_kernels.hpp"
#include "backends/cuda/cuda_launch.hpp"
#include "backends/test_cuda_helpers.hpp"
#include "errors.hpp"

using namespace clfdtd;
using namespace clfdtd::cudatest;

namespace {

constexpr double kD = 1e-3;

CudaDeviceInfo fake(int index, const std::string& name, unsigned sms, unsigned mhz) {
  CudaDeviceInfo d;
  d.index = index;
  d.name = name;
  d.cc_major = 9;
  d.sm_count = sms;
  d.clock_mhz = mhz;
  d.global_mem_bytes = 1ull << 30;
  d.pci = "0000:0" + std::to_string(index) + ":00.0";
  return d;
}

CudaDeviceList fakes() {
  CudaDeviceList l;
  l.devices = {fake(0, "NVIDIA H100 PCIe", 114, 1755), fake(1, "NVIDIA H200", 132, 1980),
               fake(2, "NVIDIA GeForce RTX 4090", 128, 2520)};
  l.driver_version = 13000;
  l.runtime_version = 13000;
  return l;
}

}  // namespace

TEST_CASE("cuda kernels: the compiled table") {
  const auto& tiles = cuda_tile_kernels();
  REQUIRE_FALSE(tiles.empty());
  for (const auto& t : tiles) {
    CHECK(t.x * t.y * t.z4 <= 1024);
    CHECK(t.x <= 64);
    CHECK(static_cast<bool>(t.update_h));
    CHECK(static_cast<bool>(t.update_e));
    CHECK(t.update_h_fn[0] != nullptr);
    CHECK(t.update_h_fn[1] != nullptr);
    CHECK(t.update_h_fn[0] != t.update_h_fn[1]);
    CHECK(t.update_e_fn != nullptr);
  }
  const auto& c = cuda_common_kernels();
  CHECK(static_cast<bool>(c.update_h_plain));
  CHECK(static_cast<bool>(c.update_e_plain));
  CHECK(static_cast<bool>(c.upml_h));
  CHECK(static_cast<bool>(c.upml_e));
  CHECK(static_cast<bool>(c.upml_zslab_h));
  CHECK(static_cast<bool>(c.upml_zslab_e));
  CHECK(static_cast<bool>(c.add_sources));
  CHECK(static_cast<bool>(c.sample_probes));
  CHECK(static_cast<bool>(c.check_finite));
  std::string shapes;
  for (const auto& t : tiles) {
    shapes += " " + std::to_string(t.x) + "x" + std::to_string(t.y) + "x" + std::to_string(t.z4);
  }
  MESSAGE("CUDA tile shapes compiled:" << shapes);
}

TEST_CASE("cuda launch: tile shapes are chosen among the compiled ones") {
  const std::vector<std::array<int, 3>> compiled = {{2, 2, 30}, {1, 8, 32}, {4, 5, 4}};
  CHECK(choose_cuda_tile(std::nullopt, compiled) == 0);
  CHECK(choose_cuda_tile(std::array<int, 3>{1, 8, 32}, compiled) == 1);
  CHECK(choose_cuda_tile(std::array<int, 3>{4, 5, 4}, compiled) == 2);
  try {
    choose_cuda_tile(std::array<int, 3>{3, 3, 3}, compiled);
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.workgroup");
    CHECK(e.expected().find("2 2 30, 1 8 32, 4 5 4") != std::string::npos);
    CHECK(e.expected().find("got 3 3 3") != std::string::npos);
    CHECK(e.expected().find("CLFDTD_CUDA_TILES") != std::string::npos);
  }
  CHECK_THROWS_AS(choose_cuda_tile(std::nullopt, {}), DeviceError);
}

TEST_CASE("cuda launch: plain and rows blocks are clamped and shrunk like OpenCL work-groups") {
  auto plain = [](std::optional<std::array<int, 3>> r, std::array<int, 3> grid, int max) {
    return choose_cuda_block(r, kDefaultCudaPlainBlock, grid, kCudaPlainLimits, max);
  };
  CHECK(plain(std::nullopt, {100, 80, 400}, 1024) == std::array<int, 3>{1, 1, 64});
  CHECK(plain(std::nullopt, {7, 1, 5}, 1024) == std::array<int, 3>{1, 1, 5});
  CHECK(plain(std::array<int, 3>{0, -3, 7}, {100, 80, 400}, 1024) == std::array<int, 3>{1, 1, 7});
  // x runs along CUDA's z, at most 64 threads.
  CHECK(plain(std::array<int, 3>{100, 2, 100}, {500, 80, 400}, 1 << 20) ==
        std::array<int, 3>{64, 2, 100});
  // 4 * 4 * 64 = 1024 > 256: the largest axis halves until it fits.
  CHECK(plain(std::array<int, 3>{4, 4, 64}, {100, 80, 400}, 256) == std::array<int, 3>{4, 4, 16});
  // rows: (x, y) only; z is always 1.
  CHECK(choose_cuda_block(std::nullopt, kDefaultCudaRowsBlock, {100, 80, 1}, kCudaRowsLimits,
                          1024) == std::array<int, 3>{1, 8, 1});
  CHECK(choose_cuda_block(std::array<int, 3>{4, 64, 9}, kDefaultCudaRowsBlock, {100, 80, 1},
                          kCudaRowsLimits, 1024) == std::array<int, 3>{4, 64, 1});
}

TEST_CASE("cuda launch: grid sizes") {
  // extent (nx, ny, nz4) = (21, 19, 6), block (4, 5, 4): CUDA x = z4, y = j, z = i.
  CHECK(cuda_block_grid({21, 19, 6}, {4, 5, 4}) == std::array<unsigned, 3>{2, 4, 6});
  CHECK(cuda_block_grid({1, 1, 1}, {2, 2, 30}) == std::array<unsigned, 3>{1, 1, 1});
  CHECK_THROWS_AS(cuda_block_grid({70000, 10, 10}, {1, 1, 64}), DeviceError);
  CHECK(cuda_linear_blocks(0, 128) == 1);
  CHECK(cuda_linear_blocks(128, 128) == 1);
  CHECK(cuda_linear_blocks(129, 128) == 2);
}

TEST_CASE("cuda memory check: numbers in the OutOfMemoryError") {
  CHECK_NOTHROW(check_cuda_memory(900, 1000, 2000, "Tiny GPU"));
  try {
    check_cuda_memory(2000, 1000, 4000, "Tiny GPU");
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string w = e.what();
    CHECK(w.find("model needs 2000 bytes") != std::string::npos);
    CHECK(w.find("device Tiny GPU has 1000 bytes") != std::string::npos);
    CHECK(w.find("free of 4000 bytes") != std::string::npos);
  }
}

TEST_CASE("cuda errors: call, code name and message") {
  CHECK(cuda_error_text(cudaErrorMemoryAllocation).find("cudaErrorMemoryAllocation (2)") == 0);
  CHECK_NOTHROW(cuda_check(cudaSuccess, "cudaMalloc", "x"));
  try {
    cuda_check(cudaErrorMemoryAllocation, "cudaMalloc", "allocating field Ex");
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string w = e.what();
    CHECK(w.find("allocating field Ex: cudaMalloc failed with cudaErrorMemoryAllocation") == 0);
  }
  try {
    cuda_check(cudaErrorInvalidConfiguration, "update_h<<<>>>", "CUDA time step 3");
    FAIL("expected DeviceError");
  } catch (const OutOfMemoryError&) {
    FAIL("not an out-of-memory error");
  } catch (const DeviceError& e) {
    const std::string w = e.what();
    CHECK(w.find("CUDA time step 3: update_h<<<>>> failed with cudaErrorInvalidConfiguration (9)") ==
          0);
  }
}

TEST_CASE("cuda devices: chooser by default, index, gpu and name part") {
  const CudaDeviceList l = fakes();
  CHECK(choose_cuda_device(l, "") == 2);  // most SMs * clock
  CHECK(choose_cuda_device(l, "gpu") == 2);
  CHECK(choose_cuda_device(l, "1") == 1);
  CHECK(choose_cuda_device(l, "001") == 1);
  CHECK(choose_cuda_device(l, "h200") == 1);
  CHECK(choose_cuda_device(l, " NVIDIA H") == 1);  // H100 and H200 match: the faster one
  try {
    choose_cuda_device(l, "cpu");
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.select");
    CHECK(e.expected().find("0 = NVIDIA H100 PCIe; 1 = NVIDIA H200") != std::string::npos);
  }
  CHECK_THROWS_AS(choose_cuda_device(l, "7"), ConfigError);
  CudaDeviceList none;
  none.problem = "cudaGetDeviceCount failed with cudaErrorNoDevice (100): no CUDA-capable device";
  try {
    choose_cuda_device(none, "");
    FAIL("expected DeviceError");
  } catch (const ConfigError&) {
    FAIL("no device is a device error, not bad input");
  } catch (const DeviceError& e) {
    CHECK(std::string(e.what()).find("no CUDA device found (cudaGetDeviceCount") == 0);
  }
}

TEST_CASE("cuda devices: table marks the default device, or says why there is none") {
  const std::string t = format_cuda_device_table(fakes());
  CHECK(t.find("NVIDIA H200") != std::string::npos);
  CHECK(t.find("* 2") != std::string::npos);
  CHECK(t.find("1024 MiB") != std::string::npos);
  CHECK(t.find("9.0") != std::string::npos);
  CHECK(t.find("driver API 13.0") != std::string::npos);
  CudaDeviceList none;
  none.problem = "the CUDA runtime reports 0 devices";
  CHECK(format_cuda_device_table(none) == "No CUDA device found: the CUDA runtime reports 0 devices\n");
  CHECK(cuda_version_text(12040) == "12.4");
}

TEST_CASE("cuda devices: the real list, or a clear DeviceError without one") {
  const CudaDeviceList l = list_cuda_devices();  // must not throw, GPU or not
  RunConfig cfg = box_config({9, 7, 6}, kD, 10, BoundaryType::Pec);
  const SimulationModel m = SimulationModel::build(cfg);
  if (l.devices.empty()) {
    CHECK_FALSE(l.problem.empty());
    MESSAGE("no CUDA device here: " << l.problem);
    try {
      CudaBackend b(m, DeviceConfig{});
      FAIL("expected DeviceError");
    } catch (const DeviceError& e) {
      CHECK(std::string(e.what()).find("no CUDA device found") == 0);
    }
    DeviceConfig dev;
    dev.backend = BackendKind::Cuda;
    CHECK_THROWS_AS(make_backend(m, dev), DeviceError);
    return;
  }
  for (std::size_t n = 0; n < l.devices.size(); ++n) {
    CHECK(l.devices[n].index == static_cast<int>(n));
    CHECK_FALSE(l.devices[n].name.empty());
    CHECK(l.devices[n].global_mem_bytes > 0);
    CHECK(l.devices[n].sm_count > 0);
  }
  MESSAGE("CUDA devices:\n" << format_cuda_device_table(l));
}

TEST_CASE("cuda backend: identity strings, zero start, finite flag, bad selections") {
  if (!cuda_available()) return;
  RunConfig cfg = box_config({9, 7, 6}, kD, 40, BoundaryType::Pec);
  cfg.sources = {point_source("boom", SourceKind::Current, Axis::Z, cells(4, 3, 3, kD),
                              WaveformKind::Gaussian, 30e9, 1)};
  SimulationModel m = SimulationModel::build(cfg);
  // build() refuses a source whose field could overflow float (model/input_limits.hpp), so the
  // table is scaled to 1e38 A/m^2 here, past it.
  for (double& j : m.sources[0].j) j *= 1e38;
  DeviceConfig dev;
  dev.backend = BackendKind::Cuda;
  auto made = make_backend(m, dev);
  CHECK(made->name() == "cuda");
  made.reset();

  {
    // auto on an untuned GPU: onepass (this model fits with its second set of fields), its
    // default block 8 2 32 (8 planes of 9 nx fit).
    CudaBackend a(m, dev);
    CHECK(a.variant() == KernelVariant::OnePass);
    CHECK(a.workgroup() == kDefaultCudaOnePassBlock);
    CHECK(a.kernel_variant().find("onepass 8x2x32 (sm_") == 0);
  }
  DeviceConfig tile = dev;
  tile.variant = KernelVariant::Tile;
  CudaBackend b(m, tile);
  CHECK(b.name() == "cuda");
  CHECK(b.variant() == KernelVariant::Tile);
  CHECK(b.workgroup() == std::array<int, 3>{cuda_tile_kernels()[0].x, cuda_tile_kernels()[0].y,
                                            cuda_tile_kernels()[0].z4});
  CHECK(b.kernel_variant().find("float4-tile ") == 0);
  CHECK(b.kernel_variant().find("(sm_") != std::string::npos);
  CHECK(b.device_description().find(b.device_info().name + " (CUDA ") == 0);
  CHECK(b.probe_batch_steps() == 256);
  std::vector<float> f;
  for (int c = 0; c < 6; ++c) {
    b.read_field(static_cast<Component>(c), f);
    CHECK(f.size() == 9u * 7u * 6u);
    CHECK(std::all_of(f.begin(), f.end(), [](float v) { return v == 0.0f; }));
  }
  CHECK(b.fields_finite());
  // A current density of 1e38 A/m^2 overflows float within a few steps.
  for (long s = 0; s < m.grid.steps; ++s) b.step(s);
  b.finish();
  CHECK_FALSE(b.fields_finite());
  MESSAGE("CUDA backend: " << b.device_description() << ", " << b.kernel_variant());
  // Benchmarking hooks.
  CHECK(b.has_device_timers());
  CHECK_FALSE(b.driver_version().empty());
  CHECK(b.timed_steps(0, 3) > 0);
  const double bw = b.copy_bandwidth();
  CHECK(bw > 1e9);  // any GPU copies more than 1 GB/s
  MESSAGE("CUDA driver " << b.driver_version() << ", copy bandwidth " << bw / 1e9 << " GB/s");

  DeviceConfig plain = dev;
  plain.variant = KernelVariant::Plain;
  CudaBackend p(m, plain);
  CHECK(p.variant() == KernelVariant::Plain);
  CHECK(p.workgroup() == std::array<int, 3>{1, 1, 6});  // 1 1 64 clamped to nz = 6
  CHECK(p.kernel_variant().find("plain 1x1x6 (sm_") == 0);
  DeviceConfig rows = dev;
  rows.variant = KernelVariant::Rows;
  CudaBackend r(m, rows);
  CHECK(r.variant() == KernelVariant::Rows);
  CHECK(r.workgroup() == std::array<int, 3>{1, 7, 1});  // 1 16 1 clamped to ny = 7
  CHECK(r.kernel_variant().find("rows 1x7x1 (sm_") == 0);

  DeviceConfig none = dev;
  none.select = "no-such-device-anywhere";
  CHECK_THROWS_AS(CudaBackend(m, none), ConfigError);
  DeviceConfig odd = dev;
  odd.workgroup = std::array<int, 3>{3, 3, 3};
  CHECK_THROWS_AS(CudaBackend(m, odd), ConfigError);
}

#endif  // CLFDTD_HAVE_CUDA
