// Patent steps 3 and 4: the OpenCL engine. Setup (device, program, buffers, arguments) happens once
// in the constructor; each step() only enqueues kernels, changing nothing but the step index.
// Buffers and argument binding live in opencl_buffers.cpp.
#include "backends/opencl/opencl_backend.hpp"

#include <algorithm>
#include <chrono>

#include "backends/opencl/cl_bandwidth.hpp"
#include "backends/opencl/cl_error.hpp"
#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/cl_program.hpp"
#include "backends/device_tables.hpp"
#include "backends/tuning_cache.hpp"
#include "errors.hpp"
#include "model/host_memory.hpp"

namespace clfdtd {

OpenClBackend::OpenClBackend(const SimulationModel& m, const DeviceConfig& dev) : m_(m) {
  // Patent step 3: choose the processor, create context and queue.
  const auto devices = list_cl_devices();
  info_ = devices[static_cast<std::size_t>(choose_cl_device(devices, dev.select))];
  try {
    device_ = cl_device_at(info_.index);
    context_ = cl::Context(device_);
    // Profiling costs nothing measurable and gives clfdtd bench the device's own timers.
    queue_ = cl::CommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw_device_error(e, "creating an OpenCL context on " + info_.name);
  }
  try {
    build_kernels(dev);  // decides the variant, whose memory check_memory() counts
  } catch (const cl::Error& e) {
    throw_device_error(e, "building the OpenCL kernels on " + info_.name);
  }
  check_memory();  // before any allocation, so a too-large model fails with the numbers
  check_host_memory(gpu_engine_host_bytes(m_, device_bytes(m_), info_.type == "cpu"),
                    "the OpenCL engine on " + info_.name);
  try {
    create_buffers();
    bind_arguments();
    if (m_.energy) setup_energy();
    queue_.finish();  // surface upload errors here, not in the first step
  } catch (const cl::Error& e) {
    throw_device_error(e, "setting up the OpenCL engine on " + info_.name);
  }
}

std::string OpenClBackend::device_description() const {
  return info_.name + " (" + info_.platform + ", " + info_.version + ")";
}

std::string OpenClBackend::kernel_variant() const {
  const char* name = variant_ == KernelVariant::Plain     ? "plain "
                     : variant_ == KernelVariant::Rows    ? "rows "
                     : variant_ == KernelVariant::Fused   ? "fused "
                     : variant_ == KernelVariant::OnePass ? "onepass "
                                                          : "float4-tile ";
  return std::string(name) + std::to_string(wg_[0]) + "x" + std::to_string(wg_[1]) + "x" +
         std::to_string(wg_[2]) + (tuned_ ? " (tuned)" : "");
}

void OpenClBackend::build_kernels(const DeviceConfig& dev) {
  const auto items = device_.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  std::array<std::size_t, 3> max_items{1, 1, 1};
  for (std::size_t d = 0; d < 3 && d < items.size(); ++d) max_items[d] = items[d];
  std::size_t max_group = device_.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  const auto& L = m_.layout;
  // auto: CPU drivers run the row loops faster (no barriers, vectorised along z); GPUs start from
  // the patent's tiles. `clfdtd bench` measures every form on any device.
  // A device tuned by `clfdtd bench --tune` runs its measured winner unless the user chose.
  std::optional<std::array<int, 3>> requested = dev.workgroup;
  variant_ = dev.variant;
  tuned_ = false;
  if (variant_ == KernelVariant::Auto && !requested) {
    if (const auto t = lookup_tuning(tuning_key(name(), device_description(), info_.driver))) {
      variant_ = t->variant;
      requested = t->workgroup;
      tuned_ = true;
    }
  }
  if (variant_ == KernelVariant::Auto) {
    // Untuned GPUs: onepass, the fastest form on the H200 with and without UPML
    // (docs/bench/results.csv), when the model fits with its second set of fields; else the tile
    // shape that was fastest there (--variant=tile alone keeps the patent's 2x2x30).
    const bool fits_onepass =
        variant_device_bytes(m_, KernelVariant::OnePass, kProbeBatchSteps) <= info_.global_mem_bytes;
    variant_ = info_.type == "cpu" ? KernelVariant::Rows
               : fits_onepass && !requested ? KernelVariant::OnePass
                                            : KernelVariant::Tile;
    if (variant_ == KernelVariant::Tile && !requested) requested = kGpuAutoWorkgroup;
  }
  const bool fused = variant_ == KernelVariant::Fused;
  const bool plain = variant_ == KernelVariant::Plain || fused;  // fused has plain's cell mapping
  const bool rows = variant_ == KernelVariant::Rows;
  const bool onepass = variant_ == KernelVariant::OnePass;
  const bool tiled = !plain && !rows && !onepass;
  if (tiled) {
    // Three float4 tiles of the group's cells must fit in local memory.
    const std::size_t local_mem =
        static_cast<std::size_t>(device_.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
    max_group = std::min(max_group, local_mem / (3 * 4 * sizeof(float)));
  }

  // A kernel may allow less than the device (registers); then shrink the group and rebuild.
  for (int attempt = 0;; ++attempt) {
    if (onepass) {
      // Six float4 tiles of y x z4 must fit in local memory as well.
      const std::size_t local_mem =
          static_cast<std::size_t>(device_.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
      wg_ = choose_onepass_workgroup(requested, L, std::min(max_group, local_mem / (6 * 16)),
                                     max_items);
    } else if (plain) {
      wg_ = choose_workgroup(requested, kDefaultPlainWorkgroup, {L.nx, L.ny, L.nz}, max_group,
                             max_items);
    } else if (rows) {
      // NDRange (j, i): the z extent of a group is 1.
      wg_ = choose_workgroup(requested, kDefaultRowsWorkgroup, {L.nx, L.ny, 1}, max_group,
                             {1, max_items[0], max_items[1]});
    } else {
      wg_ = choose_workgroup(requested, L, max_group, max_items);
    }
    // The tile kernels are compiled in every case; for the other forms their tile is 1x1x1.
    // onepass: its own tile is (y, z4); x counts planes, not work-items.
    const std::array<int, 3> tile = tiled     ? wg_
                                    : onepass ? std::array<int, 3>{1, wg_[1], wg_[2]}
                                              : std::array<int, 3>{1, 1, 1};
    program_ = build_fdtd_program(context_, device_, {tile[0], tile[1], tile[2], m_.magnetic});
    if (onepass) {
      update_h_ = cl::Kernel(program_, "update_onepass");
      const std::size_t fit = update_h_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_);
      if (static_cast<std::size_t>(wg_[1]) * wg_[2] <= fit || attempt == 4) break;
      max_group = fit;
      continue;
    }
    update_h_ = cl::Kernel(program_, fused   ? "update_h_fused"
                                     : plain ? "update_h_plain"
                                     : rows  ? "update_h_rows"
                                             : "update_h");
    update_e_ = cl::Kernel(program_, fused   ? "update_e_fused"
                                     : plain ? "update_e_plain"
                                     : rows  ? "update_e_rows"
                                             : "update_e");
    const std::size_t fit =
        std::min(update_h_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_),
                 update_e_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_));
    const std::size_t size = static_cast<std::size_t>(wg_[0]) * wg_[1] * wg_[2];
    if (size <= fit || attempt == 4) break;
    max_group = fit;
  }
  if (onepass) {  // dim0 = z4, dim1 = y: one group per y x z4 tile; dim2 = chunk of planes
    local_ = cl::NDRange(wg_[2], wg_[1], 1);
    global_ = cl::NDRange(round_up(L.nz4, wg_[2]), round_up(L.ny, wg_[1]),
                          static_cast<std::size_t>((L.nx + wg_[0] - 1) / wg_[0]));
  } else if (rows) {  // dim0 = y, dim1 = x; each work-item loops over z
    local_ = cl::NDRange(wg_[1], wg_[0]);
    global_ = cl::NDRange(round_up(L.ny, wg_[1]), round_up(L.nx, wg_[0]));
  } else {  // dim0 = z (contiguous), dim1 = y, dim2 = x
    // The tile kernels cover the x/y interior only, from row (pml_xlo, pml_ylo): update_h.cl.
    const std::array<int, 2> rows = tiled ? tile_rows(m_) : std::array<int, 2>{L.nx, L.ny};
    local_ = cl::NDRange(wg_[2], wg_[1], wg_[0]);
    global_ = cl::NDRange(round_up(plain ? L.nz : L.nz4, wg_[2]), round_up(rows[1], wg_[1]),
                          round_up(rows[0], wg_[0]));
  }

