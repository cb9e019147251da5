// Patent steps 1 and 2 together: everything a backend needs, built once from a checked RunConfig
// and then only read (const&). Host memory (patent step 6) is released when this goes out of scope,
// after the backend that uses it.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"
#include "model/grid_geometry.hpp"
#include "model/materials.hpp"
#include "model/probes.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"

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
  ProbeSet probes;
  std::vector<long> snapshot_steps;    // sorted, unique, within 0..steps
  bool snapshot_e = true, snapshot_h = true;
  bool energy = false;                 // energy.csv: the backend keeps a copy of H (3 fields)

  static SimulationModel build(const RunConfig& cfg);

  const std::vector<std::uint8_t>& id(Component c) const { return ids[static_cast<int>(c)]; }

  // Bytes a GPU backend allocates: 6 float fields, the id arrays, UPML auxiliaries (6 floats per
  // PML cell), coefficient/profile tables, source and probe buffers (and, with energy, a copy of
  // H plus the energy partial sums). one_pass: the onepass kernel variant double-buffers the
  // fields, a second set of 6 (Backend::one_pass() says whether the chosen variant is onepass).
  std::size_t device_bytes(int probe_batch_steps, bool one_pass = false) const;
};

// Work-groups of the device energy reduction at most; each writes 3 partial sums per sample.
inline constexpr int kEnergyMaxGroups = 256;

}  // namespace clfdtd
