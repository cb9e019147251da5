// The OpenCL backend's host side: device listing and choice, work-group choice, the memory check,
// build errors with their log, the index math of fdtd_common.h against field_layout.hpp, and the
// finite check.
#include <doctest/doctest.h>

#ifdef CLFDTD_HAVE_OPENCL

#include "backends/opencl/cl_error.hpp"
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/cl_program.hpp"
#include "backends/test_opencl_helpers.hpp"
#include "errors.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

ClDeviceInfo fake(int index, const std::string& type, const std::string& name,
                  const std::string& platform, unsigned cu, unsigned mhz) {
  ClDeviceInfo d;
  d.index = index;
  d.type = type;
  d.name = name;
  d.platform = platform;
  d.compute_units = cu;
  d.clock_mhz = mhz;
  d.global_mem_bytes = 1ull << 30;
  d.max_alloc_bytes = 1ull << 28;
  return d;
}

const std::vector<ClDeviceInfo> kFakes = {
    fake(0, "cpu", "AMD EPYC 9654", "Portable Computing Language", 192, 2400),
    fake(1, "gpu", "NVIDIA H100", "NVIDIA CUDA", 132, 1980),
    fake(2, "gpu", "NVIDIA H200", "NVIDIA CUDA", 132, 1980),
    fake(3, "gpu", "Intel(R) Arc(TM) A770", "Intel(R) OpenCL Graphics", 512, 2400),
};

}  // namespace

TEST_CASE("opencl devices: chooser by default, index, type and name part") {
  CHECK(choose_cl_device(kFakes, "") == 3);  // a GPU, most CUs * clock
  CHECK(choose_cl_device(kFakes, "2") == 2);
  CHECK(choose_cl_device(kFakes, "002") == 2);
  CHECK(choose_cl_device(kFakes, "cpu") == 0);
  CHECK(choose_cl_device(kFakes, "GPU") == 3);
  CHECK(choose_cl_device(kFakes, "h200") == 2);
  CHECK(choose_cl_device(kFakes, "nvidia") == 1);  // tie: lowest index
  CHECK(choose_cl_device(kFakes, "portable") == 0);
  CHECK(choose_cl_device({kFakes[0]}, "") == 0);  // no GPU: the CPU
  try {
    choose_cl_device(kFakes, "radeon");
    FAIL("expected ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.select");
    CHECK(e.line() == 0);
    CHECK(e.expected().find("available: 0 = AMD EPYC 9654") != std::string::npos);
    CHECK(e.expected().find("3 = Intel(R) Arc(TM) A770") != std::string::npos);
  }
  CHECK_THROWS_AS(choose_cl_device(kFakes, "9"), ConfigError);
  CHECK_THROWS_AS(choose_cl_device({}, ""), DeviceError);
}

TEST_CASE("opencl devices: table marks the default device") {
  const std::string t = format_device_table(kFakes);
  CHECK(t.find("NVIDIA H200") != std::string::npos);
  CHECK(t.find("* 3") != std::string::npos);
  CHECK(t.find("1024 MiB") != std::string::npos);
  CHECK(format_device_table({}).find("No OpenCL device") != std::string::npos);
}

TEST_CASE("opencl devices: the real list is consistent") {
  if (!opencl_available()) return;
  const auto devs = list_cl_devices();
  for (std::size_t n = 0; n < devs.size(); ++n) {
    CHECK(devs[n].index == static_cast<int>(n));
    CHECK_FALSE(devs[n].name.empty());
    CHECK(devs[n].global_mem_bytes > 0);
    CHECK(devs[n].max_alloc_bytes > 0);
  }
  const int best = choose_cl_device(devs, "");
  CHECK(
      cl_device_at(devs[best].index).getInfo<CL_DEVICE_NAME>().find(devs[best].name.substr(0, 8)) !=
      std::string::npos);
  MESSAGE("OpenCL devices:\n" << format_device_table(devs));
}

