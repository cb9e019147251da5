// One model across ranks (distributed_backend.hpp).
#include "parallel/distributed_backend.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>

#include "backends/device_tables.hpp"
#include "device/marker_stamp.hpp"
#include "errors.hpp"
#include "parallel/communicator.hpp"

namespace clfdtd::parallel {

namespace {

device::Api device_api(BackendKind kind) {
#ifdef CLFDTD_HAVE_OPENCL
  if (kind == BackendKind::OpenCl) return device::Api::OpenCL;
#endif
#ifdef CLFDTD_HAVE_CUDA
  if (kind == BackendKind::Cuda) return device::Api::Cuda;
#endif
  throw ConfigError("", 0, "device.backend",
                    "a device backend of this build (opencl or cuda) for a model split over ranks");
}

constexpr char kSep = '\x1f';

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == kSep)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// Runs `setup` on every rank and agrees on the outcome: when some rank failed, every rank throws,
// the failing one its own exception, the others one of the same kind (exit code) that names the
// lowest failing rank and carries its message.
template <class F>
void agree(RankLink& link, F&& setup) {
  std::exception_ptr error;
  std::string message;
  try {
    setup();
  } catch (const ConfigError& e) {
    error = std::current_exception();
    message = std::string("config") + kSep + e.file() + kSep + std::to_string(e.line()) + kSep +
              e.key() + kSep + e.expected();
  } catch (const OutOfMemoryError& e) {
    error = std::current_exception();
    message = std::string("memory") + kSep + e.what();
  } catch (const DeviceError& e) {
    error = std::current_exception();
    message = std::string("device") + kSep + e.what();
  } catch (const std::bad_alloc&) {
    error = std::current_exception();
    message = std::string("memory") + kSep + "not enough host memory";
  } catch (const std::exception& e) {
    error = std::current_exception();
    message = std::string("other") + kSep + e.what();
  }
  std::string failed_message;
  const int failed = link.first_failed(!error, message, failed_message);
  if (failed < 0) return;
  if (error) std::rethrow_exception(error);
  const std::vector<std::string> f = split(failed_message);
  const std::string rank = "rank " + std::to_string(failed) + ": ";
  if (f[0] == "config" && f.size() == 5)
    throw ConfigError(f[1], std::stoi(f[2]), f[3], rank + f[4]);
  const std::string what = f.size() > 1 ? f[1] : failed_message;
  if (f[0] == "memory") throw OutOfMemoryError(rank + what);
  if (f[0] == "device") throw DeviceError(rank + what);
  throw std::runtime_error(rank + what);
}

}  // namespace

