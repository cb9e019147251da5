// Every device buffer of the cylindrical solver for one model (docs/CYLINDRICAL.md): the six
// components Er Ephi Ez Hr Hphi Hz, each holding every mode slot's complex field as real and
// imaginary planes of the (nr, 1, nz) layout (cl_kernels/cyl_common.h), their material ids (shared
// by the modes), the coefficient tables, the mode orders, the CPML psi of the PML cells only with
// the four (inv_kappa, b, c) tables, the merged per-mode source table, the probe cells with their
// per-mode phases and batch, the finite flag and the energy reduction's buffers. Sized and checked
// against the device before anything is allocated; the buffers free themselves with this object.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "device/device.hpp"
#include "engine/field_buffers.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// PML cells: the r slab (layers_r x nz) and the z slabs of the rows left of it.
std::size_t cyl_pml_cells(const SimulationModel& m);

// Every buffer CylFields allocates for m, by name, with its exact size, and their sum (what the
// engine allocates and reports: Backend::device_bytes).
std::vector<BufferNeed> cyl_buffer_needs(const SimulationModel& m, int batch_steps);
std::size_t cyl_device_bytes(const SimulationModel& m, int batch_steps);

// Per merged source (component, padded cell index) and its per-mode complex table
// j[((src * modes + q) * steps + s) * 2 + part]: the sources that drive one sample summed
// (their j[s] * mode_factor[q]) in double, so that no two work-items write one value.
struct CylMergedSources {
  std::vector<std::int32_t> cells;
  std::vector<float> j;
  long steps = 0;
};
CylMergedSources cyl_merge_sources(const SimulationModel& m);

// Per row i, the factors of the r slab's G <- a G + b (F - P), P <- keep F (G = F / r~,
// r~ = r_kappa + S / (alpha / eps0 + i w): cl_kernels/cyl_cell.h) at i dr and at (i + 1/2) dr:
// (a, b, a, b) with A = alpha dt / (2 eps0), D = r_kappa (1 + A) + S dt/2,
// a = (r_kappa (1 - A) - S dt/2) / D, b = (1 + A) / D (keep is in the CPML tables); r_kappa and S dt/2 are
// the trapezoid integrals of kappa and sigma dt / (2 eps0) over the CPML table entries at j dr/2
// (CylReference's r~, the same sums).
std::vector<float> cyl_r_tilde_table(const SimulationModel& m);

struct CylFields {
  // Throws OutOfMemoryError (model or one buffer too large for `dev`, or the host's memory too
  // small) before allocating; DeviceError for a source without a mode_factor per mode slot.
  CylFields(device::Device& dev, const SimulationModel& m, int batch_steps);

  int modes = 0;             // mode slots
  std::size_t cells = 0;     // scalars per plane (nr * nzp)
  std::array<device::Buffer, 6> field;  // Er Ephi Ez Hr Hphi Hz: planes [2 q + part][cells]
  // uint8 per cell: E always, H when magnetic (else the placeholder); tables as in 3D.
  std::array<device::Buffer, 6> ids;
  device::Buffer ecoef, hcoef, mode_m;  // mode_m: int m per slot
  float db_vacuum = 0;

  std::size_t pml_cells = 0;  // psi: [((q * 8 + slot) * 2 + part) * pml_cells + cell]
  device::Buffer psi;
  std::array<device::Buffer, 4> pml_tables;  // r integer, r half, z integer, z half
  // The r slab's 1/r~ state (G and the last input of Er, Ez, Hr, Hz, complex: 16 floats per
  // r-slab cell and mode) and its per-row factors (a, b) at integer r, (a, b) at half r
  // (cyl_r_tilde_table).
  device::Buffer r_tilde, r_over;

  device::Buffer src_cells, src_j;
  int nsrc = 0;
  long src_steps = 0;
  device::Buffer probe_cells, probe_phase, probe_batch;  // batch[slot * nsamples + sample]
  int nsamples = 0;
  device::Buffer flag;

  // output.energy: H of the previous sample (Hr Hphi Hz, all planes), eps_r / mu_r per id, the
  // ring weights per row (integer r, half r), partial sums [slot][3][group].
  std::array<device::Buffer, 3> h_prev;
  device::Buffer energy_eps, energy_mu, energy_rweight, energy_partial;
  int energy_groups = 0;

  device::Buffer placeholder;
  std::size_t allocated = 0;
};

}  // namespace clfdtd::engine
