// Included by cuda_kernels.cu (through the generated cuda_tiles.inc) once per block shape, with
// TILE_X, TILE_Y, TILE_Z4 defined: the tiled kernels update_h.cl (MAGNETIC 0 and 1) and
// update_e.cl, compiled by nvcc exactly as the OpenCL backend compiles them, inside namespace
// clfdtd_cuda::tile_<x>_<y>_<z4>, plus their typed launchers. Not embedded into the OpenCL program
// (tools/embed_kernels.cmake takes only *.h and *.cl).
#if TILE_X * TILE_Y * TILE_Z4 > 1024 || TILE_X > 64
#error "a CUDA block has at most 1024 threads and at most 64 along z (= TILE_X)"
#endif

#define CLFDTD_PASTE_NS(x, y, z) tile_##x##_##y##_##z
#define CLFDTD_TILE_NS(x, y, z) CLFDTD_PASTE_NS(x, y, z)

namespace clfdtd_cuda {
namespace CLFDTD_TILE_NS(TILE_X, TILE_Y, TILE_Z4) {

namespace m0 {
#undef MAGNETIC
#define MAGNETIC 0
#include "update_h.cl"
}  // namespace m0

namespace m1 {
#undef MAGNETIC
#define MAGNETIC 1
#include "update_h.cl"
}  // namespace m1

#include "update_e.cl"

// update_onepass.cl: its group is (z4, y) with one halo row and float4, marching along x.
#if TILE_X == 1 && TILE_Y >= 2 && TILE_Z4 >= 2
namespace m0 {
#undef MAGNETIC
#define MAGNETIC 0
#include "update_onepass.cl"
}  // namespace m0
namespace m1 {
#undef MAGNETIC
#define MAGNETIC 1
#include "update_onepass.cl"
}  // namespace m1

static cudaError_t launch_onepass(const clfdtd::CudaLaunch& l, const clfdtd::CudaKernelArgs& a) {
  const float* const* F = a.field;
  float* const* N = a.field_next;
  if (a.magnetic) {
    m1::update_onepass<<<l.grid, l.block, 0, l.stream>>>(
        cf4(F[0]), cf4(F[1]), cf4(F[2]), cf4(F[3]), cf4(F[4]), cf4(F[5]), f4(N[0]), f4(N[1]),
        f4(N[2]), f4(N[3]), f4(N[4]), f4(N[5]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]),
        cf4(a.ecoef), u4(a.id[3]), u4(a.id[4]), u4(a.id[5]), cf4(a.hcoef), a.inv_d[0], a.inv_d[1],
        a.inv_d[2], a.nx, a.ny, a.nz, a.nz4, a.layers[0], a.layers[1], a.layers[2], a.layers[3],
        a.layers[4], a.layers[5], a.zq_lo, a.zq_hi, a.planes);
  } else {
    m0::update_onepass<<<l.grid, l.block, 0, l.stream>>>(
        cf4(F[0]), cf4(F[1]), cf4(F[2]), cf4(F[3]), cf4(F[4]), cf4(F[5]), f4(N[0]), f4(N[1]),
        f4(N[2]), f4(N[3]), f4(N[4]), f4(N[5]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]),
        cf4(a.ecoef), a.db_vacuum, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nz4,
        a.layers[0], a.layers[1], a.layers[2], a.layers[3], a.layers[4], a.layers[5], a.zq_lo,
        a.zq_hi, a.planes);
  }
  return cudaGetLastError();
}
static clfdtd::CudaLauncher onepass_launcher() { return &launch_onepass; }
static const void* onepass_fn(int magnetic) {
  return magnetic ? (const void*)&m1::update_onepass : (const void*)&m0::update_onepass;
}
#else
static clfdtd::CudaLauncher onepass_launcher() { return nullptr; }
static const void* onepass_fn(int) { return nullptr; }
#endif

static cudaError_t launch_update_h(const clfdtd::CudaLaunch& l, const clfdtd::CudaKernelArgs& a) {
  if (a.magnetic) {
    m1::update_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(a.field[3]), f4(a.field[4]), f4(a.field[5]), cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), u4(a.id[3]), u4(a.id[4]), u4(a.id[5]), cf4(a.hcoef), a.inv_d[0],
        a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nz4, a.layers[0], a.layers[1], a.layers[2],
        a.layers[3], a.layers[4], a.layers[5], a.zq_lo, a.zq_hi);
  } else {
    m0::update_h<<<l.grid, l.block, 0, l.stream>>>(
        f4(a.field[3]), f4(a.field[4]), f4(a.field[5]), cf4(a.field[0]), cf4(a.field[1]),
        cf4(a.field[2]), a.db_vacuum, a.inv_d[0], a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz,
        a.nz4, a.layers[0], a.layers[1], a.layers[2], a.layers[3], a.layers[4], a.layers[5],
        a.zq_lo, a.zq_hi);
  }
  return cudaGetLastError();
}

static cudaError_t launch_update_e(const clfdtd::CudaLaunch& l, const clfdtd::CudaKernelArgs& a) {
  update_e<<<l.grid, l.block, 0, l.stream>>>(
      f4(a.field[0]), f4(a.field[1]), f4(a.field[2]), cf4(a.field[3]), cf4(a.field[4]),
      cf4(a.field[5]), u4(a.id[0]), u4(a.id[1]), u4(a.id[2]), cf4(a.ecoef), a.inv_d[0],
      a.inv_d[1], a.inv_d[2], a.nx, a.ny, a.nz, a.nz4, a.layers[0], a.layers[1], a.layers[2],
      a.layers[3], a.layers[4], a.layers[5], a.zq_lo, a.zq_hi);
  return cudaGetLastError();
}

}  // namespace CLFDTD_TILE_NS(TILE_X, TILE_Y, TILE_Z4)
}  // namespace clfdtd_cuda

#undef CLFDTD_TILE_NS
#undef CLFDTD_PASTE_NS
#undef TILE_X
#undef TILE_Y
#undef TILE_Z4
