// Patent steps 1-2 / 3: device buffers (sized once, written once, zero-initialised) and kernel
// arguments (bound once; only the step index and the probe slot change later).
#include <algorithm>
#include <limits>
#include <utility>

#include "backends/opencl/cl_launch.hpp"
#include "backends/opencl/opencl_backend.hpp"

#include "backends/device_tables.hpp"
#include "errors.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

namespace {

// Sets kernel arguments in order, so the optional MAGNETIC block needs no index bookkeeping.
class ArgBinder {
public:
  explicit ArgBinder(cl::Kernel& k) : k_(k) {}
  template <class T>
  ArgBinder& operator<<(const T& v) {
    k_.setArg(n_++, v);
    return *this;
  }
  cl_uint next() const { return n_; }

private:
  cl::Kernel& k_;
  cl_uint n_ = 0;
};


}  // namespace

void OpenClBackend::check_memory() const {
  const std::size_t cells = m_.layout.cells();
  std::vector<BufferNeed> buffers;
  for (int c = 0; c < 6; ++c) {
    buffers.push_back({component_name(static_cast<Component>(c)), cells * sizeof(float)});
  }
  buffers.push_back({"material ids", cells});
  if (uses_zslab()) {  // tile and onepass: float4 rows of the x/y slabs, float4 z slabs
    buffers.push_back({"UPML auxiliary (x/y slabs)", upml_aux_floats(m_, variant_) * sizeof(float)});
    buffers.push_back(
        {"UPML auxiliary (z slabs)", zslab_layout(m_, variant_).float4s() * 4 * sizeof(float)});
  } else {
    buffers.push_back({"UPML auxiliary", m_.upml.cells * sizeof(float)});
  }
  std::size_t j_entries = 0;
  for (const auto& s : m_.sources) j_entries += s.j.size();
  buffers.push_back({"source table", j_entries * sizeof(float)});
  buffers.push_back({"probe batch", m_.probes.samples.size() * kProbeBatchSteps * sizeof(float)});
  // onepass keeps a second set of fields (double buffering).
  check_device_memory(device_bytes(m_), buffers, info_);
}

