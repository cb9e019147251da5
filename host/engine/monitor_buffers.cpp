// The monitors' device buffers: sizes, region tables, allocation, upload (monitor_buffers.hpp).
#include "engine/monitor_buffers.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "engine/variant_choice.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

namespace {

constexpr std::size_t kF = sizeof(float);
constexpr std::size_t kMaxIndex =
    static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());

std::size_t ring_bytes(const MonitorModel& mon, int slots) {
  return static_cast<std::size_t>(slots) * mon.points() * kF;
}
std::size_t acc_bytes(const MonitorModel& mon) {
  return 2 * mon.frequencies_hz.size() * mon.points() * kF;
}
std::size_t weight_bytes(const MonitorModel& mon) {
  return 2 * static_cast<std::size_t>(dft_ring_slots(mon)) *
         static_cast<std::size_t>(dft_padded_frequencies(mon)) * 2 * kF;
}

// The regions with at least one sample, as the kernels' table: component, lo, hi, first point.
// A region reaching outside the grid would make the gather read outside the fields: refused.
std::vector<std::int32_t> region_table(const MonitorModel& mon, const std::array<int, 3>& n) {
  std::vector<std::int32_t> t;
  std::size_t first = 0;
  for (const DftRegion& r : mon.regions) {
    if (r.count() == 0) continue;
    for (int a = 0; a < 3; ++a) {
      if (r.lo[a] < 0 || r.hi[a] > n[a]) {
        throw DeviceError("monitor " + mon.name + ": a " + component_name(r.component) +
                          " region covers cells " + std::to_string(r.lo[a]) + ".." +
                          std::to_string(r.hi[a] - 1) + " along axis " + "xyz"[a] +
                          ", outside the grid's 0.." + std::to_string(n[a] - 1));
      }
    }
    t.push_back(static_cast<std::int32_t>(r.component));
    for (int a = 0; a < 3; ++a) t.push_back(r.lo[a]);
    for (int a = 0; a < 3; ++a) t.push_back(r.hi[a]);
    t.push_back(static_cast<std::int32_t>(first));
    first += r.count();
  }
  return t;
}

}  // namespace

int dft_ring_slots(const MonitorModel& mon) {
  int slots = kDftMaxRingSlots;
  const std::size_t cap = std::max<std::size_t>(std::size_t{64} << 20, 2 * acc_bytes(mon));
  while (slots > 1 && ring_bytes(mon, slots) > cap) slots /= 2;
  return slots;
}

int dft_padded_frequencies(const MonitorModel& mon) {
  const std::size_t f = std::max<std::size_t>(mon.frequencies_hz.size(), 1);
  return static_cast<int>(round_up(f, kDftChunk));
}

int mode_groups(const SimulationModel& m) {
  const std::size_t count4 = m.layout.cells() / 4;  // float4s of a field, 3D or plane
  return static_cast<int>(
      std::clamp<std::size_t>((count4 + kModeGroup - 1) / kModeGroup, 1, kModeMaxGroups));
}

std::vector<BufferNeed> monitor_buffer_needs(const SimulationModel& m, int batch_steps) {
  std::vector<BufferNeed> out;
  const std::size_t batch = static_cast<std::size_t>(std::max(batch_steps, 0));
  for (const MonitorModel& mon : m.monitors) {
    const std::string name = "monitor " + mon.name + " ";
    if (is_dft_monitor(mon)) {
      if (mon.points() == 0 || mon.frequencies_hz.empty()) continue;
      out.push_back({name + "regions", mon.regions.size() * 8 * sizeof(std::int32_t), mon.name});
      out.push_back({name + "DFT ring", ring_bytes(mon, dft_ring_slots(mon)), mon.name});
      out.push_back({name + "DFT weights", weight_bytes(mon), mon.name});
      out.push_back({name + "DFT accumulators", acc_bytes(mon), mon.name});
    } else if (mon.nmodes > 0) {
      out.push_back({name + "mode shapes",
                     static_cast<std::size_t>(mon.nmodes) * 3 * m.layout.cells() * kF, mon.name});
      out.push_back({name + "projection batch",
                     batch * static_cast<std::size_t>(mon.nmodes) *
                         static_cast<std::size_t>(mode_groups(m)) * kF,
                     mon.name});
    }
  }
  return out;
}

