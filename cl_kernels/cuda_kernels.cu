// nvcc's entry point into cl_kernels/: the CUDA backend runs the very kernels the OpenCL backend
// builds, compiled through compat.h (one source of truth for the update equations). Each .cl
// file is included inside a C++ namespace, once per setting it is compiled with:
//   update_plain.cl, upml.cl, upml_zslab.cl, upml_xy4.cl, update_fused.cl,
//   update_rows.cl                                                 MAGNETIC 0 and 1   m0, m1
//   sources.cl, probes.cl, check_finite.cl                         clfdtd_cuda
//   energy.cl                                                      MAGNETIC 0 and 1   m0, m1
//   update_h.cl   per tile shape, MAGNETIC 0 and 1   clfdtd_cuda::tile_<x>_<y>_<z4>::m0, m1
//   update_e.cl   per tile shape                     clfdtd_cuda::tile_<x>_<y>_<z4>
// The tile shapes come from CMake's CLFDTD_CUDA_TILES through the generated cuda_tiles.inc.
// Launchers make typed <<<>>> calls with the arguments in the kernels' order (the OpenCL
// backend's opencl_buffers.cpp binds the same lists), so a changed kernel signature fails to
// compile here, and report cudaGetLastError().
#include "compat.h"
#include "fdtd_common.h"
#include "upml_lanes.h"
#include "backends/cuda/cuda_kernels.hpp"