void OpenClBackend::create_buffers() {
  const std::size_t cells = m_.layout.cells();
  // Read-only data: created and written once (blocking, so the host vectors may go).
  auto upload = [this](const void* data, std::size_t bytes) {
    cl::Buffer b(context_, CL_MEM_READ_ONLY, bytes);
    queue_.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, data);
    return b;
  };
  auto zeros = [this](std::size_t bytes) {
    cl::Buffer b(context_, CL_MEM_READ_WRITE, bytes);
    queue_.enqueueFillBuffer(b, cl_float{0}, 0, bytes);
    return b;
  };

  for (auto& f : fields_) f = zeros(cells * sizeof(float));
  if (variant_ == KernelVariant::OnePass) {
    for (auto& f : fields_next_) f = zeros(cells * sizeof(float));
  }
  for (int c = 0; c < (m_.magnetic ? 6 : 3); ++c) {
    ids_[c] = upload(m_.ids[c].data(), cells);
  }

  // Coefficient tables cover all 256 possible ids, so no id can read past the end.
  const double dt = m_.grid.dt;
  std::vector<float> etab(4 * 256, 0.0f), htab(4 * 256, 0.0f);
  for (std::size_t id = 0; id < m_.materials.size(); ++id) {
    const auto e = m_.materials.e_coefficients(static_cast<std::uint8_t>(id), dt);
    const auto h = m_.materials.h_coefficients(static_cast<std::uint8_t>(id), dt);
    etab[4 * id] = static_cast<float>(e.ca);
    etab[4 * id + 1] = static_cast<float>(e.cb);
    etab[4 * id + 2] = static_cast<float>(e.inv_eps_r);
    htab[4 * id] = static_cast<float>(h.db);
    htab[4 * id + 1] = static_cast<float>(h.inv_mu_r);
  }
  ecoef_ = upload(etab.data(), etab.size() * sizeof(float));
  if (m_.magnetic) hcoef_ = upload(htab.data(), htab.size() * sizeof(float));

  if (m_.upml.enabled()) {
    // The tile and onepass variants keep the z slabs' auxiliaries float4-aligned in zaux_ and
    // the x/y slabs' as float4 rows in aux_ (upml_xy4.cl; never an empty buffer).
    const bool tile = uses_zslab();
    const ZSlabLayout z = zslab_layout(m_, variant_);
    for (auto& a : aux_) a = zeros(upml_aux_floats(m_, variant_) * sizeof(float));
    if (tile && z.float4s() > 0) {
      for (auto& a : zaux_) a = zeros(z.float4s() * 4 * sizeof(float));
    }
    if (tile) {  // upml_zslab.cl and upml_xy4.cl
      const auto lanes = zslab_lane_table(m_);
      zlanes_ = upload(lanes.data(), lanes.size() * sizeof(float));
    }
    const auto boxes = pml_box_table(m_.upml);  // fused and rows variants
    boxes_ = upload(boxes.data(), boxes.size() * sizeof(std::int32_t));
    const auto zs = z_profile_split(m_.upml);   // rows variant
    z_split_ = upload(zs.data(), zs.size() * sizeof(float));
    for (int a = 0; a < 3; ++a) {
      const auto ti = profile_table(m_.upml.integer[a]), th = profile_table(m_.upml.half[a]);
      profiles_[a] = upload(ti.data(), ti.size() * sizeof(float));
      profiles_[3 + a] = upload(th.data(), th.size() * sizeof(float));
    }
  }

  const MergedSources src = merge_sources(m_);
  // The kernel indexes J[src * steps + s] with 32-bit ints.
  if (src.j.size() > static_cast<std::size_t>(std::numeric_limits<cl_int>::max())) {
    throw DeviceError("source table of " + std::to_string(src.j.size()) +
                      " entries exceeds 2^31 (fewer steps or sources)");
  }
  nsrc_ = static_cast<int>(src.cells.size() / 2);
  src_steps_ = src.steps;
  if (nsrc_ > 0) {
    src_cells_ = upload(src.cells.data(), src.cells.size() * sizeof(cl_int));
    src_j_ = upload(src.j.data(), src.j.size() * sizeof(float));
    src_global_ = cl::NDRange(static_cast<std::size_t>(nsrc_));
  }

  nsamples_ = static_cast<int>(m_.probes.samples.size());
  if (nsamples_ > 0) {
    std::vector<cl_int> cells_tab;
    for (const auto& s : m_.probes.samples) {
      cells_tab.push_back(static_cast<int>(s.component));
      cells_tab.push_back(static_cast<cl_int>(m_.layout.index(s.cell[0], s.cell[1], s.cell[2])));
    }
    probe_cells_ = upload(cells_tab.data(), cells_tab.size() * sizeof(cl_int));
    probe_batch_ = zeros(static_cast<std::size_t>(nsamples_) * kProbeBatchSteps * sizeof(float));
    probe_global_ = cl::NDRange(static_cast<std::size_t>(nsamples_));
  }
  flag_ = zeros(sizeof(cl_int));
  placeholder_ = zeros(sizeof(cl_float4) * 8);
}

