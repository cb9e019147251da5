// One benchmark measurement: a standard problem on one backend, device, kernel variant and
// work-group. Warm-up steps are excluded, the step count is chosen so one repeat lasts about a
// quarter of a second, and the median of the repeats is reported, timed by the device's own
// timers where the backend has them (Backend::timed_steps).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "config/run_config.hpp"

namespace clfdtd::engine {
enum class WaveKernel;  // engine/wave/wave_engine.hpp
}

namespace clfdtd {

struct BenchCase {
  std::string problem = "vacuum_upml";  // see bench_problems.hpp
  int n = 128;                          // cells per side
  DeviceConfig device;                  // backend, select, variant, workgroup
  int repeats = 5;
  long steps = 0;                       // per repeat; 0 = about 0.25 s worth
  // A wave problem's interior kernel regardless of device.variant (the tuner times pair-sum and
  // cross on every device; device.variant reaches cross only through auto on a GPU).
  std::optional<engine::WaveKernel> wave_kernel;
};

struct BenchRow {
  std::string device, driver, backend, variant;  // variant as Backend::kernel_variant()
  std::string problem;
  int n = 0;
  long cells = 0, pml_cells = 0, steps = 0;  // cylindrical: cells (r, z) x modes (cell-modes)
  int repeats = 0;
  double seconds = 0;          // median time of one repeat
  double gcells_per_s = 0;     // cells * steps / seconds / 1e9
  double bytes_per_cell = 0;   // the model's compulsory bytes per cell update (roofline.hpp)
  double achieved_gbs = 0;     // bytes_per_cell * cells * steps / seconds / 1e9
  double copy_gbs = 0;         // the device's copy bandwidth, measured in the same process
  double roofline_ratio = 0;   // achieved_gbs / copy_gbs (0 when copy_gbs is unknown)
  std::string timer;           // "device" or "wall"
  std::string commit;          // the source revision the program was built from
  // Memory (JSON only: the CSV keeps the columns of docs/bench/results.csv): what the backend
  // allocates on the device for the model (Backend::device_bytes) and the fields and ids of one
  // non-PML cell (roofline.hpp storage_bytes_per_cell; seed 001's wave vs Yee tm comparison).
  double device_bytes = 0;
  double storage_bytes_per_cell = 0;
};

// Runs one case. copy_gbs < 0: measure the copy bandwidth on this case's backend now; otherwise
// use the value given (measured once per device by the caller). Throws what the backends throw.
BenchRow run_bench_case(const BenchCase& c, double copy_gbs = -1);

// The CSV header and one row (the columns of BenchRow, in order).
std::string bench_csv_header();
std::string bench_csv_row(const BenchRow& r);

}  // namespace clfdtd