namespace clfdtd_cuda {

using clfdtd::CudaKernelArgs;
using clfdtd::CudaLaunch;
using clfdtd::CudaPmlBox;

// The host keeps untyped float / uint8 pointers; the tiled kernels take float4 lanes and uchar4
// ids, every kernel float4 coefficient and profile tables.
static float4* f4(float* p) { return reinterpret_cast<float4*>(p); }
static const float4* cf4(const float* p) { return reinterpret_cast<const float4*>(p); }
static const uchar4* u4(const unsigned char* p) { return reinterpret_cast<const uchar4*>(p); }

namespace m0 {
#undef MAGNETIC
#define MAGNETIC 0
#include "update_fused.cl"  // with update_plain.cl and upml.cl, which it includes
#include "upml_zslab.cl"
#include "upml_xy4.cl"
#include "update_rows.cl"
#include "energy.cl"
#undef HCOEF_PARAMS  // the .cl files define these per MAGNETIC setting
#undef HCOEF_ARGS
#undef UPML_HCOEF_ARGS
#undef PLAIN_HCOEF_PARAMS
#undef PLAIN_HCOEF_ARGS
#undef UPML_H_CELL_ARGS
#undef UPML_E_CELL_ARGS
}  // namespace m0

namespace m1 {
#undef MAGNETIC
#define MAGNETIC 1
#include "update_fused.cl"  // with update_plain.cl and upml.cl, which it includes
#include "upml_zslab.cl"
#include "upml_xy4.cl"
#include "update_rows.cl"
#include "energy.cl"
#undef HCOEF_PARAMS  // the .cl files define these per MAGNETIC setting
#undef HCOEF_ARGS
#undef UPML_HCOEF_ARGS
#undef PLAIN_HCOEF_PARAMS
#undef PLAIN_HCOEF_ARGS
#undef UPML_H_CELL_ARGS
#undef UPML_E_CELL_ARGS
}  // namespace m1

#include "sources.cl"
#include "probes.cl"
#include "check_finite.cl"

// The plain and rows variants take the same arguments: z in cells (nzp, not nz4).
template <class H0, class H1>
static cudaError_t launch_h_cells(H0 k0, H1 k1, const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  if (a.magnetic) {
    k1<<<l.grid, l.block, 0, l.stream>>>(a.field[3], a.field[4], a.field[5], a.field[0],
                                         a.field[1], a.field[2], a.id[3], a.id[4], a.id[5],
                                         cf4(a.hcoef), a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx,
                                         a.ny, a.nz, a.nzp, P[0], P[1], P[2], P[3], P[4], P[5]);
  } else {
    k0<<<l.grid, l.block, 0, l.stream>>>(a.field[3], a.field[4], a.field[5], a.field[0],
                                         a.field[1], a.field[2], a.db_vacuum, a.inv_d[0],
                                         a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nzp, P[0],
                                         P[1], P[2], P[3], P[4], P[5]);
  }
  return cudaGetLastError();
}

template <class E>
static cudaError_t launch_e_cells(E k, const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  k<<<l.grid, l.block, 0, l.stream>>>(a.field[0], a.field[1], a.field[2], a.field[3], a.field[4],
                                      a.field[5], a.id[0], a.id[1], a.id[2], cf4(a.ecoef),
                                      a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nzp,
                                      P[0], P[1], P[2], P[3], P[4], P[5]);
  return cudaGetLastError();
}

// update_e_plain / update_e_rows do not depend on MAGNETIC; the m0 copies serve both.
static cudaError_t launch_update_h_plain(const CudaLaunch& l, const CudaKernelArgs& a) {
  return launch_h_cells(m0::update_h_plain, m1::update_h_plain, l, a);
}
static cudaError_t launch_update_e_plain(const CudaLaunch& l, const CudaKernelArgs& a) {
  return launch_e_cells(m0::update_e_plain, l, a);
}
// The fused and rows variants update their PML cells too: the plain argument list, then the
// auxiliaries, the box table, the six profiles and dt/mu0 (dt/eps0); rows adds the split z
// profiles. Without PML the pointers are null and never read.
#define CLFDTD_H_CELL_ARGS                                                                    \
  a.field[3], a.field[4], a.field[5], a.field[0], a.field[1], a.field[2]
#define CLFDTD_GRID_ARGS                                                                      \
  a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nzp, a.layers[0], a.layers[1],      \
      a.layers[2], a.layers[3], a.layers[4], a.layers[5]
#define CLFDTD_PML_TAIL(AUX0, DT)                                                             \
  a.aux[AUX0], a.aux[AUX0 + 1], a.aux[AUX0 + 2], a.boxes, a.nboxes, cf4(a.profile[0]),      \
      cf4(a.profile[1]), cf4(a.profile[2]), cf4(a.profile[3]), cf4(a.profile[4]),           \
      cf4(a.profile[5]), DT

static cudaError_t launch_update_h_rows(const CudaLaunch& l, const CudaKernelArgs& a) {
  if (a.magnetic) {
    m1::update_h_rows<<<l.grid, l.block, 0, l.stream>>>(
        CLFDTD_H_CELL_ARGS, a.id[3], a.id[4], a.id[5], cf4(a.hcoef), CLFDTD_GRID_ARGS,
        CLFDTD_PML_TAIL(3, a.dt_mu0), a.z_split);
  } else {
    m0::update_h_rows<<<l.grid, l.block, 0, l.stream>>>(
        CLFDTD_H_CELL_ARGS, a.db_vacuum, CLFDTD_GRID_ARGS, CLFDTD_PML_TAIL(3, a.dt_mu0), a.z_split);
  }
  return cudaGetLastError();
}
static cudaError_t launch_update_h_fused(const CudaLaunch& l, const CudaKernelArgs& a) {
  if (a.magnetic) {
    m1::update_h_fused<<<l.grid, l.block, 0, l.stream>>>(
        CLFDTD_H_CELL_ARGS, a.id[3], a.id[4], a.id[5], cf4(a.hcoef), CLFDTD_GRID_ARGS,
        CLFDTD_PML_TAIL(3, a.dt_mu0));
  } else {
    m0::update_h_fused<<<l.grid, l.block, 0, l.stream>>>(
        CLFDTD_H_CELL_ARGS, a.db_vacuum, CLFDTD_GRID_ARGS, CLFDTD_PML_TAIL(3, a.dt_mu0));
  }
  return cudaGetLastError();
}
// update_e_rows / update_e_fused do not depend on MAGNETIC; the m0 copies serve both.
static cudaError_t launch_update_e_rows(const CudaLaunch& l, const CudaKernelArgs& a) {
  m0::update_e_rows<<<l.grid, l.block, 0, l.stream>>>(
      a.field[0], a.field[1], a.field[2], a.field[3], a.field[4], a.field[5], a.id[0], a.id[1],
      a.id[2], cf4(a.ecoef), CLFDTD_GRID_ARGS, CLFDTD_PML_TAIL(0, a.dt_eps0), a.z_split);
  return cudaGetLastError();
}
static cudaError_t launch_update_e_fused(const CudaLaunch& l, const CudaKernelArgs& a) {
  m0::update_e_fused<<<l.grid, l.block, 0, l.stream>>>(
      a.field[0], a.field[1], a.field[2], a.field[3], a.field[4], a.field[5], a.id[0], a.id[1],
      a.id[2], cf4(a.ecoef), CLFDTD_GRID_ARGS, CLFDTD_PML_TAIL(0, a.dt_eps0));
  return cudaGetLastError();
}
#undef CLFDTD_H_CELL_ARGS
#undef CLFDTD_GRID_ARGS
#undef CLFDTD_PML_TAIL

static cudaError_t launch_upml_h(const CudaLaunch& l, const CudaKernelArgs& a,
                                 const CudaPmlBox& b) {
  const auto& P = a.profile;
  if (a.magnetic) {
    m1::upml_h<<<l.grid, l.block, 0, l.stream>>>(
        a.field[3], a.field[4], a.field[5], a.field[0], a.field[1], a.field[2], a.aux[3],
        a.aux[4], a.aux[5], b.i0, b.j0, b.k0, b.ni, b.nj, b.nk, b.aux_offset, cf4(P[0]),
        cf4(P[1]), cf4(P[2]), cf4(P[3]), cf4(P[4]), cf4(P[5]), a.id[3], a.id[4], a.id[5],
        cf4(a.hcoef), a.dt_mu0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nzp);
  } else {
    m0::upml_h<<<l.grid, l.block, 0, l.stream>>>(
        a.field[3], a.field[4], a.field[5], a.field[0], a.field[1], a.field[2], a.aux[3],
        a.aux[4], a.aux[5], b.i0, b.j0, b.k0, b.ni, b.nj, b.nk, b.aux_offset, cf4(P[0]),
        cf4(P[1]), cf4(P[2]), cf4(P[3]), cf4(P[4]), cf4(P[5]), a.dt_mu0, a.inv_d[0], a.inv_d[1],
        a.inv_d[2], a.nx, a.ny, a.nz, a.nzp);
  }
  return cudaGetLastError();
}

// The fields the UPML slab kernels write (upml_zslab.cl): the current ones (tile, in place) or
// the next ones (onepass).
static float* const* slab_out(const CudaKernelArgs& a) {
  return a.slabs_to_next ? a.field_next : a.field;
}

// The tile variant's z slabs (upml_zslab.cl): float4 fields, uchar4 ids.
static cudaError_t launch_upml_zslab_h(const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  float* const* o = slab_out(a);
  if (a.magnetic) {
    m1::upml_zslab_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(o[3]), f4(o[4]), f4(o[5]), cf4(a.field[3]), cf4(a.field[4]), cf4(a.field[5]),
        cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), u4(a.id[3]), u4(a.id[4]), u4(a.id[5]), cf4(a.hcoef), f4(a.zaux[0]),
        f4(a.zaux[1]), cf4(a.zlanes), a.dt_mu0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny,
        a.nz, a.nz4, P[0], P[1], P[2], P[3], P[4], P[5], a.zq_lo, a.zq_hi, a.znq);
  } else {
    m0::upml_zslab_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(o[3]), f4(o[4]), f4(o[5]), cf4(a.field[3]), cf4(a.field[4]), cf4(a.field[5]),
        cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), a.db_vacuum, f4(a.zaux[0]), f4(a.zaux[1]), cf4(a.zlanes), a.dt_mu0,
        a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nz4, P[0], P[1], P[2], P[3],
        P[4], P[5], a.zq_lo, a.zq_hi, a.znq);
  }
  return cudaGetLastError();
}
// The tile and onepass variants' x/y slabs (upml_xy4.cl): float4 fields and auxiliaries.
static cudaError_t launch_upml_xy4_h(const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  float* const* o = slab_out(a);
  const auto& Q = a.profile;
  if (a.magnetic) {
    m1::upml_xy4_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(o[3]), f4(o[4]), f4(o[5]), cf4(a.field[3]), cf4(a.field[4]), cf4(a.field[5]),
        cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), f4(a.aux[3]), f4(a.aux[4]), f4(a.aux[5]), cf4(Q[0]), cf4(Q[1]),
        cf4(Q[3]), cf4(Q[4]), cf4(a.zlanes), u4(a.id[3]), u4(a.id[4]), u4(a.id[5]),
        cf4(a.hcoef), a.dt_mu0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz4, P[0],
        P[1], P[2], P[3], a.xy_rows);
  } else {
    m0::upml_xy4_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(o[3]), f4(o[4]), f4(o[5]), cf4(a.field[3]), cf4(a.field[4]), cf4(a.field[5]),
        cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), f4(a.aux[3]), f4(a.aux[4]), f4(a.aux[5]), cf4(Q[0]), cf4(Q[1]),
        cf4(Q[3]), cf4(Q[4]), cf4(a.zlanes), a.dt_mu0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx,
        a.ny, a.nz4, P[0], P[1], P[2], P[3], a.xy_rows);
  }
  return cudaGetLastError();
}
// upml_xy4_e does not depend on MAGNETIC; the m0 copy serves both.
static cudaError_t launch_upml_xy4_e(const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  const auto& Q = a.profile;
  float* const* o = slab_out(a);
  m0::upml_xy4_e<<<l.grid, l.block, 0, l.stream>>>(
      f4(o[0]), f4(o[1]), f4(o[2]), cf4(a.field[0]), cf4(a.field[1]), cf4(a.field[2]), cf4(o[3]),
      cf4(o[4]), cf4(o[5]), f4(a.aux[0]), f4(a.aux[1]), f4(a.aux[2]), cf4(Q[0]), cf4(Q[1]), cf4(Q[3]),
      cf4(Q[4]), cf4(a.zlanes), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]), cf4(a.ecoef), a.dt_eps0,
      a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz4, P[0], P[1], P[2], P[3], a.xy_rows);
  return cudaGetLastError();
}