TEST_CASE("opencl launch: work-group default, clamping and shrinking") {
  const FieldLayout big(100, 80, 400), small(7, 1, 5);
  const std::array<std::size_t, 3> items{1024, 1024, 64};
  CHECK(choose_workgroup(std::nullopt, big, 1024, items) == std::array<int, 3>{2, 2, 30});
  CHECK(choose_workgroup(std::nullopt, small, 1024, items) == std::array<int, 3>{2, 1, 2});
  CHECK(choose_workgroup(std::array<int, 3>{0, -3, 7}, big, 1024, items) ==
        std::array<int, 3>{1, 1, 7});
  // Per-dimension limits are in NDRange order: dim0 = z4, dim2 = x.
  CHECK(choose_workgroup(std::array<int, 3>{100, 2, 100}, big, 1 << 20, {50, 8, 16}) ==
        std::array<int, 3>{16, 2, 50});
  // 4 * 4 * 64 = 1024 > 256: the largest axis halves until it fits.
  CHECK(choose_workgroup(std::array<int, 3>{4, 4, 64}, big, 256, items) ==
        std::array<int, 3>{4, 4, 16});
  CHECK(round_up(10, 4) == 12);
  CHECK(round_up(12, 4) == 12);
}

TEST_CASE("opencl memory check: numbers in the OutOfMemoryError") {
  ClDeviceInfo d = fake(0, "gpu", "Tiny GPU", "P", 1, 1);
  d.global_mem_bytes = 1000;
  d.max_alloc_bytes = 400;
  CHECK_NOTHROW(check_device_memory(900, {{"Ex", 400}}, d));
  try {
    check_device_memory(2000, {}, d);
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string w = e.what();
    CHECK(w.find("model needs 2000 bytes") != std::string::npos);
    CHECK(w.find("device Tiny GPU has 1000 bytes") != std::string::npos);
  }
  try {
    check_device_memory(900, {{"Ex", 401}}, d);
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    CHECK(std::string(e.what()).find("buffer Ex needs 401 bytes") != std::string::npos);
  }
}

TEST_CASE("opencl errors: code names and build log") {
  CHECK(cl_error_name(CL_OUT_OF_RESOURCES) == "CL_OUT_OF_RESOURCES");
  CHECK(cl_error_name(-9999) == "CL error -9999");
  if (!opencl_available()) return;
  const auto devs = list_cl_devices();
  const cl::Device dev = cl_device_at(devs[choose_cl_device(devs, "")].index);
  const cl::Context ctx(dev);
  try {
    build_program(ctx, dev, "__kernel void broken(__global float* a) { a[0] = undefined_name; }",
                  "");
    FAIL("expected DeviceError");
  } catch (const DeviceError& e) {
    const std::string w = e.what();
    CHECK(w.find("build log") != std::string::npos);
    CHECK(w.find("undefined_name") != std::string::npos);
  }
  // The real program builds with both switch settings.
  CHECK_NOTHROW(build_fdtd_program(ctx, dev, {2, 2, 30, false}));
  CHECK_NOTHROW(build_fdtd_program(ctx, dev, {3, 1, 4, true}));
}

