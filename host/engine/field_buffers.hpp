// What the engines' buffer sets (YeeFields, PlaneFields, CylFields) do alike when they set up:
// name each buffer with its size and check the total against the device and the host before
// anything is allocated, allocate counting the bytes, and build the tables every solver's
// kernels read in one format (coefficients per material id, probe cells, energy groups).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "device/device.hpp"
#include "engine/stage.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// A valid, never-read buffer for the arguments a model does not use.
constexpr std::size_t kPlaceholderBytes = 4 * sizeof(float) * 8;
constexpr std::size_t kTableBytes = 4 * sizeof(float) * 256;  // float4 per material id
constexpr std::size_t kWeightBytes = sizeof(float) * 256;     // energy weight per material id
// Work-items per group of the energy reductions (energy.cl's ENERGY_GROUP default): the most a
// group holds.
constexpr int kEnergyGroup = 64;
// The energy kernels' group on a device that allows `kernel_max` items for the kernel: kEnergyGroup,
// or the largest power of two below it (Mesa's llvmpipe allows 32; energy_reduce.h); at least 1.
int energy_group_items(std::size_t kernel_max);
// The same for kernel `name` of `program`.
int energy_group_items(const device::Program& program, const std::string& name);

// One buffer an engine allocates, by name, with its exact size, for the check before allocation.
struct BufferNeed {
  BufferNeed(std::string name_, std::size_t bytes_, std::string monitor_ = {})
      : name(std::move(name_)), bytes(bytes_), monitor(std::move(monitor_)) {}
  std::string name;
  std::size_t bytes = 0;
  std::string monitor;  // the [monitor.<name>] it belongs to; empty for the solver's buffers
};

std::size_t total_bytes(const std::vector<BufferNeed>& needs);

// Throws OutOfMemoryError when total_bytes exceeds what the device has available
// ("model needs X bytes (Y MiB), device <name> has Z bytes ...", naming each monitor's share
// when there are monitors: "... of which monitor <name> N bytes (M MiB)") or one buffer exceeds
// its largest allocation.
void check_device_memory(std::size_t total_bytes, const std::vector<BufferNeed>& buffers,
                         const device::DeviceInfo& info, std::size_t available_bytes);

// The least device memory any engine needs for `g`: its E and H fields once, in float32 (3D: six
// components; 2D Yee: three; a Bloch model twice: its real and imaginary parts), over the padded
// cells of `layout`. 0 where no floor is counted
// (the scalar wave and cylindrical solvers).
std::size_t field_floor_bytes(const GridGeometry& g, const FieldLayout& layout, Equation equation);

// Throws OutOfMemoryError when floor_bytes exceeds the device's global memory ("the fields alone
// need X bytes (Y MiB) ..., device <name> has Z bytes ...; refused before meshing").
void check_field_floor(std::size_t floor_bytes, const device::DeviceInfo& info);

// check_device_memory on `dev`, then the host's memory for what the engine adds there while it
// sets up (gpu_engine_host_bytes, plus extra_host_bytes), named "the <solver> <API> engine on
// <device>" ("the CUDA engine on ..." when solver is empty).
void check_engine_memory(device::Device& dev, const SimulationModel& m,
                         const std::vector<BufferNeed>& needs, std::size_t device_bytes,
                         const std::string& solver, std::size_t extra_host_bytes = 0);

// Allocates buffers on one device and counts their bytes.
class BufferAllocator {
public:
  explicit BufferAllocator(device::Device& dev) : dev_(dev) {}
  device::Buffer upload(const void* data, std::size_t bytes);  // a copy of host data
  template <class T>
  device::Buffer upload(const std::vector<T>& v) {
    return upload(v.data(), v.size() * sizeof(T));
  }
  device::Buffer zeros(std::size_t bytes);
  std::size_t allocated() const { return allocated_; }

private:
  device::Device& dev_;
  std::size_t allocated_ = 0;
};

// The material coefficients of the time step, float4 per id over all 256 ids (so no id reads
// past the end): E (ca, cb, inv_eps_r, 0), H (db, inv_mu_r, 0, 0); and db of vacuum, which
// serves every H sample of a model without magnetic material.
struct CoefficientTables {
  std::vector<float> e, h;
  float db_vacuum = 0;
};
CoefficientTables coefficient_tables(const SimulationModel& m);

// The material ids of the components the model carries (E always, H when a material is
// magnetic; the others `placeholder`) and the coefficient tables (H: `placeholder` when not
// magnetic, db_vacuum serves then), uploaded.
struct MaterialBuffers {
  std::array<device::Buffer, 6> ids;
  device::Buffer ecoef, hcoef;
  float db_vacuum = 0;
};
MaterialBuffers upload_materials(BufferAllocator& alloc, const SimulationModel& m,
                                 const device::Buffer& placeholder);

// The merged sources' cell table and current table uploaded (both `placeholder` when there is
// no source) and their count. Throws DeviceError for a table past 2^31 entries (the kernels
// index it with 32-bit ints), naming what to reduce (`fewer`: "steps or sources").
struct SourceBuffers {
  device::Buffer cells, j;
  int count = 0;
};
SourceBuffers upload_sources(BufferAllocator& alloc, const std::vector<std::int32_t>& cells,
                             const std::vector<float>& j, const device::Buffer& placeholder,
                             const std::string& fewer);

// Plane waves (model/plane_wave.hpp post_step_entries) for add_plane_waves: per corrected sample
// its cell entry and terms [start[n], start[n + 1]) of rows / weights into table[s * row_width +
// row]. All `placeholder` and count 0 without waves. Throws DeviceError for a table past 2^31
// entries (the kernel's 32-bit index).
struct PlaneWaveBuffers {
  device::Buffer cells, start, rows, weights, table;
  int count = 0, row_width = 0;
  long steps = 0;
};
PlaneWaveBuffers upload_plane_waves(BufferAllocator& alloc, const SimulationModel& m,
                                    const device::Buffer& placeholder);

// Dispersive materials (model/dispersion.hpp) for update_dispersion: per sample its cell entry
// with its row packed in, the rows' float4s (row_stride each: (corr, inv, poles, upml), (kK, A, B, C) per pole,
// then on a UPML row (a_v, b_v, a_w, b_w), (cp_u, cm_u, 0, 0) in the last two) and the state
// [slot * count + sample], zero at the start. All `placeholder` and count 0 without samples.
// (The count is checked when the model is built: SimulationModel, kMaxDispersiveSamples.)
struct DispersionBuffers {
  device::Buffer cells, table, state;
  int count = 0, row_stride = 0, f_slot = 0;
};
DispersionBuffers upload_dispersion(BufferAllocator& alloc, const DispersiveSamples& d,
                                    const device::Buffer& placeholder);

// What add_plane_waves takes after the six fields, and update_dispersion after the fields and E
// of the step before (one definition for the 3D and the 2D engine's bindings): the tables, their
// counts and, for the dispersion, whether E of the step before is kept in its state.
void plane_wave_table_args(Args& a, const PlaneWaveBuffers& pw);
void dispersion_table_args(Args& a, const DispersionBuffers& d, bool before_in_state);

// The probe kernels' cell table: device_tables.hpp's cell_entry per probe sample.
std::vector<std::int32_t> probe_cell_table(const SimulationModel& m);

// Work-groups of an energy reduction over `float4_items` float4s (at most kEnergyMaxGroups).
int energy_group_count(std::size_t float4_items);

}  // namespace clfdtd::engine