// upml_zslab_e does not depend on MAGNETIC; the m0 copy serves both.
static cudaError_t launch_upml_zslab_e(const CudaLaunch& l, const CudaKernelArgs& a) {
  const int* P = a.layers;
  float* const* o = slab_out(a);
  m0::upml_zslab_e<<<l.grid, l.block, 0, l.stream>>>(
      f4(o[0]), f4(o[1]), f4(o[2]), cf4(a.field[0]), cf4(a.field[1]), cf4(a.field[2]), cf4(o[3]),
      cf4(o[4]), cf4(o[5]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]), cf4(a.ecoef), f4(a.zaux[2]),
      f4(a.zaux[3]), cf4(a.zlanes), a.dt_eps0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny,
      a.nz, a.nz4, P[0], P[1], P[2], P[3], P[4], P[5], a.zq_lo, a.zq_hi, a.znq);
  return cudaGetLastError();
}

// upml_e does not depend on MAGNETIC; the m0 copy serves both.
static cudaError_t launch_upml_e(const CudaLaunch& l, const CudaKernelArgs& a,
                                 const CudaPmlBox& b) {
  const auto& P = a.profile;
  m0::upml_e<<<l.grid, l.block, 0, l.stream>>>(
      a.field[0], a.field[1], a.field[2], a.field[3], a.field[4], a.field[5], a.aux[0], a.aux[1],
      a.aux[2], b.i0, b.j0, b.k0, b.ni, b.nj, b.nk, b.aux_offset, cf4(P[0]), cf4(P[1]),
      cf4(P[2]), cf4(P[3]), cf4(P[4]), cf4(P[5]), a.id[0], a.id[1], a.id[2], cf4(a.ecoef),
      a.dt_eps0, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nzp);
  return cudaGetLastError();
}