TEST_CASE("opencl layout: fdtd_common.h index math agrees with field_layout.hpp") {
  if (!opencl_available()) return;
  RunConfig cfg = box_config({9, 6, 7}, kD, 1, BoundaryType::Upml);
  cfg.boundary.layers = {2, 1, 0, 2, 1, 3};
  const SimulationModel m = SimulationModel::build(cfg);
  const auto& L = m.layout;
  std::vector<cl_int> ijk;
  for (int i = 0; i < L.nx; ++i)
    for (int j = 0; j < L.ny; ++j)
      for (int k = 0; k < static_cast<int>(L.nzp()); ++k) ijk.insert(ijk.end(), {i, j, k});
  const std::size_t n = ijk.size() / 3;

  const std::string probe = R"(
__kernel void index_probe(__global const int* ijk, __global int* out, int n, int nx, int ny,
                          int nz, int nz4, int xlo, int xhi, int ylo, int yhi, int zlo, int zhi) {
  const int t = GLOBAL_ID(0);
  if (t >= n) return;
  const int i = ijk[3 * t], j = ijk[3 * t + 1], k = ijk[3 * t + 2];
  out[3 * t] = cell_index(i, j, k, ny, 4 * nz4);
  out[3 * t + 1] = 4 * lane_index(i, j, k / 4, ny, nz4) + k % 4;
  out[3 * t + 2] = in_pml(i, j, k, nx, ny, nz, xlo, xhi, ylo, yhi, zlo, zhi) ? 1 : 0;
})";
  const auto devs = list_cl_devices();
  const cl::Device dev = cl_device_at(devs[choose_cl_device(devs, "")].index);
  const cl::Context ctx(dev);
  cl::CommandQueue q(ctx, dev);
  cl::Program prog =
      build_program(ctx, dev, fdtd_program_source() + probe, fdtd_build_options({2, 2, 30, false}));
  cl::Kernel k(prog, "index_probe");
  cl::Buffer in(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ijk.size() * sizeof(cl_int),
                ijk.data());
  cl::Buffer out(ctx, CL_MEM_WRITE_ONLY, ijk.size() * sizeof(cl_int));
  const auto& lay = m.upml.layers;
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, static_cast<cl_int>(n));
  k.setArg(3, L.nx);
  k.setArg(4, L.ny);
  k.setArg(5, L.nz);
  k.setArg(6, L.nz4);
  for (int f = 0; f < 6; ++f) k.setArg(7 + f, lay[f]);
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(n), cl::NullRange);
  std::vector<cl_int> res(ijk.size());
  q.enqueueReadBuffer(out, CL_TRUE, 0, res.size() * sizeof(cl_int), res.data());
  int bad = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const int i = ijk[3 * t], j = ijk[3 * t + 1], kk = ijk[3 * t + 2];
    const auto want = static_cast<cl_int>(L.index(i, j, kk));
    const int pml = kk < L.nz && m.upml.in_pml(i, j, kk, m.grid.n) ? 1 : 0;
    if (res[3 * t] != want || res[3 * t + 1] != want || (kk < L.nz && res[3 * t + 2] != pml)) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("opencl backend: identity strings, zero start, finite flag, bad device") {
  if (!opencl_available()) return;
  RunConfig cfg = box_config({9, 7, 6}, kD, 40, BoundaryType::Pec);
  cfg.sources = {point_source("boom", SourceKind::Current, Axis::Z, cells(4, 3, 3, kD),
                              WaveformKind::Gaussian, 30e9, 1)};
  SimulationModel m = SimulationModel::build(cfg);
  // build() refuses a source whose field could overflow float (model/input_limits.hpp), so the
  // table is scaled to 1e38 A/m^2 here, past it.
  for (double& j : m.sources[0].j) j *= 1e38;
  DeviceConfig tile;
  tile.variant = KernelVariant::Tile;
  OpenClBackend b(m, tile);
  CHECK(b.name() == "opencl");
  CHECK(b.kernel_variant() == "float4-tile 2x2x2");
  {
    DeviceConfig plain;
    plain.variant = KernelVariant::Plain;
    CHECK(OpenClBackend(m, plain).kernel_variant() == "plain 1x1x6");  // z clamped to nz = 6
    DeviceConfig rows;
    rows.variant = KernelVariant::Rows;
    CHECK(OpenClBackend(m, rows).kernel_variant() == "rows 1x7x1");  // y clamped to ny = 7
    // auto picks the rows on a CPU device and, on a GPU, onepass when the model fits with its
    // second set of fields (this one does).
    OpenClBackend a(m, DeviceConfig{});
    CHECK(a.variant() ==
          (a.device_info().type == "cpu" ? KernelVariant::Rows : KernelVariant::OnePass));
  }
  CHECK(b.device_description() == b.device_info().name + " (" + b.device_info().platform + ", " +
                                      b.device_info().version + ")");
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

  DeviceConfig none;
  none.select = "no-such-device-anywhere";
  CHECK_THROWS_AS(OpenClBackend(m, none), ConfigError);
}

#endif  // CLFDTD_HAVE_OPENCL
