// output.energy on a CUDA device, as opencl_energy.cpp does it on OpenCL and with the same kernel:
// cl_kernels/energy.cl (compiled by nvcc through cuda_kernels.cu) sums the Yee energy terms with
// a shared-memory tree reduction per block into a batch of partial sums; the host reads a batch
// every probe_batch_steps() samples (like the probes) and adds each slot's partial sums in
// double. No field ever leaves the device. Set up once, in the constructor, when m_.energy; the
// memory check counts these buffers (SimulationModel::device_bytes).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/device_tables.hpp"
#include "errors.hpp"

namespace clfdtd {

void CudaBackend::setup_energy() {
  // OpenCL checks CL_KERNEL_WORK_GROUP_SIZE; here the kernel's own limit also fails now, not at
  // the first sample, when this build has no image for the GPU.
  cudaFuncAttributes attr{};
  cuda_check(cudaFuncGetAttributes(&attr, cuda_energy_sums_fn(m_.magnetic)),
             "cudaFuncGetAttributes", "finding the CUDA energy kernel for " + info_.name);
  if (attr.maxThreadsPerBlock < kCudaEnergyGroup) {
    throw DeviceError("the energy kernel needs blocks of " + std::to_string(kCudaEnergyGroup) +
                      " threads; " + info_.name + " allows " +
                      std::to_string(attr.maxThreadsPerBlock));
  }
  const auto& L = m_.layout;
  const std::size_t count4 = static_cast<std::size_t>(L.nx) * L.ny * L.nz4;
  const std::size_t groups = std::min<std::size_t>(
      kEnergyMaxGroups,
      std::max<std::size_t>(1, (count4 + kCudaEnergyGroup - 1) / kCudaEnergyGroup));
  energy_groups_ = static_cast<int>(groups);
  const cudaStream_t s = stream_.get();
  energy_ = CudaLaunch{dim3(static_cast<unsigned>(groups)), dim3(kCudaEnergyGroup), s};

  const std::size_t bytes = L.cells() * sizeof(float);
  static const char* const h_names[] = {"Hx", "Hy", "Hz"};
  for (int c = 0; c < 3; ++c) {
    const std::string what = std::string("previous ") + h_names[c] + " (energy)";
    h_prev_[c] = CudaBuffer(bytes, what);
    // No earlier H: the first magnetic term is 0.
    cuda_check(cudaMemsetAsync(h_prev_[c].as<void>(), 0, bytes, s), "cudaMemsetAsync",
               "clearing " + what);
    energy_args_.h_prev[c] = h_prev_[c].as<float>();
  }
  const std::vector<float> eps = energy_weights(m_, true), mu = energy_weights(m_, false);
  // Synchronous, so the host vectors may go (setup only).
  auto upload = [s](const std::vector<float>& v, const std::string& what) {
    CudaBuffer b(v.size() * sizeof(float), what);
    const std::string ctx = "uploading " + what;
    cuda_check(cudaMemcpyAsync(b.as<void>(), v.data(), v.size() * sizeof(float),
                               cudaMemcpyHostToDevice, s),
               "cudaMemcpyAsync", ctx);
    cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize", ctx);
    return b;
  };
  energy_eps_ = upload(eps, "energy eps_r table");
  energy_args_.eps_r = energy_eps_.as<float>();
  if (m_.magnetic) {
    energy_mu_ = upload(mu, "energy mu_r table");
    energy_args_.mu_r = energy_mu_.as<float>();
  }
  const std::size_t partial = static_cast<std::size_t>(kProbeBatchSteps) * 3 * groups;
  energy_partial_ = CudaBuffer(partial * sizeof(float), "energy partial sums");
  cuda_check(cudaMemsetAsync(energy_partial_.as<void>(), 0, partial * sizeof(float), s),
             "cudaMemsetAsync", "clearing the energy partial sums");
  energy_args_.partial = energy_partial_.as<float>();
}

void CudaBackend::sample_energy(int slot) {
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  activate();
  // args_.field are the current fields (the onepass variant swaps them in step()).
  cuda_check(launch_cuda_energy_sums(energy_, args_, energy_args_, slot), "energy_sums<<<>>>",
             "CUDA energy sums");
}

void CudaBackend::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const std::size_t g = static_cast<std::size_t>(energy_groups_);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * g);
  activate();
  const std::string ctx = "reading the CUDA energy sums";
  cuda_check(cudaMemcpyAsync(buf.data(), energy_partial_.as<float>(), buf.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream_.get()),
             "cudaMemcpyAsync", ctx);
  cuda_check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize", ctx);
  out = energy_terms_from_partials(buf, slots, g, m_);
}

}  // namespace clfdtd
