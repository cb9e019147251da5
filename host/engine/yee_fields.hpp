// Every device buffer of the 3D Yee solver for one model and kernel variant: the six field
// components (two sets for onepass), material ids and coefficient tables, the UPML auxiliaries
// and profiles in the variant's layout, the merged source table, the probe batch, the finite
// flag and the energy reduction's buffers. Sized and checked against the device before anything
// is allocated, zeroed or uploaded once in the constructor; the buffers free themselves with
// this object (it owns the engine's device memory).
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.hpp"
#include "device/device.hpp"
#include "engine/field_buffers.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

using FieldSet = std::array<device::Buffer, 6>;  // Ex Ey Ez Hx Hy Hz, padded float4 rows

struct YeeFields {
  // Throws OutOfMemoryError (model or one buffer too large for `dev`, or the host's memory too
  // small for the upload copies) before allocating.
  YeeFields(device::Device& dev, const SimulationModel& m, KernelVariant v, int batch_steps);

  // Set 0 holds the state after an even number of steps; onepass writes into set 1 then (and
  // into set 0 after an odd number); the other variants update set 0 in place and have no set 1.
  std::array<FieldSet, 2> set;
  // uint8 per cell and float4 per id (256): (ca, cb, inv_eps_r, 0), (db, inv_mu_r). A
  // non-magnetic model has no H ids or H table: `placeholder` stands in for them (the kernels'
  // signatures are the same either way; MAGNETIC selects what they read), and db_vacuum serves.
  std::array<device::Buffer, 6> ids;
  device::Buffer e_ids4;  // onepass and tblock: e_id_float4_table (else `placeholder`)
  device::Buffer h_ids4;  // the same, magnetic models: h_id_float4_table (else `placeholder`)
  device::Buffer ecoef, hcoef;
  float db_vacuum = 0;

  // UPML (when enabled): Dx Dy Dz Bx By Bz (tile and onepass: float4 rows of the x/y slabs,
  // rows: one float per PML cell), tile and onepass's z slabs Bz Dz (the x and y components need
  // none there: upml_lanes.h) and per-float4 z profiles, the float4 profiles (a, b, cp, cm) at
  // integer x y z then half x y z, and the rows variant's box table and split z profiles.
  std::array<device::Buffer, 6> aux;
  std::array<device::Buffer, 2> zaux;
  device::Buffer zlanes;
  std::array<device::Buffer, 6> profiles;
  device::Buffer boxes, z_split;
  // A valid, never-read buffer for arguments a model does not use (H ids and table when not
  // magnetic, rows' UPML tables without PML).
  device::Buffer placeholder;

  device::Buffer src_cells, src_j;  // (component, index) per merged source; J[src * steps + s]
  int nsrc = 0;
  long src_steps = 0;
  PlaneWaveBuffers pw;  // plane waves (field_buffers.hpp)
  DispersionBuffers disp;  // dispersive materials (field_buffers.hpp)
  device::Buffer probe_cells, probe_batch;  // batch[slot * nsamples + sample]
  int nsamples = 0;
  device::Buffer flag;  // check_finite's result

  // output.energy: H of the previous sample, eps_r / mu_r per id (mu_r: placeholder when not
  // magnetic), partial sums [slot][3][group] of the reduction.
  std::array<device::Buffer, 3> h_prev;
  device::Buffer energy_eps, energy_mu, energy_partial;
  int energy_groups = 0;
};

// The named buffers of variant v for m (their total: variant_device_bytes), for the check
// before allocation.
std::vector<BufferNeed> yee_buffer_needs(const SimulationModel& m, KernelVariant v,
                                         int batch_steps);

}  // namespace clfdtd::engine
