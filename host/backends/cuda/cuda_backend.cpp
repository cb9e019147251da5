// Patent steps 3 and 4: the CUDA engine. Setup (device, kernels, memory check, buffers, launch
// geometry) happens once in the constructor; each step() only enqueues the same five kernels as
// the OpenCL backend, in the same order, changing nothing but the step index. Buffers and the
// kernel arguments live in cuda_buffers.cpp.
#include "backends/cuda/cuda_backend.hpp"

#include "backends/device_tables.hpp"

#include "backends/tuning_cache.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_launch.hpp"
#include "errors.hpp"
#include "model/host_memory.hpp"

#ifndef CLFDTD_CUDA_ARCHS
#define CLFDTD_CUDA_ARCHS "?"
#endif

namespace clfdtd {

namespace {

std::string shape_text(const std::array<int, 3>& b) {
  return std::to_string(b[0]) + "x" + std::to_string(b[1]) + "x" + std::to_string(b[2]);
}

// A CUDA event of the current device, destroyed with its owner.
struct CudaEvent {
  cudaEvent_t e = nullptr;
  explicit CudaEvent(const std::string& ctx) {
    cuda_check(cudaEventCreate(&e), "cudaEventCreate", ctx);
  }
  ~CudaEvent() {
    if (e) (void)cudaEventDestroy(e);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
};

// Milliseconds between two events recorded on `s` around whatever `work` enqueues there.
template <class Work>
float event_ms(cudaStream_t s, const std::string& ctx, Work&& work) {
  CudaEvent start(ctx), stop(ctx);
  cuda_check(cudaEventRecord(start.e, s), "cudaEventRecord", ctx);
  work();
  cuda_check(cudaEventRecord(stop.e, s), "cudaEventRecord", ctx);
  cuda_check(cudaEventSynchronize(stop.e), "cudaEventSynchronize", ctx);
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime", ctx);
  return ms;
}

// The NVIDIA kernel module's version, e.g. "580.159.04": the first dotted number after
// "Kernel Module" in /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX Open Kernel Module
// for x86_64  580.159.04  Release Build ..."); "" where there is none.
std::string nvidia_module_version() {
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  if (!f || !std::getline(f, line)) return "";
  const auto at = line.find("Kernel Module");
  if (at == std::string::npos) return "";
  std::istringstream rest(line.substr(at));
  for (std::string word; rest >> word;) {
    const bool dotted = word.find('.') != std::string::npos &&
                        word.find_first_not_of("0123456789.") == std::string::npos &&
                        std::isdigit(static_cast<unsigned char>(word[0]));
    if (dotted) return word;
  }
  return "";
}

std::string dims_text(const dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

}  // namespace

CudaBackend::CudaBackend(const SimulationModel& m, const DeviceConfig& dev) : m_(m) {
  // Patent step 3: choose the processor, the kernels and their block.
  devices_ = list_cuda_devices();
  info_ = devices_.devices[static_cast<std::size_t>(choose_cuda_device(devices_, dev.select))];
  activate();
  choose_kernels(dev);
  check_memory();  // before any allocation, so a too-large model fails with the numbers
  check_host_memory(gpu_engine_host_bytes(m_, 0, false), "the CUDA engine's upload copies");
  stream_.create();
  create_buffers();
  if (m_.energy) setup_energy();

  const auto& L = m_.layout;
  const cudaStream_t s = stream_.get();
  const auto& b = block_;
  if (variant_ == KernelVariant::OnePass) {  // x = z4, y = j: one block per tile; z = chunk of planes
    const int gz = (L.nz4 + b[2] - 1) / b[2], gy = (L.ny + b[1] - 1) / b[1];
    const int gx = (L.nx + b[0] - 1) / b[0];
    if (gy > 65535 || gx > 65535) {
      throw DeviceError("onepass grid of " + std::to_string(gy) + " x " + std::to_string(gx) +
                        " blocks exceeds CUDA's 65535 along y or z; use a larger device.workgroup");
    }
    main_ = {dim3(gz, gy, gx), dim3(b[2], b[1], 1), s};
    args_.planes = b[0];
  } else if (variant_ == KernelVariant::Rows) {  // CUDA x = j, y = i; each thread loops over z
    const auto g = cuda_block_grid({1, L.nx, L.ny}, {1, b[0], b[1]});
    main_ = {dim3(g[0], g[1]), dim3(b[1], b[0]), s};
  } else {  // CUDA x = z (float4s or cells, contiguous), y = j, z = i: OpenCL's dim0, 1, 2
    const bool cells = variant_ == KernelVariant::Plain || variant_ == KernelVariant::Fused;
    const int nz_units = cells ? L.nz : L.nz4;
    // The tile kernels cover the x/y interior only, from row (pml_xlo, pml_ylo): update_h.cl.
    const std::array<int, 2> rows = cells ? std::array<int, 2>{L.nx, L.ny} : tile_rows(m_);
    const auto g = cuda_block_grid({rows[0], rows[1], nz_units}, b);
    main_ = {dim3(g[0], g[1], g[2]), dim3(b[2], b[1], b[0]), s};
  }
  // UPML: a 3D grid per PML box, x along z: up to 64 z cells per block (a z slab is only as
  // thick as its layers), then rows along y to fill about 64 threads (as the OpenCL backend).
  // The fused and rows kernels update their PML cells themselves.
  const bool own_pml = variant_ == KernelVariant::Fused || variant_ == KernelVariant::Rows;
  const bool zslab_form = variant_ == KernelVariant::Tile || variant_ == KernelVariant::OnePass;
  // The tile and onepass variants update the x/y slabs in upml_xy4.cl, the z slabs in
  // upml_zslab.cl: no box launches.
  for (const PmlBox& box : own_pml || zslab_form ? std::vector<PmlBox>{} : m_.upml.boxes) {
    CudaPmlBox p;
    p.i0 = box.i0;
    p.j0 = box.j0;
    p.k0 = box.k0;
    p.ni = box.i1 - box.i0;
    p.nj = box.j1 - box.j0;
    p.nk = box.k1 - box.k0;
    p.aux_offset = static_cast<int>(box.offset);
    if (p.ni <= 0 || p.nj <= 0 || p.nk <= 0) continue;
    const int lz = std::min(p.nk, 64), ly = std::max(1, std::min(p.nj, 64 / lz));
    const auto g = cuda_block_grid({p.ni, p.nj, p.nk}, {1, ly, lz});
    pml_boxes_.push_back({p, CudaLaunch{dim3(g[0], g[1], g[2]), dim3(lz, ly, 1), s}});
  }
  // The tile variant's z slabs: x = slot (a row's slab float4s), y = j, z = i; ~64 threads.
  const ZSlabLayout z = zslab_layout(m_, variant_);
  has_zslab_ = zslab_form && z.float4s() > 0;
  if (has_zslab_) {
    const int lz = std::min(z.znq, 64), ly = std::max(1, std::min(z.nyi, 64 / lz));
    const auto g = cuda_block_grid({z.nxi, z.nyi, z.znq}, {1, ly, lz});
    zslab_ = CudaLaunch{dim3(g[0], g[1], g[2]), dim3(lz, ly, 1), s};
  }
  // Their x/y slabs: x = kq, y = row; 128 threads, 32 float4s (512 B) per row and warp, 4 rows
  // (so that CUDA's 65535 blocks along y cover 262140 rows).
  has_xy4_ = zslab_form && args_.xy_rows > 0;
  if (has_xy4_) {
    const int lz = std::min(L.nz4, 32), ly = std::max(1, std::min(args_.xy_rows, 128 / lz));
    const auto g = cuda_block_grid({1, args_.xy_rows, L.nz4}, {1, ly, lz});
    if (g[1] > 65535) throw DeviceError("x/y-slab UPML grid of " + std::to_string(g[1]) +
                                        " blocks exceeds CUDA's 65535 along y");
    xy4_ = CudaLaunch{dim3(g[0], g[1]), dim3(lz, ly), s};
  }
  auto linear = [&](std::size_t n) {
    return CudaLaunch{dim3(cuda_linear_blocks(n, kLinearBlock)), dim3(kLinearBlock), s};
  };
  src_ = linear(static_cast<std::size_t>(args_.nsrc));
  probe_ = linear(static_cast<std::size_t>(args_.nsamples));
  finite_ = linear(static_cast<std::size_t>(args_.count4));
  // Surface upload errors here, not in the first step.
  cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize",
             "setting up the CUDA engine on " + info_.name);
}

CudaBackend::~CudaBackend() {
  // Errors cannot be reported from here; the buffers free themselves after this body.
  if (cudaSetDevice(info_.index) == cudaSuccess && stream_.get()) {
    (void)cudaStreamSynchronize(stream_.get());
  }
  (void)cudaGetLastError();
}

void CudaBackend::activate() const {
  cuda_check(cudaSetDevice(info_.index), "cudaSetDevice",
             "selecting CUDA device " + std::to_string(info_.index) + " (" + info_.name + ")");
}

// The variant and block; the kernels must have an image this GPU can run (machine code for its
// architecture, or PTX the driver can compile), and the block must fit what ptxas allowed.
void CudaBackend::choose_kernels(const DeviceConfig& dev) {
  // auto: the winner of `clfdtd bench --tune` for this GPU and driver, else the tile shape that
  // was fastest on the H200 (as the OpenCL backend chooses for GPUs) when this build has it.
  std::optional<std::array<int, 3>> requested = dev.workgroup;
  variant_ = dev.variant;
  tuned_ = false;
  if (variant_ == KernelVariant::Auto && !requested) {
    if (const auto t = lookup_tuning(tuning_key(name(), device_description(), driver_version()))) {
      variant_ = t->variant;
      requested = t->workgroup;
      tuned_ = true;
    }
  }
  if (variant_ == KernelVariant::Auto) {
    // As the OpenCL backend: onepass when its block is compiled and the model fits with the
    // second set of fields, else the tile shape that was fastest on the H200.
    std::size_t free_bytes = 0, total_bytes = 0;
    cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo",
               "reading the free memory of " + info_.name);
    bool onepass_built = false;
    for (const auto& t : cuda_tile_kernels()) {
      onepass_built |= t.onepass && t.x == 1 && t.y == kDefaultCudaOnePassBlock[1] &&
                       t.z4 == kDefaultCudaOnePassBlock[2];
    }
    const bool fits_onepass =
        variant_device_bytes(m_, KernelVariant::OnePass, kProbeBatchSteps) <= free_bytes;
    variant_ = !requested && onepass_built && fits_onepass ? KernelVariant::OnePass
                                                           : KernelVariant::Tile;
    for (const auto& t : cuda_tile_kernels())
      if (variant_ == KernelVariant::Tile && !requested &&
          std::array<int, 3>{t.x, t.y, t.z4} == kCudaAutoTile)
        requested = kCudaAutoTile;
  }
  const int mag = m_.magnetic ? 1 : 0;
  const auto& common = cuda_common_kernels();
  const void* h_fn = nullptr;
  const void* e_fn = nullptr;
  if (variant_ == KernelVariant::Plain) {
    update_h_ = common.update_h_plain;
    update_e_ = common.update_e_plain;
    h_fn = common.update_h_plain_fn[mag];
    e_fn = common.update_e_plain_fn;
  } else if (variant_ == KernelVariant::Rows) {
    update_h_ = common.update_h_rows;
    update_e_ = common.update_e_rows;
    h_fn = common.update_h_rows_fn[mag];
    e_fn = common.update_e_rows_fn;
  } else if (variant_ == KernelVariant::Fused) {
    update_h_ = common.update_h_fused;
    update_e_ = common.update_e_fused;
    h_fn = common.update_h_fused_fn[mag];
    e_fn = common.update_e_fused_fn;
  } else if (variant_ == KernelVariant::Tile) {
    std::vector<std::array<int, 3>> shapes;
    for (const auto& t : cuda_tile_kernels()) shapes.push_back({t.x, t.y, t.z4});
    const auto& tile = cuda_tile_kernels()[static_cast<std::size_t>(
        choose_cuda_tile(requested, shapes))];
    block_ = {tile.x, tile.y, tile.z4};
    update_h_ = tile.update_h;
    update_e_ = tile.update_e;
    h_fn = tile.update_h_fn[mag];
    e_fn = tile.update_e_fn;
  } else if (variant_ == KernelVariant::OnePass) {
    // (planes, y, z4): the block (z4, y, 1) must be one of the compiled shapes 1 x y x z4.
    const std::array<int, 3> want = requested ? *requested : kDefaultCudaOnePassBlock;
    std::string have;
    for (const auto& t : cuda_tile_kernels()) {
      if (!t.onepass) continue;
      have += (have.empty() ? "" : ", ") + std::string("N ") + std::to_string(t.y) + " " +
              std::to_string(t.z4);
      if (t.y == want[1] && t.z4 == want[2]) {
        block_ = {std::clamp(want[0], 1, std::max(1, m_.layout.nx)), t.y, t.z4};
        update_h_ = t.onepass;
        h_fn = t.onepass_fn[mag];
        e_fn = h_fn;
      }
    }
    if (!update_h_) {
      throw ConfigError("", 0, "device.workgroup",
                        "for --variant=onepass --backend=cuda one of the compiled shapes (" + have +
                            "; CLFDTD_CUDA_TILES), got " + shape_text(want));
    }
  } else {  // a kernel form the CUDA build has no launcher for
    throw ConfigError("", 0, "device.variant",
                      "auto, tile, plain, rows, fused or onepass for --backend=cuda");
  }