DistributedBackend::DistributedBackend(const SimulationModel& global, const DeviceConfig& device,
                                       const Decomposition& d, std::unique_ptr<RankLink> link,
                                       const PeerDeviceFactory& make_peer)
    : global_(global),
      d_(d),
      link_(std::move(link)),
      // Plane waves and dispersive samples correct E (and H) after the whole step, so the halo
      // goes out once the step is done: no overlap.
      overlap_(device.halo_overlap && global.plane_waves.empty() && global.dispersion.empty()) {
  const int ranks = link_->size();
  if (d_.ranks() != ranks) {
    throw std::logic_error("DistributedBackend: a decomposition of " + std::to_string(d_.ranks()) +
                           " boxes for " + std::to_string(ranks) + " ranks");
  }
  for (int r = 0; r < ranks; ++r) {
    const Box& box = d_.boxes[static_cast<std::size_t>(r)];
    boxes_.push_back(box);
    probe_samples_.push_back(owned_probe_samples(global.probes, box));
    std::vector<std::vector<std::size_t>> points;
    for (const MonitorModel& mon : global.monitors) points.push_back(owned_monitor_points(mon, box));
    monitor_points_.push_back(std::move(points));
  }
  agree(*link_, [&] {
    if (global.two_d() || global.cylindrical()) {
      throw ConfigError("", 0, "grid.dims",
                        "a 3D model for a run over ranks (2D and cylindrical models run in one "
                        "process)");
    }
    const device::Api api = device_api(device.backend);
    Part part = make_part(d_, link_->rank());
    if (global.grid.bloch()) {  // two copies along the first periodic axis (part_model.hpp)
      if (ranks != 1)
        throw ConfigError("", 0, "boundary.bloch_k", "a Bloch-periodic model in one process (not over ranks yet)");
      for (int a = 2; a >= 0; --a)
        if (global.grid.periodic[static_cast<std::size_t>(a)]) part.bloch_axis = a;
      part.bloch_phase = global.grid.bloch_phase;
    }
    part_ = slice_model(global, part);
    // Every neighbour this rank itself (a periodic model in one box): the exchange is a copy
    // within the device, with nothing to hide behind the interior update.
    if (std::all_of(part_.part.neighbour.begin(), part_.part.neighbour.end(),
                    [&](int r) { return r < 0 || r == link_->rank(); }))
      overlap_ = false;
    // With the overlap, every step runs split: the owned rows next to the neighbours first.
    const engine::RowSplit split = overlap_ ? overlap_split(part_.part) : engine::RowSplit{};
    engine_ = engine::make_gpu_engine(api, part_.model, device, /*in_place_only=*/true, split);
    // The untiled kernels' build (the rows variant's: a cached program there).
    device::Program program = engine_->device().program(
        {{"TILE_X", 1}, {"TILE_Y", 1}, {"TILE_Z4", 1}, {"MAGNETIC", part_.model.magnetic ? 1 : 0}});
    halo_ = std::make_unique<HaloExchange>(engine_->device(), program, part_.model.layout,
                                           engine_->fields(), part_.part, *link_, global.energy);
    if (overlap_) {
      engine_->set_step_hooks({[this](long) { end_exchange(0); }, [this](long) { end_exchange(1); },
                               [this](long) { begin_exchange(0); },
                               [this](long) { begin_exchange(1); }});
    } else {
      engine_->set_step_hooks(
          {[this](long) { exchange(0); }, [this](long) { exchange(1); }, {}, {}});
    }
    bytes_ = engine_->device_bytes(part_.model) + halo_->device_bytes();
    engine_->finish();
  });
  // The halo path (device.halo_path): its own agreement, since choosing it is collective and
  // needs every rank set up.
  agree(*link_, [&] {
    halo_->set_peer(make_peer_halo(device.halo_path, engine_->device(), *link_, halo_->faces(),
                                   halo_->plane_bytes(), make_peer));
    bytes_ = engine_->device_bytes(part_.model) + halo_->device_bytes();
  });
  std::vector<double> all;
  link_->all_gather({static_cast<double>(bytes_)}, all);
  for (double b : all) {
    bytes_max_ = std::max(bytes_max_, static_cast<std::size_t>(b));
    bytes_sum_ += static_cast<std::size_t>(b);
  }
}

// The halo buffers go before the engine: its queued launches that use them finish first.
DistributedBackend::~DistributedBackend() {
  try {
    if (engine_) engine_->finish();
  } catch (...) {
    // Nothing can be reported from a destructor; the device frees what it can.
  }
}

std::string DistributedBackend::device_description() const {
  // One process (a periodic model run as one part): the device alone.
  if (link_->size() == 1) return engine_->device_description();
  return std::to_string(link_->size()) + " ranks (" + std::to_string(d_.parts[0]) + "x" +
         std::to_string(d_.parts[1]) + "x" + std::to_string(d_.parts[2]) + "), rank " +
         std::to_string(link_->rank()) + ": " + engine_->device_description();
}

void DistributedBackend::step(long s) { engine_->step(s); }

void DistributedBackend::exchange(int group) {
  // The pack's read waits for the phase's kernels anyway; waiting first keeps their time out of
  // the exchange's. The device then idles throughout: all of it is exposed. A local exchange
  // (a periodic model in one box) only queues device work: nothing to wait for.
  if (!halo_->all_local()) engine_->finish();
  const double t0 = device::steady_seconds();
  halo_->exchange(group);
  const double dt = device::steady_seconds() - t0;
  exchange_seconds_ += dt;
  exposed_seconds_ += dt;
}

