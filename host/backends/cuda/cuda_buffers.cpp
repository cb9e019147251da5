// Patent steps 1-2 / 3: device buffers (sized once, written once, zero-initialised) and the kernel
// arguments (set once; only the step index and the probe slot change later). The tables are laid
// out exactly as the OpenCL backend's (opencl_buffers.cpp), since the kernels are the same.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "backends/cuda/cuda_backend.hpp"

#include "backends/device_tables.hpp"
#include "backends/cuda/cuda_error.hpp"
#include "backends/cuda/cuda_launch.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

CudaBuffer::CudaBuffer(std::size_t bytes, const std::string& what) : bytes_(bytes) {
  if (bytes == 0) return;
  cuda_check(cudaMalloc(&ptr_, bytes), "cudaMalloc",
             "allocating " + std::to_string(bytes) + " bytes for " + what);
}

CudaBuffer::~CudaBuffer() {
  if (ptr_) (void)cudaFree(ptr_);
}

CudaBuffer::CudaBuffer(CudaBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
}

CudaBuffer& CudaBuffer::operator=(CudaBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) (void)cudaFree(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

void CudaStream::create() {
  cuda_check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
             "creating a CUDA stream");
}

CudaStream::~CudaStream() {
  if (s_) (void)cudaStreamDestroy(s_);
}


void CudaBackend::check_memory() const {
  std::size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo",
             "reading the free memory of " + info_.name);
  // onepass keeps a second set of fields (double buffering).
  check_cuda_memory(device_bytes(m_), free_bytes, total_bytes, info_.name);
}

