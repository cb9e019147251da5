// The cylindrical model's angular modes spread over several devices (docs/CYLINDRICAL.md,
// "Modes over several devices"): device.select lists K > 1 devices, the model's mode slots are
// cut into K contiguous parts as even as possible, and each device runs a CylEngine on a model
// holding its part (grid.modes and the sources' mode factors of those slots). The modes do not
// couple, so the devices never exchange fields: a step is queued on every device before any is
// waited on (they run at the same time), and what the time loop reads back is combined on the
// host: probes, read_field and energy summed, read_mode_field from the device holding the slot.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "device/device.hpp"
#include "engine/cyl/cyl_engine.hpp"

namespace clfdtd::engine {

// The mode slots 0 .. modes-1 cut into `devices` contiguous parts, the first (modes % devices)
// one slot longer. Throws ConfigError (key device.select) when there are more devices than
// modes (a device would run nothing).
std::vector<std::vector<int>> split_mode_slots(std::size_t modes, std::size_t devices);

// A copy of the cylindrical model `m` holding only the mode slots `slots` (in that order):
// grid.modes and every source's mode_factor cut to them; everything else as in m.
SimulationModel cyl_model_with_slots(const SimulationModel& m, const std::vector<int>& slots);

class CylMultiEngine final : public Backend {
public:
  // One engine per entry of `selects` (each a device.select entry, device::choose_device), on
  // the parts split_mode_slots gives. Every device's part is checked against the device's
  // memory before any engine allocates (a device named twice must hold both parts). Throws
  // ConfigError (more devices than modes, a device not found, as CylEngine), OutOfMemoryError,
  // DeviceError.
  CylMultiEngine(device::Api api, const SimulationModel& m, const DeviceConfig& cfg,
                 const std::vector<std::string>& selects);
  ~CylMultiEngine() override;

  std::string name() const override;  // the API: "opencl", "cuda"
  // Every device with its modes: "m = 0 1 on <description>; m = 2 on <description>".
  std::string device_description() const override;
  std::vector<DevicePart> device_parts() const override;
  // Each device's variant with its modes, "; "-separated.
  std::string kernel_variant() const override;

  // Queues step s on every device, then returns (nothing waits here).
  void step(long s) override;
  void sample_probes(int slot) override;
  // The devices' batches summed sample by sample (each is the sum over its own modes).
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return DeviceEngine::kProbeBatchSteps; }
  void read_field(Component c, std::vector<float>& out) override;  // sum over the devices
  void read_mode_field(int slot, Component c, std::vector<std::complex<float>>& out) override;
  bool fields_finite() override;  // every device's
  void finish() override;
  void sample_energy(int slot) override;
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;  // summed
  // The wall clock between two finish() calls over every device (Backend's default): the
  // devices' timers do not share a clock.
  // The devices' copy bandwidths summed, each measured alone.
  double copy_bandwidth() override;
  std::string driver_version() const override;  // the first device's
  // Every device's buffers: the sum of each part's cyl_device_bytes (m is ignored: each engine
  // counts the part it was built for).
  std::size_t device_bytes(const SimulationModel& m) const override;

  std::size_t devices() const { return engines_.size(); }
  const CylEngine& engine(std::size_t d) const { return *engines_.at(d); }
  const std::vector<int>& slots(std::size_t d) const { return slots_.at(d); }

private:
  // out = the first device's read, then each other device's added element by element.
  template <class T, class Read>
  void sum_over_devices(std::vector<T>& out, Read read);

  // Each part's model, owned here and kept at a fixed address (the engines refer to them).
  std::vector<std::unique_ptr<SimulationModel>> parts_;
  std::vector<std::vector<int>> slots_;       // the full model's mode slots of each part
  std::vector<std::unique_ptr<CylEngine>> engines_;  // destroyed before parts_
  std::vector<std::pair<std::size_t, int>> where_;  // full slot q -> (device, its slot)
};

// A CylEngine for one entry, a CylMultiEngine for a list (device::split_device_select of
// cfg.select).
std::unique_ptr<Backend> make_cyl_device_backend(device::Api api, const SimulationModel& m,
                                                 const DeviceConfig& cfg);

}  // namespace clfdtd::engine