  if (m_.upml.enabled() && !fused && !rows && !uses_zslab()) {
    // Plain: one launch per PML box. Fused and rows update PML cells themselves.
    upml_h_ = cl::Kernel(program_, "upml_h");
    upml_e_ = cl::Kernel(program_, "upml_e");
    plan_box_launches();
  }
  xy_rows_ = xy_pml_rows(m_);
  xy4_ = uses_zslab() && xy_rows_ > 0;
  if (xy4_) {  // dim0 = kq (32 float4s, 512 B per row), dim1 = x/y-slab rows: 128 items
    xy4_h_ = cl::Kernel(program_, "upml_xy4_h");
    xy4_e_ = cl::Kernel(program_, "upml_xy4_e");
    const std::size_t fit = std::min(xy4_h_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_),
                                     xy4_e_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_));
    const std::size_t target = std::max<std::size_t>(1, std::min<std::size_t>(128, fit));
    const std::size_t lz = std::min<std::size_t>({static_cast<std::size_t>(L.nz4), 32, target});
    const std::size_t ly = std::max<std::size_t>(1, std::min(xy_rows_, target / lz));
    xy4_local_ = cl::NDRange(lz, ly);
    xy4_global_ = cl::NDRange(round_up(L.nz4, lz), round_up(xy_rows_, ly));
  }
  const ZSlabLayout z = zslab_layout(m_, variant_);
  zslab_ = uses_zslab() && z.float4s() > 0;
  if (zslab_) {
    zslab_h_ = cl::Kernel(program_, "upml_zslab_h");
    zslab_e_ = cl::Kernel(program_, "upml_zslab_e");
    // dim0 = the slab float4s of one row (contiguous per slab), then rows along y: ~64 items.
    const std::size_t fit =
        std::min(zslab_h_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_),
                 zslab_e_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_));
    const std::size_t target = std::max<std::size_t>(1, std::min<std::size_t>(64, fit));
    const std::size_t lz = std::min<std::size_t>(static_cast<std::size_t>(z.znq), target);
    const std::size_t ly =
        std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(z.nyi), target / lz));
    zslab_local_ = cl::NDRange(lz, ly, 1);
    zslab_global_ = cl::NDRange(round_up(z.znq, lz), round_up(z.nyi, ly),
                                static_cast<std::size_t>(z.nxi));
  }
  add_sources_ = cl::Kernel(program_, "add_sources");
  sample_probes_ = cl::Kernel(program_, "sample_probes");
  check_finite_ = cl::Kernel(program_, "check_finite");
  finite_global_ =
      linear_range(check_finite_, static_cast<std::size_t>(L.nx) * L.ny * L.nz4, finite_local_);
}

