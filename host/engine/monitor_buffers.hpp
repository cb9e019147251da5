// The device buffers of the model's monitors (model/monitors.hpp), beside YeeFields: per DFT
// monitor (flux, dft, farfield) its region table, the ring of the last B steps' samples, the
// per-batch weights and the accumulators (cl_kernels/monitor_dft.cl); per modes monitor its mode
// shapes and the batch of partial sums (cl_kernels/mode_projection.cl). Their sizes are part of
// variant_device_bytes and of the named buffers checked before anything is allocated
// (yee_buffer_needs), so a model whose monitors do not fit is refused before allocating.
#pragma once
#include <cstddef>
#include <vector>

#include "device/device.hpp"
#include "engine/yee_fields.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd::engine {

// The kernels' compile-time sizes (their defaults in the .cl files).
constexpr int kDftChunk = 16;  // DFT_CHUNK: frequencies per work-item
constexpr int kDftMaxRingSlots = 32;
constexpr int kModeGroup = 128;  // MODE_GROUP: work-items per group of the projection
constexpr int kModeBlock = 8;    // MODE_BLOCK: modes per work-item
constexpr int kModeMaxGroups = 256;

// flux, dft and farfield monitors are transformed on the device; modes monitors are projected.
inline bool is_dft_monitor(const MonitorModel& mon) { return mon.kind != MonitorKind::Modes; }

// B, the ring slots of one DFT monitor: 32, halved (down to 1) while the ring would take more than
// twice its accumulators and more than 64 MiB, so a volume dft monitor with few frequencies does
// not multiply its memory (its accumulate stage then runs more often).
int dft_ring_slots(const MonitorModel& mon);
// Frequencies rounded up to whole DFT_CHUNKs (the weights' row length).
int dft_padded_frequencies(const MonitorModel& mon);
// Work-groups of one projection (dimension 0): enough for the model's float4s, at most 256.
int mode_groups(const SimulationModel& m);

// The monitors' buffers, named "monitor <name> <what>", in model order.
std::vector<BufferNeed> monitor_buffer_needs(const SimulationModel& m, int batch_steps);
std::size_t monitor_device_bytes(const SimulationModel& m, int batch_steps);

struct DftMonitorBuffers {
  int monitor = 0;  // index in SimulationModel::monitors
  int npoints = 0, nregions = 0, nfreq = 0, nfreq_pad = 0, ring_slots = 0;
  // regions: 8 ints per region (component, lo[3], hi[3], first point); ring[slot * npoints + p];
  // weights[((kind * ring_slots + slot) * nfreq_pad + f) * 2 + {re, im}];
  // acc[(2 f + {0 re, 1 im}) * npoints + p].
  device::Buffer regions, ring, weights, acc;
};

struct ModeMonitorBuffers {
  int monitor = 0;
  int nmodes = 0, groups = 0;
  device::Buffer modes;    // MonitorModel::modes as uploaded
  device::Buffer partial;  // [(slot * nmodes + k) * groups + group]
};

struct MonitorBuffers {
  // Allocates and uploads; the memory was checked with YeeFields' check (yee_buffer_needs).
  // Throws DeviceError where a monitor's sizes exceed the kernels' 32-bit indices, or its mode
  // data does not match the grid.
  MonitorBuffers(device::Device& dev, const SimulationModel& m, int batch_steps);
  std::vector<DftMonitorBuffers> dft;     // DFT monitors with at least one point
  std::vector<ModeMonitorBuffers> modes;  // modes monitors with at least one mode
  std::size_t allocated = 0;              // bytes of every buffer above, as allocated
};

}  // namespace clfdtd::engine
