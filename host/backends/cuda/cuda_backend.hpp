// Patent steps 3 and 4 on a CUDA device: the same kernels as the OpenCL backend (cl_kernels/,
// compiled by nvcc through compat.h, see cuda_kernels.hpp), the same buffers and tables, the same
// launch order. Setup (device, memory check, buffers, arguments) happens once in the constructor;
// each step() only enqueues kernels on the backend's stream. Patent step 5: RAII (CudaBuffer,
// the stream) releases the device memory when this is destroyed, before the SimulationModel.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"
#include "backends/device_tables.hpp"
#include "backends/cuda/cuda_devices.hpp"
#include "backends/cuda/cuda_kernels.hpp"

namespace clfdtd {

// One device allocation (cudaMalloc / cudaFree), move-only.
class CudaBuffer {
public:
  CudaBuffer() = default;
  CudaBuffer(std::size_t bytes, const std::string& what);  // throws OutOfMemoryError/DeviceError
  ~CudaBuffer();
  CudaBuffer(CudaBuffer&& o) noexcept;
  CudaBuffer& operator=(CudaBuffer&& o) noexcept;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }

private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A stream of the current device (cudaStreamNonBlocking once create() ran), destroyed with its
// owner.
class CudaStream {
public:
  CudaStream() = default;
  ~CudaStream();
  void create();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return s_; }

private:
  cudaStream_t s_ = nullptr;
};

class CudaBackend final : public Backend {
public:
  // Chooses the device (dev.select among CUDA devices), the kernel variant (dev.variant; auto =
  // tile, as for any GPU) and its block (dev.workgroup: for tile one of the compiled shapes,
  // default 2 2 30 in x y z4; for plain and rows any shape, default 1 1 64 in cells and 1 16 1
  // rows, clamped as OpenCL clamps work-groups), checks that the model fits in the free device memory, allocates zeroed fields and
  // uploads ids, coefficients, UPML profiles, source tables and probe cells once. Throws
  // ConfigError (no such device or block shape), OutOfMemoryError, DeviceError (no CUDA device,
  // no kernel image for this GPU, any failing CUDA call).
  CudaBackend(const SimulationModel& m, const DeviceConfig& dev);
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  // "NVIDIA H200 (CUDA 13.0, runtime 13.0, driver 580.159.03, compute capability 9.0)"
  std::string device_description() const override;
  std::string kernel_variant() const override;  // "float4-tile 2x2x30 (sm_90)", "plain 1x1x64 ..."

  // update_h, upml_h, update_e, upml_e, add_sources (UPML launches only when there are PML cells).
  void step(long s) override;
  void sample_probes(int slot) override;
  void read_probe_batch(int slots, std::vector<double>& out) override;
  int probe_batch_steps() const override { return kProbeBatchSteps; }
  void read_field(Component c, std::vector<float>& out) override;
  bool fields_finite() override;
  void finish() override;
  void sample_energy(int slot) override;  // energy.cl, tree reduction (cuda_energy.cpp)
  void read_energy_batch(int slots, std::vector<EnergyTerms>& out) override;

  // Benchmarking hooks (clfdtd bench): steps timed by CUDA events on the backend's stream; the
  // best of five device-to-device copies of up to 512 MiB (read + write counted); the NVIDIA
  // kernel module's version from /proc/driver/nvidia/version, else the driver's CUDA version.
  double timed_steps(long first, long count) override;
  double copy_bandwidth() override;
  bool has_device_timers() const override { return true; }
  bool one_pass() const override { return variant_ == KernelVariant::OnePass; }
  // The chosen variant's allocation (device_tables.hpp variant_device_bytes); m is the model
  // this backend was built for.
  std::size_t device_bytes(const SimulationModel& m) const override {
    return variant_device_bytes(m, variant_, kProbeBatchSteps);
  }
  std::string driver_version() const override;

  const CudaDeviceInfo& device_info() const { return info_; }
  KernelVariant variant() const { return variant_; }  // Tile, Plain, Rows or Fused
  std::array<int, 3> workgroup() const { return block_; }  // x y z (z4 for tile, cells for plain)

  static constexpr int kProbeBatchSteps = 256;
  static constexpr unsigned kLinearBlock = 128;  // threads per block of the 1D kernels

private:
  void activate() const;  // makes this backend's device current for the calling thread
  void choose_kernels(const DeviceConfig& dev);
  void check_memory() const;
  void create_buffers();
  void launch(CudaLauncher k, const CudaLaunch& l, const char* kernel, long s) const;
  void launch_upml(CudaBoxLauncher k, const char* kernel, long s) const;

  const SimulationModel& m_;
  CudaDeviceList devices_;
  CudaDeviceInfo info_;
  bool tuned_ = false;  // variant and block came from the tuning cache
  KernelVariant variant_ = KernelVariant::Tile;
  std::array<int, 3> block_{};  // x y z of the update kernels' block
  CudaLauncher update_h_ = nullptr, update_e_ = nullptr;
  int binary_version_ = 0;  // machine code the driver runs for update_h (e.g. 90 = sm_90)
  CudaStream stream_;

  std::array<CudaBuffer, 6> fields_;    // Ex..Hz, float4 lanes along z: the current step's
  std::array<CudaBuffer, 6> fields_next_;  // onepass: the fields it writes; swapped each step
  std::array<CudaBuffer, 6> ids_;       // uint8 per cell; H ids only when magnetic
  CudaBuffer ecoef_, hcoef_;            // float4 per material id (256 ids)
  std::array<CudaBuffer, 6> aux_;       // Dx Dy Dz Bx By Bz per PML cell (tile, onepass: x/y-slab float4 rows)
  std::array<CudaBuffer, 4> zaux_;      // tile: the z slabs' By Bz Dy Dz, float4-aligned
  CudaBuffer zlanes_;                   // tile: per-float4 z profiles (upml_lanes.h)
  std::array<CudaBuffer, 6> profiles_;  // float4 (a, b, cp, cm): integer x y z, half x y z
  CudaBuffer boxes_, z_split_;          // PML box table, z profiles as 8 arrays (fused, rows)
  CudaBuffer src_cells_, src_j_;        // (component, index) per merged source; J[src*steps + s]
  CudaBuffer probe_cells_, probe_batch_, flag_;
  long src_steps_ = 0;

  CudaKernelArgs args_;
  CudaLaunch main_, src_, probe_, finite_;
  CudaLaunch zslab_;      // tile variant: upml_zslab_h / _e over the z slabs' float4s
  bool has_zslab_ = false;
  CudaLaunch xy4_;        // tile and onepass: upml_xy4_h / _e over the x/y slabs' float4 rows
  bool has_xy4_ = false;
  std::vector<std::pair<CudaPmlBox, CudaLaunch>> pml_boxes_;  // one UPML launch per box
  // output.energy (cuda_energy.cpp): H kept from the previous sample, eps_r / mu_r per id,
  // partial sums [slot][3][group] of the reduction; one block per group.
  void setup_energy();
  std::array<CudaBuffer, 3> h_prev_;
  CudaBuffer energy_eps_, energy_mu_, energy_partial_;
  CudaEnergyArgs energy_args_;
  CudaLaunch energy_;
  int energy_groups_ = 0;
};

}  // namespace clfdtd
