// Input limits that need the grid (host/model/input_limits.hpp) and the host-memory check
// (host/model/host_memory.hpp): each refusal happens in SimulationModel::build before the big
// tables exist, names the key and the allowed range.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "errors.hpp"
#include "model/host_memory.hpp"
#include "model/input_limits.hpp"
#include "model/simulation_model.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

// model_helpers.hpp's small model, with the lines its keys came from.
RunConfig base_config() {
  RunConfig cfg = small_dipole_config();
  cfg.sources[0].amplitude = 1e-12;
  cfg.lines = {{"time.duration", 5}, {"source.feed.amplitude", 14}};
  return cfg;
}

std::string build_error(const RunConfig& cfg, const std::string& key) {
  try {
    SimulationModel::build(cfg);
  } catch (const ConfigError& e) {
    CHECK(e.key() == key);
    return e.expected();
  }
  FAIL("expected a ConfigError on " << key);
  return "";
}

// Sets CLFDTD_HOST_MEMORY_LIMIT for one scope.
struct HostLimit {
  explicit HostLimit(const char* bytes) { ::setenv("CLFDTD_HOST_MEMORY_LIMIT", bytes, 1); }
  ~HostLimit() { ::unsetenv("CLFDTD_HOST_MEMORY_LIMIT"); }
};

}  // namespace

TEST_CASE("a duration of more steps than the kernels count is refused, without overflow") {
  RunConfig cfg = base_config();
  cfg.time.steps.reset();
  cfg.time.duration_s = 1e9;
  // Counted in double: past the limit the count stays positive, one over the maximum.
  CHECK(derive_grid_geometry(cfg).steps == kMaxRunSteps + 1);
  const std::string what = build_error(cfg, "time.duration");
  INFO(what);
  CHECK(what.find("at most 2147483647 steps of dt = ") != std::string::npos);
  CHECK(what.find("got 1e+09 s = ") != std::string::npos);
  // Just inside: accepted (the table then needs 17 GB: refused for memory, not as bad input).
  cfg.time.duration_s = 1e-9;
  CHECK(SimulationModel::build(cfg).grid.steps == derive_grid_geometry(cfg).steps);
}

TEST_CASE("steps x sources beyond 32-bit indices is refused") {
  RunConfig cfg = base_config();
  cfg.sources.push_back(cfg.sources.front());
  cfg.sources.back().name = "second";
  cfg.time.steps = 1073741824;  // 2^30: x 2 sources is one past the last int index
  const std::string what = build_error(cfg, "time.steps");
  CHECK(what.find("an integer in [1, 1073741823] (steps x 2 sources <= 2147483647") !=
        std::string::npos);
}