void CudaBackend::create_buffers() {
  const std::size_t cells = m_.layout.cells();
  const cudaStream_t s = stream_.get();
  // Uploads complete before upload() returns, so the host vectors may go (setup only).
  auto upload = [s](const void* data, std::size_t bytes, const std::string& what) {
    CudaBuffer b(bytes, what);
    const std::string ctx = "uploading " + what;
    cuda_check(cudaMemcpyAsync(b.as<void>(), data, bytes, cudaMemcpyHostToDevice, s),
               "cudaMemcpyAsync", ctx);
    cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize", ctx);
    return b;
  };
  auto zeros = [s](std::size_t bytes, const std::string& what) {
    CudaBuffer b(bytes, what);
    cuda_check(cudaMemsetAsync(b.as<void>(), 0, bytes, s), "cudaMemsetAsync", "clearing " + what);
    return b;
  };

  for (int c = 0; c < 6; ++c) {
    const std::string name = component_name(static_cast<Component>(c));
    fields_[c] = zeros(cells * sizeof(float), "field " + name);
    args_.field[c] = fields_[c].as<float>();
    if (variant_ == KernelVariant::OnePass) {
      fields_next_[c] = zeros(cells * sizeof(float), "second field " + name + " (onepass)");
      args_.field_next[c] = fields_next_[c].as<float>();
      args_.slabs_to_next = true;
    }
    if (c < 3 || m_.magnetic) {
      ids_[c] = upload(m_.ids[c].data(), cells, "material ids of " + name);
      args_.id[c] = ids_[c].as<unsigned char>();
    }
  }

  // Coefficient tables cover all 256 possible ids, so no id can read past the end.
  const auto& g = m_.grid;
  std::vector<float> etab(4 * 256, 0.0f), htab(4 * 256, 0.0f);
  for (std::size_t id = 0; id < m_.materials.size(); ++id) {
    const auto e = m_.materials.e_coefficients(static_cast<std::uint8_t>(id), g.dt);
    const auto h = m_.materials.h_coefficients(static_cast<std::uint8_t>(id), g.dt);
    etab[4 * id] = static_cast<float>(e.ca);
    etab[4 * id + 1] = static_cast<float>(e.cb);
    etab[4 * id + 2] = static_cast<float>(e.inv_eps_r);
    htab[4 * id] = static_cast<float>(h.db);
    htab[4 * id + 1] = static_cast<float>(h.inv_mu_r);
  }
  ecoef_ = upload(etab.data(), etab.size() * sizeof(float), "E coefficients");
  args_.ecoef = ecoef_.as<float>();
  if (m_.magnetic) {
    hcoef_ = upload(htab.data(), htab.size() * sizeof(float), "H coefficients");
    args_.hcoef = hcoef_.as<float>();
  }
  args_.magnetic = m_.magnetic;
  args_.db_vacuum =
      static_cast<float>(m_.materials.h_coefficients(MaterialTable::kVacuum, g.dt).db);

  const auto& L = m_.layout;
  for (int a = 0; a < 3; ++a) args_.inv_d[a] = static_cast<float>(1 / g.d[a]);
  args_.nx = L.nx;
  args_.ny = L.ny;
  args_.nz = L.nz;
  args_.nz4 = L.nz4;
  args_.nzp = static_cast<int>(L.nzp());
  for (int f = 0; f < 6; ++f) args_.layers[f] = m_.upml.layers[f];
  args_.count4 = L.nx * L.ny * L.nz4;  // < 2^31: SimulationModel::build bounds the padded cells

  const ZSlabLayout z = zslab_layout(m_, variant_);
  args_.zq_lo = z.zq_lo;
  args_.zq_hi = z.zq_hi;
  args_.znq = z.znq;
  if (m_.upml.enabled()) {
    static const char* const aux_names[] = {"Dx", "Dy", "Dz", "Bx", "By", "Bz"};
    static const char* const axes = "xyz";
    // The tile variant keeps the z slabs' auxiliaries float4-aligned in zaux_ (opencl_buffers.cpp).
    const bool tile = variant_ == KernelVariant::Tile || variant_ == KernelVariant::OnePass;
    // The x/y slabs' auxiliaries as float4 rows (upml_xy4.cl).
    args_.xy_rows = tile ? static_cast<int>(xy_pml_rows(m_)) : 0;
    const std::size_t aux_floats = upml_aux_floats(m_, variant_);
    for (int a = 0; a < 6; ++a) {
      aux_[a] = zeros(aux_floats * sizeof(float), std::string("UPML auxiliary ") + aux_names[a]);
      args_.aux[a] = aux_[a].as<float>();
    }
    if (tile && z.float4s() > 0) {
      static const char* const zaux_names[] = {"By", "Bz", "Dy", "Dz"};
      for (int a = 0; a < 4; ++a) {
        zaux_[a] = zeros(z.float4s() * 4 * sizeof(float),
                         std::string("UPML z-slab auxiliary ") + zaux_names[a]);
        args_.zaux[a] = zaux_[a].as<float>();
      }
    }
    if (tile) {  // upml_zslab.cl and upml_xy4.cl
      const auto lanes = zslab_lane_table(m_);
      zlanes_ = upload(lanes.data(), lanes.size() * sizeof(float), "UPML z-slab profiles");
      args_.zlanes = zlanes_.as<float>();
    }
    for (int a = 0; a < 3; ++a) {
      const auto ti = profile_table(m_.upml.integer[a]), th = profile_table(m_.upml.half[a]);
      profiles_[a] = upload(ti.data(), ti.size() * sizeof(float),
                            std::string("UPML profile, integer ") + axes[a]);
      profiles_[3 + a] = upload(th.data(), th.size() * sizeof(float),
                                std::string("UPML profile, half ") + axes[a]);
    }
    for (int p = 0; p < 6; ++p) args_.profile[p] = profiles_[p].as<float>();
    // The fused and rows kernels find a PML cell's box themselves (int[8] per box), and rows
    // reads the z profiles as 8 plain arrays (a b cp cm, integer then half): opencl_buffers.cpp.
    const auto boxes = pml_box_table(m_.upml);
    boxes_ = upload(boxes.data(), boxes.size() * sizeof(std::int32_t), "UPML box table");
    args_.boxes = boxes_.as<int>();
    args_.nboxes = static_cast<int>(m_.upml.boxes.size());
    const auto zs = z_profile_split(m_.upml);
    z_split_ = upload(zs.data(), zs.size() * sizeof(float), "UPML z profiles, split");
    args_.z_split = z_split_.as<float>();
    args_.dt_eps0 = static_cast<float>(g.dt / kEps0);
    args_.dt_mu0 = static_cast<float>(g.dt / kMu0);
  }

  const MergedSources src = merge_sources(m_);
  // The kernel indexes J[src * steps + s] with 32-bit ints.
  if (src.j.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw DeviceError("source table of " + std::to_string(src.j.size()) +
                      " entries exceeds 2^31 (fewer steps or sources)");
  }
  args_.nsrc = static_cast<int>(src.cells.size() / 2);
  src_steps_ = src.steps;
  args_.src_steps = static_cast<int>(src.steps);
  if (args_.nsrc > 0) {
    src_cells_ = upload(src.cells.data(), src.cells.size() * sizeof(int), "source cells");
    src_j_ = upload(src.j.data(), src.j.size() * sizeof(float), "source table");
    args_.src_cells = src_cells_.as<int>();
    args_.src_j = src_j_.as<float>();
  }

  args_.nsamples = static_cast<int>(m_.probes.samples.size());
  if (args_.nsamples > 0) {
    std::vector<int> cells_tab;
    for (const auto& p : m_.probes.samples) {
      cells_tab.push_back(static_cast<int>(p.component));
      cells_tab.push_back(static_cast<int>(m_.layout.index(p.cell[0], p.cell[1], p.cell[2])));
    }
    probe_cells_ = upload(cells_tab.data(), cells_tab.size() * sizeof(int), "probe cells");
    probe_batch_ = zeros(static_cast<std::size_t>(args_.nsamples) * kProbeBatchSteps *
                             sizeof(float),
                         "probe batch");
    args_.probe_cells = probe_cells_.as<int>();
    args_.probe_batch = probe_batch_.as<float>();
  }
  flag_ = zeros(sizeof(int), "finite flag");
  args_.flag = flag_.as<int>();
}

}  // namespace clfdtd