  const std::string where = "finding the CUDA kernels for " + info_.name + " (compute capability " +
                            std::to_string(info_.cc_major) + "." + std::to_string(info_.cc_minor) +
                            "; this clfdtd was built for CMAKE_CUDA_ARCHITECTURES=" +
                            CLFDTD_CUDA_ARCHS + ")";
  cudaFuncAttributes ah{}, ae{};
  cuda_check(cudaFuncGetAttributes(&ah, h_fn), "cudaFuncGetAttributes", where);
  cuda_check(cudaFuncGetAttributes(&ae, e_fn), "cudaFuncGetAttributes", where);
  binary_version_ = ah.binaryVersion;
  const int fit = std::min(ah.maxThreadsPerBlock, ae.maxThreadsPerBlock);
  const auto& L = m_.layout;
  if (variant_ == KernelVariant::Plain || variant_ == KernelVariant::Fused) {
    block_ = choose_cuda_block(requested, kDefaultCudaPlainBlock, {L.nx, L.ny, L.nz},
                               kCudaPlainLimits, fit);
  } else if (variant_ == KernelVariant::Rows) {
    block_ = choose_cuda_block(requested, kDefaultCudaRowsBlock, {L.nx, L.ny, 1},
                               kCudaRowsLimits, fit);
  }
  const int threads =
      variant_ == KernelVariant::OnePass ? block_[1] * block_[2] : block_[0] * block_[1] * block_[2];
  if (threads > fit) {
    throw DeviceError("the kernels for the block shape " + shape_text(block_) + " (" +
                      std::to_string(threads) + " threads) allow at most " + std::to_string(fit) +
                      " threads per block on " + info_.name + "; choose a smaller device.workgroup");
  }
}

std::string CudaBackend::device_description() const {
  const std::string module = nvidia_module_version();
  return info_.name + " (CUDA " + cuda_version_text(devices_.driver_version) + ", runtime " +
         cuda_version_text(devices_.runtime_version) +
         (module.empty() ? std::string() : ", driver " + module) + ", compute capability " +
         std::to_string(info_.cc_major) + "." + std::to_string(info_.cc_minor) + ")";
}

std::string CudaBackend::kernel_variant() const {
  const char* name = variant_ == KernelVariant::Plain     ? "plain "
                     : variant_ == KernelVariant::Rows    ? "rows "
                     : variant_ == KernelVariant::Fused   ? "fused "
                     : variant_ == KernelVariant::OnePass ? "onepass "
                                                          : "float4-tile ";
  return name + shape_text(block_) + " (sm_" + std::to_string(binary_version_) + ")" +
         (tuned_ ? " (tuned)" : "");
}

void CudaBackend::launch(CudaLauncher k, const CudaLaunch& l, const char* kernel, long s) const {
  const cudaError_t e = k(l, args_);
  if (e != cudaSuccess) {
    const std::string call =
        std::string(kernel) + "<<<" + dims_text(l.grid) + ", " + dims_text(l.block) + ">>>";
    cuda_check(e, call.c_str(), "CUDA time step " + std::to_string(s));
  }
}

void CudaBackend::launch_upml(CudaBoxLauncher k, const char* kernel, long s) const {
  for (const auto& [box, l] : pml_boxes_) {
    const cudaError_t e = k(l, args_, box);
    if (e != cudaSuccess) {
      const std::string call =
          std::string(kernel) + "<<<" + dims_text(l.grid) + ", " + dims_text(l.block) + ">>>";
      cuda_check(e, call.c_str(), "CUDA time step " + std::to_string(s));
    }
  }
}

// Patent step 4, one time step: H (plain, then UPML), E (plain, then UPML), then the sources.
void CudaBackend::step(long s) {
  activate();  // cheap; keeps two backends on two devices apart
  const auto& lin = cuda_common_kernels();
  const bool plain = variant_ == KernelVariant::Plain, rows = variant_ == KernelVariant::Rows;
  const bool fused = variant_ == KernelVariant::Fused;
  if (variant_ == KernelVariant::OnePass) {
    // Current -> next: UPML H of the PML cells, the pass over the others, UPML E of the PML
    // cells (args_.slabs_to_next); then the fields swap roles, and the sources (below) go there.
    if (has_xy4_) launch(lin.upml_xy4_h, xy4_, "upml_xy4_h", s);
    if (has_zslab_) launch(lin.upml_zslab_h, zslab_, "upml_zslab_h", s);
    launch(update_h_, main_, "update_onepass", s);
    if (has_xy4_) launch(lin.upml_xy4_e, xy4_, "upml_xy4_e", s);
    if (has_zslab_) launch(lin.upml_zslab_e, zslab_, "upml_zslab_e", s);
    std::swap(fields_, fields_next_);
    for (int c = 0; c < 6; ++c) std::swap(args_.field[c], args_.field_next[c]);
  } else {
    launch(update_h_, main_,
           fused ? "update_h_fused" : plain ? "update_h_plain" : rows ? "update_h_rows" : "update_h", s);
    launch_upml(lin.upml_h, "upml_h", s);
    if (has_xy4_) launch(lin.upml_xy4_h, xy4_, "upml_xy4_h", s);
    if (has_zslab_) launch(lin.upml_zslab_h, zslab_, "upml_zslab_h", s);
    launch(update_e_, main_,
           fused ? "update_e_fused" : plain ? "update_e_plain" : rows ? "update_e_rows" : "update_e", s);
    launch_upml(lin.upml_e, "upml_e", s);
    if (has_xy4_) launch(lin.upml_xy4_e, xy4_, "upml_xy4_e", s);
    if (has_zslab_) launch(lin.upml_zslab_e, zslab_, "upml_zslab_e", s);
  }
  // J exists for s < steps only; a step past the table adds nothing.
  if (args_.nsrc > 0 && s >= 0 && s < src_steps_) {
    const cudaError_t e = lin.add_sources(src_, args_, static_cast<int>(s));
    if (e != cudaSuccess) cuda_check(e, "add_sources<<<>>>", "CUDA time step " + std::to_string(s));
  }
}

void CudaBackend::sample_probes(int slot) {
  if (args_.nsamples == 0) return;
  if (slot < 0 || slot >= kProbeBatchSteps) {
    throw DeviceError("probe batch slot " + std::to_string(slot) + " outside 0.." +
                      std::to_string(kProbeBatchSteps - 1));
  }
  activate();
  cuda_check(cuda_common_kernels().sample_probes(probe_, args_, slot), "sample_probes<<<>>>",
             "CUDA probe sampling");
}

void CudaBackend::read_probe_batch(int slots, std::vector<double>& out) {
  out.clear();
  if (args_.nsamples == 0 || slots <= 0) return;
  slots = std::min(slots, kProbeBatchSteps);
  std::vector<float> buf(static_cast<std::size_t>(slots) * args_.nsamples);
  activate();
  const std::string ctx = "reading the CUDA probe batch";
  cuda_check(cudaMemcpyAsync(buf.data(), probe_batch_.as<float>(), buf.size() * sizeof(float),
                             cudaMemcpyDeviceToHost, stream_.get()),
             "cudaMemcpyAsync", ctx);
  cuda_check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize", ctx);
  out.assign(buf.begin(), buf.end());
}

void CudaBackend::read_field(Component c, std::vector<float>& out) {
  const auto& L = m_.layout;
  out.resize(static_cast<std::size_t>(L.nx) * L.ny * L.nz);
  if (out.empty()) return;
  activate();
  // One pitched copy drops the z padding: rows of nz floats out of rows of nzp floats.
  const std::size_t row = static_cast<std::size_t>(L.nz) * sizeof(float);
  const std::size_t padded_row = L.nzp() * sizeof(float);
  const std::string ctx = std::string("reading field ") + component_name(c);
  cuda_check(cudaMemcpy2DAsync(out.data(), row, fields_[static_cast<int>(c)].as<float>(),
                               padded_row, row, static_cast<std::size_t>(L.nx) * L.ny,
                               cudaMemcpyDeviceToHost, stream_.get()),
             "cudaMemcpy2DAsync", ctx);
  cuda_check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize", ctx);
}

bool CudaBackend::fields_finite() {
  activate();
  int flag = 0;
  const std::string ctx = "CUDA finite check";
  const cudaStream_t s = stream_.get();
  cuda_check(cudaMemsetAsync(flag_.as<int>(), 0, sizeof(int), s), "cudaMemsetAsync", ctx);
  cuda_check(cuda_common_kernels().check_finite(finite_, args_), "check_finite<<<>>>", ctx);
  cuda_check(cudaMemcpyAsync(&flag, flag_.as<int>(), sizeof(int), cudaMemcpyDeviceToHost, s),
             "cudaMemcpyAsync", ctx);
  cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize", ctx);
  return flag == 0;
}

void CudaBackend::finish() {
  activate();
  cuda_check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize",
             "waiting for the CUDA stream");
}

