// The engine interface (patent step 4). A backend owns the field state for one SimulationModel
// and advances it; the time loop (solver/time_loop.cpp) decides when, and what to read back.
// Implemented by the reference backends and by the device engines, which all derive from
// engine::DeviceEngine (OpenCL or CUDA alike, docs/ARCHITECTURE.md).
#pragma once
#include <array>
#include <complex>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// Energy sums of one field state, in joules (docs/EQUATIONS.md, "Energy"), over every cell:
struct EnergyTerms {
  double electric = 0;      // 1/2 sum eps E.E dV, E at s dt
  double magnetic = 0;      // 1/2 sum mu H.H' dV, H at (s - 1/2) dt, H' kept by the previous
                            // sample_energy() call (zero before the first call)
  double magnetic_now = 0;  // 1/2 sum mu H.H dV, H at (s - 1/2) dt
};

class Backend {
public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;                // "reference", "opencl", "cuda"
  virtual std::string device_description() const = 0;  // e.g. "NVIDIA H200 (NVIDIA CUDA, OpenCL 3.0)"
  virtual std::string kernel_variant() const = 0;      // e.g. "float4-tile 2x2x30" or "double loops"
  // Every device the backend runs on (run.json's "devices"): its description and, for a
  // cylindrical model spread over several devices, the angular orders m it runs (empty: all).
  struct DevicePart {
    std::string description;
    std::vector<int> modes;
  };
  virtual std::vector<DevicePart> device_parts() const { return {{device_description(), {}}}; }

  // Advance from step s to s+1: H to (s+1/2) dt (plain + UPML), E to (s+1) dt (plain + UPML),
  // then the sources' J at (s+1/2) dt. May return before the device has finished.
  virtual void step(long s) = 0;

  // Record every probe sample's current value into batch slot `slot` (0 <= slot < batch size).
  virtual void sample_probes(int slot) = 0;
  // Copy the first `slots` batch slots to the host: out[slot * samples + sample], SI units.
  virtual void read_probe_batch(int slots, std::vector<double>& out) = 0;
  virtual int probe_batch_steps() const = 0;

  // Copy one whole component to the host, unpadded: out[(i*ny + j)*nz + k], SI units.
  virtual void read_field(Component c, std::vector<float>& out) = 0;

  // Cylindrical models: mode slot `slot`'s complex field of component c (Er..Hz),
  // out[i*nz + k], nr*nz values, SI units. (read_field gives the physical field at phi = 0.)
  virtual void read_mode_field(int /*slot*/, Component /*c*/,
                               std::vector<std::complex<float>>& /*out*/) {
    throw DeviceError("cylindrical mode fields are not supported by the " + name() + " backend");
  }

  // False if any field value is NaN or infinite (computed on the device).
  virtual bool fields_finite() = 0;

  // Wait until all queued work is done (for timing).
  virtual void finish() = 0;

  // Energy (output.energy). Computes the EnergyTerms of the current state where the fields live
  // (no field copy to the host) into batch slot `slot` (0 <= slot < probe_batch_steps()), then
  // keeps H for the next call. Called after steps s and s + 1, electric(s) + magnetic(s + 1) is
  // the energy the Yee scheme conserves at step s. Backends without it throw DeviceError.
  virtual void sample_energy(int /*slot*/) { energy_unsupported(); }
  // Copies the first `slots` slots to the host: out[slot].
  virtual void read_energy_batch(int /*slots*/, std::vector<EnergyTerms>& /*out*/) {
    energy_unsupported();
  }