// A 1D range over n items in groups of up to 64 (whole groups; the kernels bound-check).
cl::NDRange OpenClBackend::linear_range(const cl::Kernel& k, std::size_t n,
                                        cl::NDRange& local) const {
  const std::size_t group = std::max<std::size_t>(
      1, std::min<std::size_t>(64, k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_)));
  local = cl::NDRange(group);
  return cl::NDRange(round_up(std::max<std::size_t>(n, 1), group));
}

// A 3D range per PML box, dimension 0 along z: up to 64 z cells per group (a z slab is only as
// thick as its layers), then rows along y to fill about 64 work-items.
void OpenClBackend::plan_box_launches() {
  const std::size_t max_group =
      std::min(upml_h_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_),
               upml_e_.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_));
  const std::size_t target = std::max<std::size_t>(1, std::min<std::size_t>(64, max_group));
  box_launches_.clear();
  for (const PmlBox& b : m_.upml.boxes) {
    BoxLaunch l;
    const int ni = b.i1 - b.i0, nj = b.j1 - b.j0, nk = b.k1 - b.k0;
    l.args = {b.i0, b.j0, b.k0, ni, nj, nk, static_cast<cl_int>(b.offset)};
    const std::size_t lz = std::min<std::size_t>(static_cast<std::size_t>(nk), target);
    const std::size_t ly = std::max<std::size_t>(1, std::min<std::size_t>(nj, target / lz));
    l.local = cl::NDRange(lz, ly, 1);
    l.global = cl::NDRange(round_up(nk, lz), round_up(nj, ly), static_cast<std::size_t>(ni));
    box_launches_.push_back(l);
  }
}

void OpenClBackend::enqueue_upml(cl::Kernel& k) {
  for (const BoxLaunch& l : box_launches_) {
    for (cl_uint a = 0; a < 7; ++a) k.setArg(box_arg_ + a, l.args[a]);
    enqueue(k, l.global, l.local);
  }
}

// Every kernel of a time step goes through here; while timed_steps() runs, the first and the last
// launch keep their events so the device's timestamps bound the steps.
void OpenClBackend::enqueue(cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local) {
  if (!timing_) {
    queue_.enqueueNDRangeKernel(k, cl::NullRange, global, local);
    return;
  }
  cl::Event ev;
  queue_.enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &ev);
  if (!have_first_) {
    first_event_ = ev;
    have_first_ = true;
  }
  last_event_ = ev;
}

double OpenClBackend::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  timing_ = true;
  have_first_ = false;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    for (long s = first; s < first + count; ++s) step(s);
  } catch (...) {
    timing_ = false;
    throw;
  }
  timing_ = false;
  finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  try {
    const auto start = first_event_.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const auto end = last_event_.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    if (end > start) return static_cast<double>(end - start) * 1e-9;
  } catch (const cl::Error&) {
    // A driver without profiling: the wall clock is the next best timer.
  }
  return wall;
}

