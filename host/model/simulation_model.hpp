// Patent steps 1 and 2 together: everything a backend needs, built once from a checked RunConfig
// and then only read (const&). Host memory (patent step 6) is released when this goes out of scope,
// after the backend that uses it.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "config/run_config.hpp"
#include "model/dispersion.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/monitors.hpp"
#include "model/plane_wave.hpp"
#include "model/lumped.hpp"
#include "model/ports.hpp"
#include "model/probes.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"
#include "model/waveguide_port.hpp"

namespace clfdtd {

struct SimulationModel {
  GridGeometry grid;
  FieldLayout layout;
  MaterialTable materials;
  // uint8 material id per component per cell (layout.cells() entries each). ids[Hx..Hz] are empty
  // when no material is magnetic: then every H sample uses the vacuum coefficients.
  std::array<std::vector<std::uint8_t>, 6> ids;
  std::vector<std::uint8_t> cell_ids;  // material at cell centres, nx*ny*nz, for model.vti
  bool magnetic = false;
  UpmlProfile upml;
  std::vector<SourceModel> sources;
  std::vector<PlaneWaveModel> plane_waves;  // [source.*] of type plane_wave (model/plane_wave.hpp)
  DispersiveSamples dispersion;             // E samples of materials with poles (model/dispersion.hpp)
  ProbeSet probes;                     // the [probe.*] samples, then the ports' E samples
  std::vector<PortModel> ports;        // the sources of type port, in file order
  std::vector<LumpedModel> lumped;     // [lumped.*] in file order (model/lumped.hpp)
  // The sources of type waveguide (model/waveguide_port.hpp); a driven one's injection is among
  // plane_waves (guided_port) and each one's transforms among monitors (kind WaveguidePort).
  std::vector<WaveguidePortModel> waveguide_ports;
  std::vector<MonitorModel> monitors;  // [monitor.<name>] in file order (model/monitors.hpp)
  std::vector<long> snapshot_steps;    // sorted, unique, within 0..steps
  bool snapshot_e = true, snapshot_h = true;
  bool energy = false;                 // energy.csv: the backend keeps a copy of H (3 fields)
  // One line each for the user (stderr, "warning: ..."): what build() dropped or cut because the
  // command line shortened the run.
  std::vector<std::string> warnings;

  // 2D (grid.dims == 2): the field family and the equation ([grid] mode, equation). 3D models
  // keep the defaults.
  PlaneMode mode = PlaneMode::Tm;
  Equation equation = Equation::Maxwell;

  // before_tables, when given, runs once the grid is derived and checked and before any table
  // the size of the grid exists (material ids, mesh): run_command's device memory check, which
  // refuses a model the device cannot hold before the host spends seconds meshing it.
  static SimulationModel build(const RunConfig& cfg,
                               const std::function<void(const GridGeometry&, const FieldLayout&)>&
                                   before_tables = {});

  bool two_d() const { return grid.dims == 2; }
  // A body of revolution (docs/CYLINDRICAL.md): layout (nr, 1, nz), one complex field set per
  // angular mode in grid.modes; Ex..Hz stand for Er, Ephi, Ez, Hr, Hphi, Hz.
  bool cylindrical() const { return grid.cylindrical; }
  // The components the model carries: all six in 3D; Ez Hx Hy (tm) or Ex Ey Hz (te) in 2D;
  // Ez alone for the wave equation. ids of the others are empty; reading them is an error.
  std::vector<Component> active_components() const;
  bool is_active(Component c) const;

  const std::vector<std::uint8_t>& id(Component c) const { return ids[static_cast<int>(c)]; }

  // Bytes a GPU backend allocates: 6 float fields, the id arrays, UPML auxiliaries (6 floats per
  // PML cell), coefficient/profile tables, source and probe buffers (and, with energy, a copy of
  // H plus the energy partial sums). one_pass: the onepass kernel variant double-buffers the
  // fields, a second set of 6, and reads the E ids per float4 too (cells / 4 B; twice that for a
  // magnetic model, whose H ids have theirs; onepass and tblock: Backend::one_pass() says whether
  // the chosen variant is one of them).
  // 2D: 3 fields (Yee) or u at two steps plus the frame's Yee tm (wave), ids of the meshed
  // components, 3 auxiliaries per PML cell (plane_device_bytes).
  std::size_t device_bytes(int probe_batch_steps, bool one_pass = false) const;
  std::size_t plane_device_bytes(int probe_batch_steps) const;
  // Cylindrical: per mode 6 complex float fields (48 B per cell), ids, the CPML psi and 1/r~
  // auxiliaries of the slab cells, tables, sources, probes (simulation_model.cpp says each term).
  // None of these counts holds the monitors' buffers: the engines add them as they allocate them
  // (3D: variant_device_bytes; 2D and cylindrical: the engines' own plane_device_bytes and
  // cyl_device_bytes, which are their exact allocations and what Backend::device_bytes reports).
  std::size_t cyl_device_bytes(int probe_batch_steps) const;
  // Wave models with UPML: cells of the frame the wave engine advances with Yee tm
  // (UpmlProfile::in_wave_frame); 0 without UPML.
  std::size_t wave_frame_cells() const;
};

// The field layout of a grid: FieldLayout::xy_plane for 2D, z-padded 3D otherwise.
FieldLayout layout_for(const GridGeometry& g);

// The components whose material ids the model meshes: the E components the model carries, and its
// H components when a material is magnetic (3D: Ex..Ez, Hx..Hz; 2D: plane_components()).
std::vector<Component> meshed_components(const RunConfig& cfg, bool magnetic);

// Host bytes of the model's big tables, known before they exist (build() checks them against the
// host's available memory first): material ids (3 arrays, 6 with a magnetic material, and the
// cell-centre ids of model.vti), the source tables (a double per step and source), the larger of
// model.vti's arrays (13 B per cell) and, with snapshots, the read-back fields and the .vti
// writer's copies, and the monitors' mode arrays and
// read-back transforms (monitor_host_bytes(); `monitors` as build_monitors() gives them, before
// the mode arrays are read).
// Cylindrical: snapshots read back six complex fields per mode (48 B per cell and mode), the
// writer's real and imaginary images, and with snapshot.phi_samples = N a 3D reconstruction of
// 17 floats per cell and angle at N + 1 angles, twice (VTK's copy); each source adds its complex
// mode factors.
std::size_t model_host_bytes(const RunConfig& cfg, const GridGeometry& g, bool magnetic,
                             const std::vector<MonitorModel>& monitors = {});

// Host bytes a GPU engine adds while it sets up: the float copy of the source tables it uploads
// and, when the device's memory is the host's (a CPU OpenCL device such as PoCL), every device
// buffer. The engine checks them with check_host_memory() before allocating.
std::size_t gpu_engine_host_bytes(const SimulationModel& m, std::size_t device_bytes,
                                  bool device_memory_is_host);

// Work-groups of the device energy reduction at most; each writes 3 partial sums per sample.
inline constexpr int kEnergyMaxGroups = 256;

}  // namespace clfdtd