void DistributedBackend::begin_exchange(int group) {
  const double t0 = device::steady_seconds();
  halo_->begin(group);
  exchange_seconds_ += device::steady_seconds() - t0;
}

void DistributedBackend::end_exchange(int group) {
  // Complete once the rest of the phase is: the device idles from then until end() has queued
  // the write and unpack (and, behind them, the next phase).
  const device::Marker computed = engine_->device().mark();
  const double t0 = device::steady_seconds();
  const double done_before = computed.completed_at();
  halo_->end(group);
  const double t1 = device::steady_seconds();
  exchange_seconds_ += t1 - t0;
  double done = done_before >= 0 ? done_before : computed.completed_at();
  if (done >= 0) exposed_seconds_ += t1 - std::clamp(done, t0, t1);
}

DistributedBackend::HaloTiming DistributedBackend::halo_timing() {
  std::vector<double> all;
  link_->all_gather({exchange_seconds_, exposed_seconds_}, all);
  HaloTiming t;
  t.overlap = overlap_;
  t.path = halo_->path();
  t.exchange_s = exchange_seconds_;
  t.exposed_s = exposed_seconds_;
  for (std::size_t r = 0; 2 * r + 1 < all.size(); ++r) {
    t.exchange_s_max = std::max(t.exchange_s_max, all[2 * r]);
    t.exposed_s_max = std::max(t.exposed_s_max, all[2 * r + 1]);
  }
  return t;
}

void DistributedBackend::read_probe_batch(int slots, std::vector<double>& out) {
  std::vector<double> mine, all;
  engine_->read_probe_batch(slots, mine);
  link_->all_gather(mine, all);
  out.clear();
  const std::size_t total = global_.probes.samples.size();
  if (total == 0 || slots <= 0) return;
  const std::size_t rows = static_cast<std::size_t>(std::min(slots, engine_->probe_batch_steps()));
  out.assign(rows * total, 0.0);
  std::size_t at = 0;
  for (const std::vector<int>& map : probe_samples_) {
    const std::size_t n = map.size();
    for (std::size_t row = 0; row < rows; ++row)
      for (std::size_t l = 0; l < n; ++l)
        out[row * total + static_cast<std::size_t>(map[l])] = all[at + row * n + l];
    at += rows * n;
  }
}

void DistributedBackend::read_field_copy(Component c, int copy, std::vector<float>& out) {
  std::vector<float> local;
  engine_->read_field(c, local);
  const Part& p = part_.part;
  // The copy's owned cells: [lo, hi) per axis, shifted by whole copies along the Bloch axis.
  const std::array<int, 3> n = p.local_n(), one = p.copy_n();
  std::array<int, 3> lo = p.ghost_lo, hi{};
  for (int a = 0; a < 3; ++a) hi[a] = one[a] - p.ghost_hi[a];
  if (p.bloch_axis >= 0 && copy == 1) {
    lo[static_cast<std::size_t>(p.bloch_axis)] += one[static_cast<std::size_t>(p.bloch_axis)];
    hi[static_cast<std::size_t>(p.bloch_axis)] += one[static_cast<std::size_t>(p.bloch_axis)];
  }
  std::vector<float> owned;
  owned.reserve(static_cast<std::size_t>(p.owned.cells()));
  for (int i = lo[0]; i < hi[0]; ++i)
    for (int j = lo[1]; j < hi[1]; ++j) {
      const std::size_t row = (static_cast<std::size_t>(i) * n[1] + j) * n[2];
      owned.insert(owned.end(), local.begin() + static_cast<long>(row) + lo[2],
                   local.begin() + static_cast<long>(row) + hi[2]);
    }
  std::vector<float> all;
  link_->gather(owned, all, 0);
  out.clear();
  if (link_->rank() != 0) return;
  const std::array<int, 3>& gn = global_.grid.n;
  out.assign(static_cast<std::size_t>(gn[0]) * gn[1] * gn[2], 0.0f);
  std::size_t at = 0;
  for (const Box& b : boxes_) {
    const int nk = b.hi[2] - b.lo[2];
    for (int i = b.lo[0]; i < b.hi[0]; ++i)
      for (int j = b.lo[1]; j < b.hi[1]; ++j) {
        std::copy(all.begin() + static_cast<long>(at), all.begin() + static_cast<long>(at) + nk,
                  out.begin() + static_cast<long>((static_cast<std::size_t>(i) * gn[1] + j) * gn[2] + b.lo[2]));
        at += static_cast<std::size_t>(nk);
      }
  }
}