std::size_t monitor_device_bytes(const SimulationModel& m, int batch_steps) {
  std::size_t bytes = 0;
  for (const BufferNeed& b : monitor_buffer_needs(m, batch_steps)) bytes += b.bytes;
  return bytes;
}

MonitorBuffers::MonitorBuffers(device::Device& dev, const SimulationModel& m, int batch_steps) {
  auto alloc = [&dev, this](std::size_t bytes) {
    allocated += bytes;
    return dev.alloc(bytes);
  };
  auto zeros = [&alloc, &dev](std::size_t bytes) {
    device::Buffer b = alloc(bytes);
    dev.fill_zero(b);
    return b;
  };
  for (std::size_t i = 0; i < m.monitors.size(); ++i) {
    const MonitorModel& mon = m.monitors[i];
    if (is_dft_monitor(mon)) {
      if (mon.points() == 0 || mon.frequencies_hz.empty()) continue;
      DftMonitorBuffers b;
      b.monitor = static_cast<int>(i);
      b.ring_slots = dft_ring_slots(mon);
      b.nfreq = static_cast<int>(mon.frequencies_hz.size());
      b.nfreq_pad = dft_padded_frequencies(mon);
      // The kernels index ring and accumulators with 32-bit ints.
      const std::size_t points = mon.points();
      if (points * static_cast<std::size_t>(std::max(b.ring_slots, 2 * b.nfreq)) > kMaxIndex) {
        throw DeviceError("monitor " + mon.name + ": " + std::to_string(points) + " points x " +
                          std::to_string(b.nfreq) +
                          " frequencies exceed the device kernels' 2^31 entries; use a smaller "
                          "box or fewer frequencies");
      }
      b.npoints = static_cast<int>(points);
      const std::vector<std::int32_t> table = region_table(mon, m.grid.n);
      b.nregions = static_cast<int>(table.size() / 8);
      b.regions = alloc(table.size() * sizeof(std::int32_t));
      dev.upload(b.regions, table.data(), table.size() * sizeof(std::int32_t));
      b.ring = zeros(ring_bytes(mon, b.ring_slots));
      b.weights = zeros(weight_bytes(mon));
      b.acc = zeros(acc_bytes(mon));
      dft.push_back(b);
    } else if (mon.nmodes > 0) {
      ModeMonitorBuffers b;
      b.monitor = static_cast<int>(i);
      b.nmodes = mon.nmodes;
      b.groups = mode_groups(m);
      const std::size_t floats = static_cast<std::size_t>(mon.nmodes) * 3 * m.layout.cells();
      if (mon.modes.size() != floats) {
        throw DeviceError(
            "monitor " + mon.name + ": mode data holds " + std::to_string(mon.modes.size()) +
            " values, expected " + std::to_string(floats) + " (" + std::to_string(mon.nmodes) +
            " modes x 3 components x " + std::to_string(m.layout.cells()) + " padded cells)");
      }
      const std::size_t batch = static_cast<std::size_t>(std::max(batch_steps, 1));
      if (batch * static_cast<std::size_t>(b.nmodes) * static_cast<std::size_t>(b.groups) >
          kMaxIndex) {
        throw DeviceError("monitor " + mon.name + ": " + std::to_string(b.nmodes) +
                          " modes exceed the projection kernel's 2^31 partial sums per batch");
      }
      b.modes = alloc(floats * kF);
      if (m.two_d()) {
        // The projection reads a carried E in place of one the model does not carry
        // (plan_monitors): zero mode data there keeps it out of the sum.
        std::vector<float> carried(mon.modes);
        const std::size_t cells = m.layout.cells();
        for (int k = 0; k < mon.nmodes; ++k)
          for (int c = 0; c < 3; ++c)
            if (!m.is_active(static_cast<Component>(c)))
              std::fill_n(carried.begin() + static_cast<std::ptrdiff_t>((static_cast<std::size_t>(k) * 3 + c) * cells),
                          cells, 0.0f);
        dev.upload(b.modes, carried.data(), floats * kF);
      } else {
        dev.upload(b.modes, mon.modes.data(), floats * kF);
      }
      b.partial = zeros(batch * static_cast<std::size_t>(b.nmodes) *
                        static_cast<std::size_t>(b.groups) * kF);
      modes.push_back(b);
    }
  }
}

}  // namespace clfdtd::engine