static cudaError_t launch_add_sources(const CudaLaunch& l, const CudaKernelArgs& a, int s) {
  add_sources<<<l.grid, l.block, 0, l.stream>>>(a.field[0], a.field[1], a.field[2], a.id[0],
                                                a.id[1], a.id[2], cf4(a.ecoef), a.src_cells,
                                                a.src_j, a.nsrc, a.src_steps, s);
  return cudaGetLastError();
}

static cudaError_t launch_sample_probes(const CudaLaunch& l, const CudaKernelArgs& a, int slot) {
  sample_probes<<<l.grid, l.block, 0, l.stream>>>(a.field[0], a.field[1], a.field[2], a.field[3],
                                                  a.field[4], a.field[5], a.probe_cells,
                                                  a.probe_batch, a.nsamples, slot);
  return cudaGetLastError();
}

static cudaError_t launch_check_finite(const CudaLaunch& l, const CudaKernelArgs& a) {
  check_finite<<<l.grid, l.block, 0, l.stream>>>(cf4(a.field[0]), cf4(a.field[1]),
                                                 cf4(a.field[2]), cf4(a.field[3]),
                                                 cf4(a.field[4]), cf4(a.field[5]), a.flag,
                                                 a.count4);
  return cudaGetLastError();
}

}  // namespace clfdtd_cuda

// The tiled kernels, one block per shape of CLFDTD_CUDA_TILES; the file also defines
// CLFDTD_CUDA_TILE_LIST(X), which calls X(x, y, z4) for each shape in order.
#undef TILE_X
#undef TILE_Y
#undef TILE_Z4
#include "cuda_tiles.inc"