bool DistributedBackend::fields_finite() { return link_->all(engine_->fields_finite()); }

// The kernel sums every local cell, so the ghost planes must add nothing: the engine updates its
// ghost cells like its own, and the values there that no exchange replaces and no owned cell
// reads drift from step to step (a long periodic run's grow far past the fields'), under which
// the float sums would lose the owned cells' energy. So the ghost planes are zeroed first (the
// kernel's H_prev there is then zero too), and the E planes the next H update reads are
// exchanged again. On the device-to-device path that second exchange may copy into a
// neighbour's receive buffer while its first unpack still reads it: the same bytes, but for the
// edge and corner ghost cells the zeroing changed, which no owned cell reads.
void DistributedBackend::sample_energy(int slot) {
  const bool ghosts = !halo_->faces().empty();
  if (ghosts) halo_->clear_ghosts();
  engine_->sample_energy(slot);
  if (ghosts) exchange(1);
}

void DistributedBackend::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  std::vector<EnergyTerms> mine;
  engine_->read_energy_batch(slots, mine);
  std::vector<double> sums(3 * mine.size());
  for (std::size_t s = 0; s < mine.size(); ++s) {
    sums[3 * s] = mine[s].electric;
    sums[3 * s + 1] = mine[s].magnetic;
    sums[3 * s + 2] = mine[s].magnetic_now;
  }
  link_->sum(sums);
  out.clear();
  for (std::size_t s = 0; s < mine.size(); ++s)
    out.push_back(EnergyTerms{sums[3 * s], sums[3 * s + 1], sums[3 * s + 2]});
}

void DistributedBackend::read_dft(int monitor, std::vector<std::complex<double>>& out) {
  if (monitor < 0 || monitor >= static_cast<int>(global_.monitors.size())) {
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) + " is not a monitor of the model");
  }
  const MonitorModel& mon = global_.monitors[static_cast<std::size_t>(monitor)];
  if (mon.kind == MonitorKind::Modes) {
    throw DeviceError("read_dft: monitor " + std::to_string(monitor) +
                      " is not a flux, dft or farfield monitor of the model");
  }
  const std::size_t nf = mon.frequencies_hz.size();
  const std::vector<std::size_t>& map = part_.monitor_points[static_cast<std::size_t>(monitor)];
  std::vector<std::complex<double>> mine;
  if (!map.empty()) engine_->read_dft(monitor, mine);
  std::vector<double> sums(2 * mon.points() * nf, 0.0);
  for (std::size_t l = 0; l < map.size() && !mine.empty(); ++l)
    for (std::size_t f = 0; f < nf; ++f) {
      const std::complex<double> v = mine[l * nf + f];
      sums[2 * (map[l] * nf + f)] = v.real();
      sums[2 * (map[l] * nf + f) + 1] = v.imag();
    }
  link_->sum(sums);
  out.resize(mon.points() * nf);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {sums[2 * i], sums[2 * i + 1]};
}

void DistributedBackend::read_mode_batch(int monitor, int slots, std::vector<double>& out) {
  engine_->read_mode_batch(monitor, slots, out);
  link_->sum(out);
}

double DistributedBackend::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  engine_->finish();
  const auto t0 = std::chrono::steady_clock::now();
  for (long s = first; s < first + count; ++s) step(s);
  engine_->finish();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> all;
  link_->all_gather({mine}, all);
  return *std::max_element(all.begin(), all.end());
}

std::size_t DistributedBackend::device_bytes(const SimulationModel&) const { return bytes_; }

std::unique_ptr<Backend> make_distributed_backend(const SimulationModel& global,
                                                  const DeviceConfig& device,
                                                  const Decomposition& d, Communicator& comm) {
  return std::make_unique<DistributedBackend>(global, device, d, communicator_link(comm));
}

}  // namespace clfdtd::parallel