double OpenClBackend::copy_bandwidth() {
  try {
    return measure_copy_bandwidth(context_, queue_, info_);
  } catch (const cl::Error& e) {
    throw_device_error(e, "measuring the copy bandwidth");
  }
}

// Patent step 4, one time step: H (plain, then UPML), E (plain, then UPML), then the sources.
void OpenClBackend::step(long s) {
  try {
    if (variant_ == KernelVariant::OnePass) {
      // Current -> next: UPML H of the PML cells, the pass over the others, UPML E of the PML
      // cells; then the fields swap roles and everything is bound to the new current ones.
      if (xy4_) enqueue(xy4_h_, xy4_global_, xy4_local_);
      if (zslab_) enqueue(zslab_h_, zslab_global_, zslab_local_);
      enqueue(update_h_, global_, local_);
      if (xy4_) enqueue(xy4_e_, xy4_global_, xy4_local_);
      if (zslab_) enqueue(zslab_e_, zslab_global_, zslab_local_);
      std::swap(fields_, fields_next_);
      bind_arguments();
      if (m_.energy) {
        for (cl_uint c = 0; c < 6; ++c) energy_.setArg(c, fields_[c]);
      }
    } else {
      enqueue(update_h_, global_, local_);
      if (!box_launches_.empty()) enqueue_upml(upml_h_);
      if (xy4_) enqueue(xy4_h_, xy4_global_, xy4_local_);
      if (zslab_) enqueue(zslab_h_, zslab_global_, zslab_local_);
      enqueue(update_e_, global_, local_);
      if (!box_launches_.empty()) enqueue_upml(upml_e_);
      if (xy4_) enqueue(xy4_e_, xy4_global_, xy4_local_);
      if (zslab_) enqueue(zslab_e_, zslab_global_, zslab_local_);
    }
    // J exists for s < steps only; a step past the table adds nothing.
    if (nsrc_ > 0 && s >= 0 && s < src_steps_) {
      add_sources_.setArg(src_step_arg_, static_cast<cl_int>(s));
      enqueue(add_sources_, src_global_, cl::NullRange);
    }
  } catch (const cl::Error& e) {
    throw_device_error(e, "OpenCL time step " + std::to_string(s));
  }
}

void OpenClBackend::sample_probes(int slot) {
  if (nsamples_ == 0) return;
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("probe batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  try {
    sample_probes_.setArg(probe_slot_arg_, static_cast<cl_int>(slot));
    queue_.enqueueNDRangeKernel(sample_probes_, cl::NullRange, probe_global_, cl::NullRange);
  } catch (const cl::Error& e) {
    throw_device_error(e, "OpenCL probe sampling");
  }
}

void OpenClBackend::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  if (nsamples_ == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * nsamples_);
  try {
    queue_.enqueueReadBuffer(probe_batch_, CL_TRUE, 0, buf.size() * sizeof(float), buf.data());
  } catch (const cl::Error& e) {
    throw_device_error(e, "reading the OpenCL probe batch");
  }
  out.assign(buf.begin(), buf.end());
}

void OpenClBackend::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  out.resize(static_cast<std::size_t>(L.nx) * L.ny * L.nz);
  if (out.empty()) return;
  // One rectangular read drops the z padding: rows of nz floats out of rows of nzp floats.
  const std::size_t row = static_cast<std::size_t>(L.nz) * sizeof(float);
  const std::size_t padded_row = L.nzp() * sizeof(float);
  const cl::array<cl::size_type, 3> origin{0, 0, 0};
  const cl::array<cl::size_type, 3> region{row, static_cast<std::size_t>(L.nx) * L.ny, 1};
  try {
    queue_.enqueueReadBufferRect(fields_[static_cast<int>(c)], CL_TRUE, origin, origin, region,
                                 padded_row, 0, row, 0, out.data());
  } catch (const cl::Error& e) {
    throw_device_error(e, std::string("reading field ") + component_name(c));
  }
}

bool OpenClBackend::fields_finite() {
  cl_int flag = 0;
  try {
    queue_.enqueueFillBuffer(flag_, cl_int{0}, 0, sizeof(cl_int));
    queue_.enqueueNDRangeKernel(check_finite_, cl::NullRange, finite_global_, finite_local_);
    queue_.enqueueReadBuffer(flag_, CL_TRUE, 0, sizeof(cl_int), &flag);
  } catch (const cl::Error& e) {
    throw_device_error(e, "OpenCL finite check");
  }
  return flag == 0;
}

void OpenClBackend::finish() {
  try {
    queue_.finish();
  } catch (const cl::Error& e) {
    throw_device_error(e, "waiting for the OpenCL queue");
  }
}

}  // namespace clfdtd
