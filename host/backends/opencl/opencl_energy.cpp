// output.energy on an OpenCL device: cl_kernels/energy.cl sums the Yee energy terms with a
// local-memory tree reduction per work-group into a batch of partial sums; the host reads a
// batch every probe_batch_steps() samples (like the probes) and adds each slot's partial sums in
// double. No field ever leaves the device. Set up once, in the constructor, when m_.energy.
#include <algorithm>

#include "backends/device_tables.hpp"
#include "backends/opencl/cl_error.hpp"
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/opencl_backend.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {
constexpr int kEnergyGroup = 64;  // ENERGY_GROUP in energy.cl (its default)
}  // namespace

void OpenClBackend::setup_energy() {
  energy_ = cl::Kernel(program_, "energy_sums");
  const std::size_t fit = energy_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_);
  if (fit < static_cast<std::size_t>(kEnergyGroup)) {
    throw DeviceError("the energy kernel needs work-groups of " + std::to_string(kEnergyGroup) +
                      " items; " + info_.name + " allows " + std::to_string(fit));
  }
  const auto& L = m_.layout;
  const std::size_t count4 = static_cast<std::size_t>(L.nx) * L.ny * L.nz4;
  const std::size_t groups = std::min<std::size_t>(
      kEnergyMaxGroups, std::max<std::size_t>(1, (count4 + kEnergyGroup - 1) / kEnergyGroup));
  energy_groups_ = static_cast<int>(groups);
  energy_local_ = cl::NDRange(kEnergyGroup);
  energy_global_ = cl::NDRange(groups * kEnergyGroup);

  const std::size_t bytes = L.cells() * sizeof(float);
  for (auto& h : h_prev_) {
    h = cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
    queue_.enqueueFillBuffer(h, cl_float{0}, 0, bytes);  // no earlier H: first magnetic term 0
  }
  const std::vector<float> eps = energy_weights(m_, true), mu = energy_weights(m_, false);
  auto upload = [this](const std::vector<float>& v) {
    cl::Buffer b(context_, CL_MEM_READ_ONLY, v.size() * sizeof(float));
    queue_.enqueueWriteBuffer(b, CL_TRUE, 0, v.size() * sizeof(float), v.data());
    return b;
  };
  energy_eps_ = upload(eps);
  if (m_.magnetic) energy_mu_ = upload(mu);
  const std::size_t partial = static_cast<std::size_t>(kProbeBatchSteps) * 3 * groups;
  energy_partial_ = cl::Buffer(context_, CL_MEM_READ_WRITE, partial * sizeof(float));
  queue_.enqueueFillBuffer(energy_partial_, cl_float{0}, 0, partial * sizeof(float));

  cl_uint a = 0;
  for (int c = 0; c < 6; ++c) energy_.setArg(a++, fields_[c]);
  for (const auto& h : h_prev_) energy_.setArg(a++, h);
  for (int c = 0; c < 3; ++c) energy_.setArg(a++, ids_[c]);
  energy_.setArg(a++, energy_eps_);
  if (m_.magnetic) {
    for (int c = 3; c < 6; ++c) energy_.setArg(a++, ids_[c]);
    energy_.setArg(a++, energy_mu_);
  }
  energy_.setArg(a++, energy_partial_);
  energy_.setArg(a++, static_cast<cl_int>(count4));
  energy_.setArg(a++, static_cast<cl_int>(groups * kEnergyGroup));
  energy_.setArg(a++, static_cast<cl_int>(groups));
  energy_slot_arg_ = a;
  energy_.setArg(a, cl_int{0});
}

void OpenClBackend::sample_energy(int slot) {
  if (!m_.energy) throw DeviceError("sample_energy: the model was built without output.energy");
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("energy batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  try {
    energy_.setArg(energy_slot_arg_, static_cast<cl_int>(slot));
    queue_.enqueueNDRangeKernel(energy_, cl::NullRange, energy_global_, energy_local_);
  } catch (const cl::Error& e) {
    throw_device_error(e, "OpenCL energy sums");
  }
}

void OpenClBackend::read_energy_batch(int slots, std::vector<EnergyTerms>& out) {
  out.clear();
  if (!m_.energy || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  const std::size_t g = static_cast<std::size_t>(energy_groups_);
  std::vector<float> buf(static_cast<std::size_t>(slots) * 3 * g);
  try {
    queue_.enqueueReadBuffer(energy_partial_, CL_TRUE, 0, buf.size() * sizeof(float), buf.data());
  } catch (const cl::Error& e) {
    throw_device_error(e, "reading the OpenCL energy sums");
  }
  out = energy_terms_from_partials(buf, slots, g, m_);
}

}  // namespace clfdtd
