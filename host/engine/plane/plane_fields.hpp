// Every device buffer of the 2D Yee solver (tm or te) for one model: the three active field
// components in the plane layout (FieldLayout::xy_plane, float4 lanes along y), their material
// ids, the coefficient tables (the 3D float4 formats), the UPML auxiliaries of the PML cells only
// (compact, 3 floats per cell: cl_kernels/plane_common.h numbers the cells), the x and y profiles,
// the merged source table, the plane waves' and the dispersive samples' tables, the probe batch,
// the finite flag and the energy reduction's buffers.
// Sized and checked against the device (check_device_memory) before anything is allocated; the
// buffers free themselves with this object. Inactive components are a small placeholder buffer
// that no kernel indexes.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "device/device.hpp"
#include "engine/field_buffers.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// PML cells of a 2D model's x and y slabs: (xlo + xhi) * ny + (nx - xlo - xhi) * (ylo + yhi).
std::size_t plane_pml_cells(const SimulationModel& m);

// Every buffer PlaneFields allocates for m, by name, with its exact size.
std::vector<BufferNeed> plane_buffer_needs(const SimulationModel& m, int batch_steps);
// Their sum: what the engine allocates and reports (Backend::device_bytes).
std::size_t plane_device_bytes(const SimulationModel& m, int batch_steps);

struct PlaneFields {
  // Throws OutOfMemoryError (model or one buffer too large for `dev`, or the host's memory too
  // small for the upload copies) before allocating; ConfigError for a probe or source on a
  // component the model does not carry.
  PlaneFields(device::Device& dev, const SimulationModel& m, int batch_steps);

  std::array<device::Buffer, 6> field;  // Ex Ey Ez Hx Hy Hz; inactive: placeholder
  // uint8 per cell for the active E components (and the active H ones when magnetic);
  // float4 per id (256): E (ca, cb, inv_eps_r, 0), H (db, inv_mu_r, 0, 0) when magnetic.
  std::array<device::Buffer, 6> ids;
  device::Buffer ecoef, hcoef;
  float db_vacuum = 0;

  // UPML (when the model has PML cells): the auxiliaries in component order of the kernels
  // (tm: Bx By Dz, te: Dx Dy Bz), one float per PML cell; profiles (a, b, cp, cm) per cell
  // index: integer x, integer y, half x, half y.
  std::size_t pml_cells = 0;
  std::array<device::Buffer, 3> aux;
  std::array<device::Buffer, 4> profiles;

  device::Buffer src_cells, src_j;  // (component, index) per merged source; J[src * steps + s]
  int nsrc = 0;
  long src_steps = 0;
  PlaneWaveBuffers pw;     // plane waves (field_buffers.hpp)
  DispersionBuffers disp;  // dispersive materials (field_buffers.hpp)
  device::Buffer probe_cells, probe_batch;  // batch[slot * nsamples + sample]
  int nsamples = 0;
  device::Buffer flag;  // check_finite's result

  // output.energy: the active H components of the previous sample (tm: Hx Hy; te: Hz and a
  // placeholder), eps_r / mu_r per id, partial sums [slot][3][group].
  std::array<device::Buffer, 2> h_prev;
  device::Buffer energy_eps, energy_mu, energy_partial;
  int energy_groups = 0;

  device::Buffer placeholder;
  std::size_t allocated = 0;  // bytes of every buffer above, as allocated (not the monitors')
};

}  // namespace clfdtd::engine