TEST_CASE("a source table larger than the host's memory is refused before it is allocated") {
  RunConfig cfg = base_config();
  cfg.time.steps = kMaxRunSteps;  // a legal count: 26 GB of source tables (double, and the engine's float copy)
  HostLimit limit("1e9");
  try {
    SimulationModel::build(cfg);
    FAIL("no OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("not enough host memory for the model") != std::string::npos);
    CHECK(what.find("needs " + std::to_string(model_host_bytes(cfg, derive_grid_geometry(cfg), false)) +
                    " bytes") != std::string::npos);
    CHECK(what.find("CLFDTD_HOST_MEMORY_LIMIT") != std::string::npos);
  }
}

// An audit ran 2^31 - 1 steps on a host with room for the double table (17 GB) but not for the
// engine's float copy as well: 16.9 GB were allocated before the refusal.
TEST_CASE("the model's host count holds the engine's float copy of the source table") {
  RunConfig cfg = base_config();
  cfg.time.steps = 1000;
  const std::size_t thousand = model_host_bytes(cfg, derive_grid_geometry(cfg), false);
  cfg.time.steps = 2000;
  const std::size_t two_thousand = model_host_bytes(cfg, derive_grid_geometry(cfg), false);
  CHECK(two_thousand - thousand == cfg.sources.size() * 1000 * (sizeof(double) + sizeof(float)));
}

TEST_CASE("host memory: the least of MemAvailable, cgroup room and CLFDTD_HOST_MEMORY_LIMIT") {
  const HostMemory free = host_memory_available();
  CHECK(free.available > 0);
  {
    HostLimit limit("5e8");
    const HostMemory capped = host_memory_available();
    CHECK(capped.available < 500000000);  // less this process's resident memory
    CHECK(capped.limited_by.find("CLFDTD_HOST_MEMORY_LIMIT") != std::string::npos);
    CHECK_NOTHROW(check_host_memory(1000, "a small table"));
    CHECK_THROWS_AS(check_host_memory(500000000, "a large table"), OutOfMemoryError);
  }
  HostLimit bad("lots");
  CHECK_THROWS_AS(host_memory_available(), ConfigError);
}

TEST_CASE("model_host_bytes counts ids, source tables, model.vti's or the snapshots' buffers") {
  RunConfig cfg = base_config();
  const GridGeometry g = derive_grid_geometry(cfg);
  const std::size_t padded = 20 * 20 * 20;  // nz = 20 is a whole number of float4 lanes
  const std::size_t model_vti = 13 * 8000;  // eps_r, mu_r, sigma (float) and material (uint8)
  CHECK(model_host_bytes(cfg, g, false) == 3 * padded + 8000 + 50 * (sizeof(double) + sizeof(float)) + model_vti);
  CHECK(model_host_bytes(cfg, g, true) == 6 * padded + 8000 + 50 * (sizeof(double) + sizeof(float)) + model_vti);
  // A snapshot's buffers (later than model.vti's, so not both) take its place.
  cfg.snapshot.steps = {10};
  CHECK(model_host_bytes(cfg, g, false) ==
        3 * padded + 8000 + 50 * (sizeof(double) + sizeof(float)) + 15 * sizeof(float) * padded);
}

TEST_CASE("UPML sigma_max at most 1000 times its default") {
  RunConfig cfg = base_config();
  cfg.boundary.sigma_max = 1e300;
  const std::string what = build_error(cfg, "boundary.sigma_max");
  CHECK(what.find("a conductivity in [0, ") != std::string::npos);
  CHECK(what.find("1000 x the default") != std::string::npos);
  cfg.boundary.sigma_max = 10 * optimal_sigma_max(3, 0.01);
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("a source frequency above the grid's band is refused") {
  RunConfig cfg = base_config();
  const double cutoff = grid_cutoff_frequency_hz(cfg, derive_grid_geometry(cfg));
  // 1 cm cells, courant 0.9: asin(0.9) / (pi dt), about 2 x 10^10 Hz.
  CHECK(cutoff > 1.9e10);
  CHECK(cutoff < 2.2e10);
  cfg.sources[0].frequency_hz = 1e17;
  CHECK(build_error(cfg, "source.feed.frequency").find("the highest a wave on this grid can have") !=
        std::string::npos);
  cfg.sources[0].frequency_hz = 0.99 * cutoff;
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("a delay past 1e10 periods is refused, as is a bandwidth whose default delay is") {
  RunConfig cfg = base_config();
  cfg.sources[0].delay_s = 1e300;
  CHECK(build_error(cfg, "source.feed.delay").find("a delay in [0, 10] s") != std::string::npos);
  cfg.sources[0].delay_s.reset();
  cfg.sources[0].bandwidth_hz = 1e-300;
  CHECK(build_error(cfg, "source.feed.bandwidth").find("a bandwidth of at least") !=
        std::string::npos);
}

TEST_CASE("an amplitude whose field per step could overflow float is refused with its range") {
  RunConfig cfg = base_config();
  cfg.sources[0].amplitude = 1e30;  // C*m: J = 1e30 x 2 pi f / dV
  const std::string what = build_error(cfg, "source.feed.amplitude");
  INFO(what);
  CHECK(what.find("an amplitude in [-") != std::string::npos);
  CHECK(what.find(" C*m on this grid") != std::string::npos);
  CHECK(what.find("<= 1e+28 V/m") != std::string::npos);  // 1e30 x the 1 cm cell
  // A current whose J overflows double (inf) is refused too.
  cfg.sources[0].kind = SourceKind::Current;
  cfg.sources[0].amplitude = 1e308;
  build_error(cfg, "source.feed.amplitude");
  // Negative amplitudes are as good as positive ones.
  cfg.sources[0].amplitude = -1;
  CHECK_NOTHROW(SimulationModel::build(cfg));
}
