// Patent steps 3 and 4 on an OpenCL device: context, queue, program, resident buffers and kernels
// with their arguments bound once (step 3, all in the constructor), then one step() per time step
// (step 4). Patent step 5: everything is released by RAII (cl:: objects) when this is destroyed,
// which must happen before the SimulationModel it refers to.
#pragma once
#include <CL/opencl.hpp>
#include <array>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/device_tables.hpp"
#include "backends/opencl/cl_devices.hpp"

namespace clfdtd {

class OpenClBackend final : public Backend {
public:
  // Chooses the device (dev.select), checks that the model fits, builds the kernels for the
  // work-group (dev.workgroup, default 2 2 30 in x y z4, clamped), allocates zeroed fields and
  // uploads ids, coefficients, UPML profiles, source tables and probe cells once.
  // Throws ConfigError (no such device), OutOfMemoryError, DeviceError.
  OpenClBackend(const SimulationModel& m, const DeviceConfig& dev);

  std::string name() const override { return "opencl"; }
  std::string device_description() const override;  // "<device> (<platform>, <version>)"
  std::string kernel_variant() const override;  // "float4-tile 2x2x30" (x y z4) or "plain 1x1x64" (x y z)

  // update_h, upml_h, update_e, upml_e, add_sources (UPML launches only when there are PML cells).
  void step(long s) override;
  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override;
  void sample_energy(int slot) override;  // energy.cl, tree reduction (opencl_energy.cpp)
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;
  double timed_steps(long first, long count) override;  // OpenCL profiling timestamps
  double copy_bandwidth() override;                      // clEnqueueCopyBuffer, device-timed
  bool has_device_timers() const override { return true; }
  bool one_pass() const override { return variant_ == KernelVariant::OnePass; }
  // The chosen variant's allocation (device_tables.hpp variant_device_bytes); m is the model
  // this backend was built for.
  std::size_t device_bytes(const SimulationModel& m) const override {
    return variant_device_bytes(m, variant_, kProbeBatchSteps);
  }
  std::string driver_version() const override { return info_.driver; }

  const ClDeviceInfo& device_info() const { return info_; }
  std::array<int, 3> workgroup() const { return wg_; }  // x, y, z (z4 for tile) actually used
  KernelVariant variant() const { return variant_; }     // Tile or Plain, never Auto

  static constexpr int kProbeBatchSteps = 256;

private:
  void check_memory() const;
  // The tile and onepass variants: z slabs in upml_zslab.cl, x/y slabs in upml_xy4.cl.
  bool uses_zslab() const {
    return variant_ == KernelVariant::Tile || variant_ == KernelVariant::OnePass;
  }
  void build_kernels(const DeviceConfig& dev);
  void create_buffers();
  void bind_arguments();
  cl::NDRange linear_range(const cl::Kernel& k, std::size_t n, cl::NDRange& local) const;
  void plan_box_launches();
  void enqueue_upml(cl::Kernel& k);
  void enqueue(cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local);

  const SimulationModel& m_;
  ClDeviceInfo info_;
  cl::Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::Program program_;
  KernelVariant variant_ = KernelVariant::Tile;
  bool tuned_ = false;  // variant and work-group came from the tuning cache
  std::array<int, 3> wg_{};  // x, y, z4 (tile) or z cells (plain)
  cl::NDRange global_, local_;

  std::array<cl::Buffer, 6> fields_;  // Ex..Hz, float4 lanes along z: the current step's
  std::array<cl::Buffer, 6> fields_next_;  // onepass: the fields it writes; swapped each step
  std::array<cl::Buffer, 6> ids_;     // uint8 per cell; H ids only when magnetic
  cl::Buffer ecoef_, hcoef_;          // float4 per material: (ca, cb, inv_eps_r, 0), (db, inv_mu_r)
  // Dx Dy Dz Bx By Bz, one float per PML cell (tile and onepass: float4 rows of the x/y slabs)
  std::array<cl::Buffer, 6> aux_;
  // Tile variant: the z slabs' float4-aligned auxiliaries By Bz Dy Dz and per-float4 z profiles
  // (device_tables.hpp ZSlabLayout, cl_kernels/upml_lanes.h).
  std::array<cl::Buffer, 4> zaux_;
  cl::Buffer zlanes_;
  std::array<cl::Buffer, 6> profiles_;  // float4 (a, b, cp, cm): integer x y z, half x y z
  cl::Buffer boxes_;                    // int[8] per PML box (fused and rows variants)
  cl::Buffer z_split_;                  // z profiles as 8 arrays of nz floats (rows variant)
  // A valid, never-read buffer for the UPML arguments of fused/rows kernels without PML.
  cl::Buffer placeholder_;
  cl::Buffer src_cells_, src_j_;        // (component, index) per merged source; J[src * steps + s]
  cl::Buffer probe_cells_, probe_batch_, flag_;
  int nsrc_ = 0;
  long src_steps_ = 0;
  int nsamples_ = 0;

  cl::Kernel update_h_, update_e_, upml_h_, upml_e_, add_sources_, sample_probes_, check_finite_;
  // Tile and onepass: the x/y slabs as float4 rows (upml_xy4.cl), one launch per field kind.
  cl::Kernel xy4_h_, xy4_e_;
  cl::NDRange xy4_global_, xy4_local_;
  bool xy4_ = false;
  std::size_t xy_rows_ = 0;  // rows of the x/y slabs (device_tables.hpp xy_pml_rows)
  // Tile variant: the z slabs' float4s (upml_zslab.cl), one launch each for H and E.
  cl::Kernel zslab_h_, zslab_e_;
  cl::NDRange zslab_global_, zslab_local_;
  bool zslab_ = false;
  // One UPML launch per PML box: its 7 box arguments (i0 j0 k0 ni nj nk aux_offset) and range.
  struct BoxLaunch {
    std::array<cl_int, 7> args{};
    cl::NDRange global, local;
  };
  std::vector<BoxLaunch> box_launches_;
  cl_uint box_arg_ = 0;  // index of i0 in both UPML kernels' argument lists
  cl::NDRange src_global_, probe_global_, finite_global_, finite_local_;
  cl_uint src_step_arg_ = 0, probe_slot_arg_ = 0;
  // output.energy (opencl_energy.cpp): H kept from the previous sample, eps_r / mu_r per id,
  // partial sums [slot][3][group] of the reduction.
  void setup_energy();
  cl::Kernel energy_;
  std::array<cl::Buffer, 3> h_prev_;
  cl::Buffer energy_eps_, energy_mu_, energy_partial_;
  cl::NDRange energy_global_, energy_local_;
  int energy_groups_ = 0;
  cl_uint energy_slot_arg_ = 0;
  bool timing_ = false, have_first_ = false;  // timed_steps(): capture first and last events
  cl::Event first_event_, last_event_;
};

}  // namespace clfdtd