void OpenClBackend::bind_arguments() {
  const auto& L = m_.layout;
  const auto& g = m_.grid;
  const cl_float inv_dx = static_cast<cl_float>(1 / g.d[0]);
  const cl_float inv_dy = static_cast<cl_float>(1 / g.d[1]);
  const cl_float inv_dz = static_cast<cl_float>(1 / g.d[2]);
  const cl_int nx = L.nx, ny = L.ny, nz = L.nz, nz4 = L.nz4, nzp = static_cast<cl_int>(L.nzp());
  const auto& lay = m_.upml.layers;
  // The tile and onepass kernels count z in float4s, the others index floats along padded rows.
  const cl_int nz_units = uses_zslab() ? nz4 : nzp;  // tile and onepass: float4s
  auto grid_args = [&](ArgBinder& a) {
    a << inv_dx << inv_dy << inv_dz << nx << ny << nz << nz_units;
    for (int f = 0; f < 6; ++f) a << static_cast<cl_int>(lay[f]);
  };
  const auto& F = fields_;
  // Where the UPML slab kernels write: in place for the tile variant, the next fields for onepass
  // (H before its pass, E after it, reading H_new there too: update_onepass.cl).
  const auto& O = variant_ == KernelVariant::OnePass ? fields_next_ : fields_;

  const cl_float db_vacuum =
      static_cast<cl_float>(m_.materials.h_coefficients(MaterialTable::kVacuum, g.dt).db);
  const ZSlabLayout z = zslab_layout(m_, variant_);
  if (variant_ == KernelVariant::OnePass) {
    // update_onepass.cl: the current fields in, the next ones out.
    ArgBinder o(update_h_);
    for (const auto& f : F) o << f;
    for (const auto& f : fields_next_) o << f;
    o << ids_[0] << ids_[1] << ids_[2] << ecoef_;
    if (m_.magnetic) {
      o << ids_[3] << ids_[4] << ids_[5] << hcoef_;
    } else {
      o << db_vacuum;
    }
    grid_args(o);
    o << static_cast<cl_int>(z.zq_lo) << static_cast<cl_int>(z.zq_hi) << static_cast<cl_int>(wg_[0]);
  }
  ArgBinder h(update_h_);
  ArgBinder e(update_e_);
  if (variant_ != KernelVariant::OnePass) {
    h << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
    if (m_.magnetic) {
      h << ids_[3] << ids_[4] << ids_[5] << hcoef_;
    } else {
      h << db_vacuum;
    }
    grid_args(h);
    e << F[0] << F[1] << F[2] << F[3] << F[4] << F[5] << ids_[0] << ids_[1] << ids_[2] << ecoef_;
    grid_args(e);
  }

  if (variant_ == KernelVariant::Tile) {
    // Float4s kq < zq_lo or >= zq_hi of interior rows belong to upml_zslab.cl.
    h << static_cast<cl_int>(z.zq_lo) << static_cast<cl_int>(z.zq_hi);
    e << static_cast<cl_int>(z.zq_lo) << static_cast<cl_int>(z.zq_hi);
  }
  if (uses_zslab()) {
    if (zslab_) {
      auto zslab_tail = [&](ArgBinder& a, double dt_over) {
        a << zlanes_ << static_cast<cl_float>(dt_over);
        grid_args(a);
        a << static_cast<cl_int>(z.zq_lo) << static_cast<cl_int>(z.zq_hi)
          << static_cast<cl_int>(z.znq);
      };
      ArgBinder zh(zslab_h_);
      zh << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2];
      if (m_.magnetic) {
        zh << ids_[3] << ids_[4] << ids_[5] << hcoef_;
      } else {
        zh << static_cast<cl_float>(m_.materials.h_coefficients(MaterialTable::kVacuum, g.dt).db);
      }
      zh << zaux_[0] << zaux_[1];
      zslab_tail(zh, g.dt / kMu0);
      ArgBinder ze(zslab_e_);
      ze << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << ids_[0]
         << ids_[1] << ids_[2] << ecoef_
         << zaux_[2] << zaux_[3];
      zslab_tail(ze, g.dt / kEps0);
    }
  }

  if (variant_ == KernelVariant::Fused || variant_ == KernelVariant::Rows) {
    // The UPML tail of the fused kernels; without PML cells nothing reads it, but every argument
    // must still be a valid buffer.
    const bool pml = m_.upml.enabled();
    auto buf = [&](const cl::Buffer& b) -> const cl::Buffer& { return pml ? b : placeholder_; };
    const cl_int nboxes = static_cast<cl_int>(m_.upml.boxes.size());
    h << buf(aux_[3]) << buf(aux_[4]) << buf(aux_[5]) << buf(boxes_) << nboxes;
    for (const auto& p : profiles_) h << buf(p);
    h << static_cast<cl_float>(g.dt / kMu0);
    if (variant_ == KernelVariant::Rows) h << buf(z_split_);
    e << buf(aux_[0]) << buf(aux_[1]) << buf(aux_[2]) << buf(boxes_) << nboxes;
    for (const auto& p : profiles_) e << buf(p);
    e << static_cast<cl_float>(g.dt / kEps0);
    if (variant_ == KernelVariant::Rows) e << buf(z_split_);
  }

  if (xy4_) {
    auto xy4_tail = [&](ArgBinder& a, double dt_over) {
      a << static_cast<cl_float>(dt_over) << inv_dx << inv_dy << inv_dz << nx << ny << nz4;
      for (int f = 0; f < 4; ++f) a << static_cast<cl_int>(lay[f]);
      a << static_cast<cl_int>(xy_rows_);
    };
    ArgBinder xh(xy4_h_);
    xh << O[3] << O[4] << O[5] << F[3] << F[4] << F[5] << F[0] << F[1] << F[2] << aux_[3]
       << aux_[4] << aux_[5];
    xh << profiles_[0] << profiles_[1] << profiles_[3] << profiles_[4] << zlanes_;
    if (m_.magnetic) xh << ids_[3] << ids_[4] << ids_[5] << hcoef_;
    xy4_tail(xh, g.dt / kMu0);
    ArgBinder xe(xy4_e_);
    xe << O[0] << O[1] << O[2] << F[0] << F[1] << F[2] << O[3] << O[4] << O[5] << aux_[0]
       << aux_[1] << aux_[2];
    xe << profiles_[0] << profiles_[1] << profiles_[3] << profiles_[4] << zlanes_;
    xe << ids_[0] << ids_[1] << ids_[2] << ecoef_;
    xy4_tail(xe, g.dt / kEps0);
  }
  if (m_.upml.enabled() && !uses_zslab() && variant_ != KernelVariant::Fused &&
      variant_ != KernelVariant::Rows) {
    auto tail = [&](ArgBinder& a, double dt_over) {
      a << static_cast<cl_float>(dt_over) << inv_dx << inv_dy << inv_dz << nx << ny << nz << nzp;
    };
    // The 7 box arguments are set per launch (enqueue_upml); zeros until then.
    auto box_args = [&](ArgBinder& a) {
      box_arg_ = a.next();
      for (int n = 0; n < 7; ++n) a << cl_int{0};
    };
    ArgBinder uh(upml_h_);
    uh << F[3] << F[4] << F[5] << F[0] << F[1] << F[2] << aux_[3] << aux_[4] << aux_[5];
    box_args(uh);
    for (const auto& p : profiles_) uh << p;
    if (m_.magnetic) uh << ids_[3] << ids_[4] << ids_[5] << hcoef_;
    tail(uh, g.dt / kMu0);

    ArgBinder ue(upml_e_);
    ue << F[0] << F[1] << F[2] << F[3] << F[4] << F[5] << aux_[0] << aux_[1] << aux_[2];
    box_args(ue);
    for (const auto& p : profiles_) ue << p;
    ue << ids_[0] << ids_[1] << ids_[2] << ecoef_;
    tail(ue, g.dt / kEps0);
  }

  if (nsrc_ > 0) {
    ArgBinder s(add_sources_);
    s << F[0] << F[1] << F[2] << ids_[0] << ids_[1] << ids_[2] << ecoef_ << src_cells_ << src_j_
      << static_cast<cl_int>(nsrc_) << static_cast<cl_int>(src_steps_);
    src_step_arg_ = s.next();
    s << cl_int{0};
  }
  if (nsamples_ > 0) {
    ArgBinder p(sample_probes_);
    for (const auto& f : F) p << f;
    p << probe_cells_ << probe_batch_ << static_cast<cl_int>(nsamples_);
    probe_slot_arg_ = p.next();
    p << cl_int{0};
  }
  ArgBinder fin(check_finite_);
  for (const auto& f : F) fin << f;
  fin << flag_ << static_cast<cl_int>(static_cast<std::size_t>(L.nx) * L.ny * L.nz4);
}

}  // namespace clfdtd