  // Monitors (model.monitors, model/monitors.hpp). accumulate_dft(n) is called after step n
  // (n = 0 before the first step): every flux, dft and farfield monitor whose decimation D
  // (MonitorModel::dft_every) divides n adds its samples times exp(-i 2 pi f t) D dt,
  // t = dft_time(component, n, dt), where the fields live. read_dft() gives
  // monitor m's transform so far (everything accumulated up to the last call included):
  // out[point * frequencies + f], points in the monitor's region order, SI units times seconds.
  virtual void accumulate_dft(long /*step*/) { monitors_unsupported(); }
  virtual void read_dft(int /*monitor*/, std::vector<std::complex<double>>& /*out*/) {
    monitors_unsupported();
  }
  // modes monitors: projects the current E on monitor m's modes (sum over cells of E . mode dV,
  // V m^2 per unit mode amplitude) into batch slot `slot` (0 <= slot < probe_batch_steps());
  // read_mode_batch copies the first `slots` slots: out[slot * nmodes + mode].
  virtual void sample_modes(int /*monitor*/, int /*slot*/) { monitors_unsupported(); }
  virtual void read_mode_batch(int /*monitor*/, int /*slots*/, std::vector<double>& /*out*/) {
    monitors_unsupported();
  }

  // Benchmarking (clfdtd bench). Runs steps first .. first + count - 1 and returns their duration in
  // seconds, by the device's own timers where it has them (the default: wall clock between two
  // finish() calls).
  virtual double timed_steps(long first, long count);
  // The device's copy bandwidth in bytes per second (read + write counted), measured now by
  // copying a large buffer on the device; 0 when the backend cannot measure it.
  virtual double copy_bandwidth() { return 0; }
  // Whether the last timed_steps() used device timers (else the wall clock), and the driver's
  // version ("" when there is none): both go into benchmark rows; the version keys the tuning
  // cache.
  virtual bool has_device_timers() const { return false; }
  virtual std::string driver_version() const { return ""; }
  // True when a step reads and writes each field once (the onepass variant): the roofline
  // counts its bytes per cell update accordingly (bench/roofline.hpp).
  virtual bool one_pass() const { return false; }
  // Time steps one pass over the fields advances (the tblock variant: 2 on a model it pairs
  // steps on): the roofline divides a pass's bytes by it.
  virtual int steps_per_pass() const { return 1; }
  // True when the UPML cells of one slab only (not an edge or corner) keep one auxiliary per field
  // kind instead of three (the GPU engine's kernels: upml_lanes.h upml_face_update; the reference
  // engine keeps six); the roofline counts 16 B of auxiliaries for them instead of 48.
  virtual bool upml_face_one_aux() const { return false; }
  // Bytes of device memory this backend allocates for `m` (what `clfdtd run` reports and the
  // backend checked against the device before allocating): the model's count
  // (SimulationModel::device_bytes), or the variant's own layout where it differs.
  virtual std::size_t device_bytes(const SimulationModel& m) const {
    return m.device_bytes(probe_batch_steps(), one_pass());
  }
  // True for the reference engines, which compute in host memory: device_bytes() then counts
  // the host memory of their double-precision fields and tables.
  virtual bool in_host_memory() const { return false; }
  // The work-group the kernels run with (x, y, z; z4 for tile and onepass), where the engine has
  // one: device.workgroup adapted to the variant and the device's limits.
  virtual std::optional<std::array<int, 3>> workgroup_used() const { return std::nullopt; }

private:
  [[noreturn]] void monitors_unsupported() const {
    throw DeviceError("monitors are not supported by the " + name() + " backend");
  }
  [[noreturn]] void energy_unsupported() const {
    throw DeviceError("output.energy is not supported by the " + name() + " backend");
  }
};

std::unique_ptr<Backend> make_backend(const SimulationModel& model, const DeviceConfig& device);

// For SimulationModel::build's before_tables: refuses (OutOfMemoryError, exit 4) a grid whose
// fields alone exceed the memory of the device make_backend would open, before the host meshes
// it. Leaves everything else to make_backend: the reference backend, a list of devices, no device
// found, an API this build lacks.
void check_device_can_hold(const GridGeometry& g, const FieldLayout& layout, Equation equation,
                           const DeviceConfig& device);

}  // namespace clfdtd