double CudaBackend::timed_steps(long first, long count) {
  if (count <= 0) return 0;
  finish();
  const float ms = event_ms(stream_.get(), "timing CUDA steps", [&] {
    for (long s = first; s < first + count; ++s) step(s);
  });
  return ms * 1e-3;
}

double CudaBackend::copy_bandwidth() {
  activate();
  const std::string ctx = "measuring the copy bandwidth";
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo", ctx);
  // Large enough to leave every cache behind, small enough to fit beside a model.
  std::size_t bytes = std::min<std::size_t>(std::size_t{512} << 20, free_bytes / 8);
  bytes = bytes / 4096 * 4096;
  if (bytes < (std::size_t{1} << 20)) return 0;
  const cudaStream_t s = stream_.get();
  CudaBuffer a(bytes, "the copy-bandwidth source"), b(bytes, "the copy-bandwidth target");
  cuda_check(cudaMemsetAsync(a.as<void>(), 1, bytes, s), "cudaMemsetAsync", ctx);
  cuda_check(cudaMemsetAsync(b.as<void>(), 0, bytes, s), "cudaMemsetAsync", ctx);
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {  // the first copy pays for first-touch work
    const float ms = event_ms(s, ctx, [&] {
      cuda_check(cudaMemcpyAsync(b.as<void>(), a.as<void>(), bytes, cudaMemcpyDeviceToDevice, s),
                 "cudaMemcpyAsync", ctx);
    });
    if (rep > 0 && ms > 0) best = std::max(best, 2.0 * static_cast<double>(bytes) / (ms * 1e-3));
  }
  return best;
}

std::string CudaBackend::driver_version() const {
  const std::string module = nvidia_module_version();
  return module.empty() ? "CUDA " + cuda_version_text(devices_.driver_version) : module;
}

}  // namespace clfdtd
