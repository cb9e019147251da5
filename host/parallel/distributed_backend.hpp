// One model run across ranks (docs/MPI.md): a Backend for the GLOBAL model, so the time loop runs
// unchanged on every rank, over this rank's GpuEngine on its part (part_model.hpp) and the halo
// exchange (halo_exchange.hpp) run between the H and E phases of every step.
// Every member that returns something the loop decides on gives the same answer on every rank,
// so every rank must call the same members in the same order (each is collective, or calls
// only this rank's device): read_probe_batch (all-gathered, global sample order, on every rank),
// fields_finite (and over ranks), read_energy_batch (summed; the ghost planes zeroed before each sample), read_dft
// and read_mode_batch (summed: each point is owned by one rank, every rank gets the whole
// transform), read_field (gathered to rank 0; empty on the others), timed_steps (the slowest
// rank's wall time).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "engine/gpu_engine.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/halo_exchange.hpp"
#include "parallel/part_model.hpp"
#include "parallel/peer_halo.hpp"
#include "parallel/rank_link.hpp"

namespace clfdtd::parallel {

class Communicator;

class DistributedBackend final : public Backend {
public:
  // Slices `global` (which outlives this) to `link`'s rank's part of `d`, opens the device of
  // device.select (this rank's entry, already picked) and builds the engine (never onepass).
  // Collective: when any rank fails to set up (its memory check, device, kernel build), every
  // rank throws, the failing rank its own error, the others the same kind of error naming the
  // rank (parallel::rank_failure), so no rank waits for another that will never come.
  // make_peer: the device operations of the device-to-device halo path (peer_halo.hpp; the
  // tests pass a stand-in).
  DistributedBackend(const SimulationModel& global, const DeviceConfig& device,
                     const Decomposition& d, std::unique_ptr<RankLink> link,
                     const PeerDeviceFactory& make_peer = make_peer_device);
  ~DistributedBackend() override;

  std::string name() const override { return engine_->name(); }
  // "K ranks (PXxPYxPZ), rank R: <this rank's device>"; one rank: the device's alone.
  std::string device_description() const override;
  std::string kernel_variant() const override { return engine_->kernel_variant(); }

  void step(long s) override;
  void sample_probes(int slot) override { engine_->sample_probes(slot); }
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return engine_->probe_batch_steps(); }
  void read_field(Component c, std::vector<float>& out) override { read_field_copy(c, 0, out); }
  // A Bloch model's copy `copy` (0 the real part, 1 the imaginary: part_model.hpp), as
  // read_field; copy 0 of any other model.
  void read_field_copy(Component c, int copy, std::vector<float>& out);
  bool fields_finite() override;
  void finish() override { engine_->finish(); }
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;
  void accumulate_dft(long step) override { engine_->accumulate_dft(step); }
  void read_dft(int monitor, std::vector<std::complex<double>>& out) override;
  void sample_modes(int monitor, int slot) override { engine_->sample_modes(monitor, slot); }
  void read_mode_batch(int monitor, int slots, std::vector<double>& out) override;
  // Wall clock of the slowest rank (the exchange runs on the host between launches).
  double timed_steps(long first, long count) override;
  double copy_bandwidth() override { return engine_->copy_bandwidth(); }
  std::string driver_version() const override { return engine_->driver_version(); }
  // This rank's device memory: its engine on its part plus the halo buffers.
  std::size_t device_bytes(const SimulationModel& m) const override;
  std::size_t device_bytes_max() const { return bytes_max_; }  // over the ranks
  std::size_t device_bytes_sum() const { return bytes_sum_; }

  // Wall seconds this rank's host spent in the halo exchanges so far (begin and end: enqueueing
  // the pack and read, waiting for the read, the transfer, enqueueing the write and unpack), to
  // set against timed_steps().
  double exchange_seconds() const { return exchange_seconds_; }
  // How the halos travel (device.halo_path as agreed by the ranks): "host" or "device".
  const char* halo_path() const { return halo_->path(); }
  // The part of exchange_seconds() the device sat idle for: in end(), from when the device had
  // finished everything queued before it (the rest of the phase; the host's completion
  // callback, or its first look) to when end() had queued the next work. Without overlap the
  // whole exchange (the device is idle throughout).
  double exposed_seconds() const { return exposed_seconds_; }
  bool halo_overlap() const { return overlap_; }

  // The "halo" block of run.json (docs/MPI.md). Collective: every rank calls it at one point.
  struct HaloTiming {
    bool overlap = true;
    std::string path;                    // HaloExchange::path()
    double exchange_s = 0, exposed_s = 0;  // rank 0's
    double exchange_s_max = 0, exposed_s_max = 0;  // over the ranks
  };
  HaloTiming halo_timing();

  const PartModel& part() const { return part_; }
  RankLink& link() { return *link_; }

private:
  void exchange(int group);  // without the overlap: begin and end at once
  void begin_exchange(int group);
  void end_exchange(int group);

  const SimulationModel& global_;
  Decomposition d_;
  std::unique_ptr<RankLink> link_;
  PartModel part_;
  std::unique_ptr<engine::GpuEngine> engine_;
  std::unique_ptr<HaloExchange> halo_;
  std::vector<Box> boxes_;                       // every rank's owned box
  std::vector<std::vector<int>> probe_samples_;  // per rank: global sample index of each local one
  std::vector<std::vector<std::vector<std::size_t>>> monitor_points_;  // [rank][monitor]
  std::size_t bytes_ = 0, bytes_max_ = 0, bytes_sum_ = 0;
  bool overlap_ = true;
  double exchange_seconds_ = 0, exposed_seconds_ = 0;
};

// The backend for `comm`'s rank (make_part(d, comm.rank())). Throws as the constructor.
std::unique_ptr<Backend> make_distributed_backend(const SimulationModel& global,
                                                  const DeviceConfig& device,
                                                  const Decomposition& d, Communicator& comm);

}  // namespace clfdtd::parallel