namespace clfdtd {

const std::vector<CudaTileKernels>& cuda_tile_kernels() {
#define CLFDTD_TILE_ENTRY(x, y, z)                                                 \
  CudaTileKernels{x,                                                               \
                  y,                                                               \
                  z,                                                               \
                  &clfdtd_cuda::tile_##x##_##y##_##z::launch_update_h,             \
                  &clfdtd_cuda::tile_##x##_##y##_##z::launch_update_e,             \
                  {(const void*)&clfdtd_cuda::tile_##x##_##y##_##z::m0::update_h,  \
                   (const void*)&clfdtd_cuda::tile_##x##_##y##_##z::m1::update_h}, \
                  (const void*)&clfdtd_cuda::tile_##x##_##y##_##z::update_e,       \
                  clfdtd_cuda::tile_##x##_##y##_##z::onepass_launcher(),           \
                  {clfdtd_cuda::tile_##x##_##y##_##z::onepass_fn(0),               \
                   clfdtd_cuda::tile_##x##_##y##_##z::onepass_fn(1)}},
  static const std::vector<CudaTileKernels> tiles = {CLFDTD_CUDA_TILE_LIST(CLFDTD_TILE_ENTRY)};
#undef CLFDTD_TILE_ENTRY
  return tiles;
}

const CudaCommonKernels& cuda_common_kernels() {
  using namespace clfdtd_cuda;
  static const CudaCommonKernels k{&launch_update_h_plain,
                                   &launch_update_e_plain,
                                   &launch_update_h_rows,
                                   &launch_update_e_rows,
                                   &launch_update_h_fused,
                                   &launch_update_e_fused,
                                   &launch_upml_h,
                                   &launch_upml_e,
                                   &launch_upml_zslab_h,
                                   &launch_upml_zslab_e,
                                   &launch_upml_xy4_h,
                                   &launch_upml_xy4_e,
                                   &launch_check_finite,
                                   &launch_add_sources,
                                   &launch_sample_probes,
                                   {(const void*)&m0::update_h_plain,
                                    (const void*)&m1::update_h_plain},
                                   (const void*)&m0::update_e_plain,
                                   {(const void*)&m0::update_h_rows,
                                    (const void*)&m1::update_h_rows},
                                   (const void*)&m0::update_e_rows,
                                   {(const void*)&m0::update_h_fused,
                                    (const void*)&m1::update_h_fused},
                                   (const void*)&m0::update_e_fused};
  return k;
}

// energy.cl's reduction tree is sized by ENERGY_GROUP; the host launches blocks of exactly this.
static_assert(ENERGY_GROUP == kCudaEnergyGroup, "energy.cl ENERGY_GROUP != kCudaEnergyGroup");

cudaError_t launch_cuda_energy_sums(const CudaLaunch& l, const CudaKernelArgs& a,
                                    const CudaEnergyArgs& e, int slot) {
  using namespace clfdtd_cuda;
  const int groups = static_cast<int>(l.grid.x);
  const int stride = groups * static_cast<int>(l.block.x);  // the grid's threads
  const float* const* f = a.field;
  if (a.magnetic) {
    m1::energy_sums<<<l.grid, l.block, 0, l.stream>>>(
        cf4(f[0]), cf4(f[1]), cf4(f[2]), cf4(f[3]), cf4(f[4]), cf4(f[5]), f4(e.h_prev[0]),
        f4(e.h_prev[1]), f4(e.h_prev[2]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]), e.eps_r,
        u4(a.id[3]), u4(a.id[4]), u4(a.id[5]), e.mu_r, e.partial, a.count4, stride, groups, slot);
  } else {
    m0::energy_sums<<<l.grid, l.block, 0, l.stream>>>(
        cf4(f[0]), cf4(f[1]), cf4(f[2]), cf4(f[3]), cf4(f[4]), cf4(f[5]), f4(e.h_prev[0]),
        f4(e.h_prev[1]), f4(e.h_prev[2]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]), e.eps_r,
        e.partial, a.count4, stride, groups, slot);
  }
  return cudaGetLastError();
}

const void* cuda_energy_sums_fn(bool magnetic) {
  return magnetic ? (const void*)&clfdtd_cuda::m1::energy_sums
                  : (const void*)&clfdtd_cuda::m0::energy_sums;
}

}  // namespace clfdtd
