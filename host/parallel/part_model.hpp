// One rank's share of a model split over ranks (docs/MPI.md): the global SimulationModel sliced to
// the box the rank owns plus one ghost plane on each side that has a neighbour rank. The local
// engine runs the part model unchanged; the halo exchange (halo_exchange.hpp) copies into the ghost
// planes every neighbour value an owned cell reads, so every owned cell is updated as in one
// process. Local cell (0,0,0) is global cell `origin`.
#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "model/simulation_model.hpp"
#include "parallel/decomposition.hpp"

namespace clfdtd::parallel {

struct Part {
  Box owned;                                  // global cells this rank owns
  std::array<int, 3> origin{};                // global index of local cell (0,0,0) = owned.lo - ghost_lo
  std::array<int, 3> ghost_lo{}, ghost_hi{};  // 0 or 1 per axis: a ghost plane on that side
  std::array<int, 6> neighbour{-1, -1, -1, -1, -1, -1};  // rank across face x-, x+, y-, y+, z-, z+
  // A magnetic wall on the low face of the axis (boundary.pmc) that this part touches: its ghost
  // plane there holds the mirror image of the part's first plane (tangential H negated).
  std::array<bool, 3> mirror_lo{};
  // A Bloch-periodic model (boundary.bloch_k, one process): the local grid holds two copies of
  // the part side by side along this axis (its first periodic one), the real part in local cells
  // [0, copy_n()[a]) and the imaginary part in the next copy_n()[a]; the halo exchange turns the
  // planes it carries across a period by exp(+-i bloch_phase[axis]). -1: one copy.
  int bloch_axis = -1;
  std::array<double, 3> bloch_phase{};
  // Cells of one copy per axis: owned + ghost planes.
  std::array<int, 3> copy_n() const {
    return {owned.hi[0] - owned.lo[0] + ghost_lo[0] + ghost_hi[0],
            owned.hi[1] - owned.lo[1] + ghost_lo[1] + ghost_hi[1],
            owned.hi[2] - owned.lo[2] + ghost_lo[2] + ghost_hi[2]};
  }
  // Cells of the local grid per axis: copy_n(), twice along a Bloch model's bloch_axis.
  std::array<int, 3> local_n() const {
    std::array<int, 3> n = copy_n();
    if (bloch_axis >= 0) n[static_cast<std::size_t>(bloch_axis)] *= 2;
    return n;
  }
};

Part make_part(const Decomposition& d, int rank);

struct PartModel {
  SimulationModel model;  // the local grid: layout of local_n(), everything in local indices
  Part part;
  // Global sample index (into the global ProbeSet::samples) of each local probe sample, in
  // local order.
  std::vector<int> probe_samples;
  // Per monitor (same indices as the global model's): the global point index of each local point
  // of a flux, dft or farfield monitor, in local point order; empty for modes monitors.
  std::vector<std::vector<std::size_t>> monitor_points;
};

// The global model sliced to `part`: ids and cell_ids of the local cells (padding PEC), the UPML
// layer counts of the local grid (so a cell is PML exactly where it is globally), profiles
// sliced at the origin, boxes clipped and re-offset; the sources and probe samples whose cell
// the part owns, shifted to local indices; flux/dft/farfield regions clipped to the owned box;
// modes monitors' shapes sliced, zero in ghost cells (a projection counts owned cells only); the
// dispersive samples the part owns; the plane waves' corrections of every local sample (their
// incident tables whole).
// Probe windows, monitor names, frequencies and decimation, energy and snapshot steps are kept.
// With part.bloch_axis: that slice twice along the axis (ids, PML boxes and profiles repeated), the
// sources and probe samples in the first copy (the real part) only.
PartModel slice_model(const SimulationModel& global, const Part& part);

// What slice_model keeps of the probes and monitors, without slicing anything else (the backend
// needs every rank's maps on every rank): the global probe sample indices `owned` owns, in
// global order, and per DFT monitor the global point indices in the order of the clipped regions.
std::vector<int> owned_probe_samples(const ProbeSet& probes, const Box& owned);
std::vector<std::size_t> owned_monitor_points(const MonitorModel& mon, const Box& owned);

}  // namespace clfdtd::parallel
