// The UPML slabs of the tile and onepass variants, one launch per field kind: upml_slabs_h for H,
// upml_slabs_e for E. A launch is 1D, a whole number of work-groups of group_items work-items each
// (the host's choice: 128, or the device's limit), of two kinds chosen per group, so that no warp
// diverges on the kind:
//   x/y groups: float4 q = xy_first + n * group_items + local id of the x/y-slab rows' float4s,
//     row r = q / nz4, kq = q % nz4 (upml_xy4.cl; q is also the auxiliaries' index);
//   z groups: float4 p = z_first + n * group_items + local id of the z slabs' float4s,
//     p = (ii * nyi + jj) * znq + slot (upml_zslab.cl; p is also the auxiliaries' index);
// n the group's number among its kind (slab_group_is_z); work-items past either kind's count, or
// outside the rows [ri0, ri1) x [rj0, rj1), store nothing. The first float4s and the group counts
// are the host's (plan_slabs.cpp: the interval of each kind that a step split by rows needs).
// The kinds are interleaved evenly over the group ids, so the z groups (64 B pieces of a row, the
// lower bandwidth) run alongside the x/y groups' streaming rather than after it. Either kind may
// have no groups (no such slabs, or a region of the step that holds none).
//
// Why one launch: four launches per step (x/y and z slabs, H and E) each had its own tail, and the
// z slabs ran at ~2.7 TB/s against 3.9 for the x/y ones on the H200 (docs/BENCHMARKS.md).
//
// The two kinds write disjoint float4s (x/y-slab rows; z-slab float4s of interior rows) and read,
// beyond their own float4, only the field kind the launch does not write, so the groups need no
// order among them. Bytes per float4: upml_xy4.cl and upml_zslab.cl.
// The functions of those files take no RESTRICT: the kernels' parameters here carry it (NVCC emits
// the same read-only loads either way), and inlining restrict parameters leaves
// llvm.experimental.noalias.scope.decl calls that oclgrind cannot run (tools/oclgrind_check.sh).
#include "fdtd_common.h"
#include "upml_xy4.cl"
#include "upml_zslab.cl"

/* Whether group g of a launch is a z group, the kinds spread evenly over the group ids: with
   F(g) = floor(g * z_share / 2^32) (z_share = ceil(Z * 2^32 / G) for Z z groups of G, below 2^32
   while there are x/y groups, so F(G) = Z and F steps by 0 or 1), g is a z group when
   F(g + 1) > F(g), and F(g) z groups come before it. *n: its number among the groups of its kind.
   No x/y groups: every group is a z group. One 64-bit multiply each, no division. */
DEVICE_FN int slab_group_is_z(int g, int xy_groups, uint z_share, int* n) {
  if (xy_groups == 0) {
    *n = g;
    return 1;
  }
  const int z_before = (int)(((unsigned long)g * z_share) >> 32);
  const int z_upto = (int)(((unsigned long)(g + 1) * z_share) >> 32);
  *n = z_upto > z_before ? z_before : g - z_before;
  return z_upto > z_before;
}

KERNEL void upml_slabs_h(
    GLOBAL float4* hx_out, GLOBAL float4* hy_out, GLOBAL float4* hz_out, GLOBAL const float4* hx,
    GLOBAL const float4* hy, GLOBAL const float4* hz, GLOBAL const float4* RESTRICT ex,
    GLOBAL const float4* RESTRICT ey, GLOBAL const float4* RESTRICT ez,
    GLOBAL const uchar4* RESTRICT id_hx, GLOBAL const uchar4* RESTRICT id_hy,
    GLOBAL const uchar4* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
    GLOBAL AUX4* RESTRICT bx, GLOBAL AUX4* RESTRICT by, GLOBAL AUX4* RESTRICT bz,
    GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
    GLOBAL const float4* RESTRICT half_x, GLOBAL const float4* RESTRICT half_y,
    GLOBAL AUX4* RESTRICT zaux,
    GLOBAL const float4* RESTRICT zlanes, float dt_mu0, float inv_dx, float inv_dy, float inv_dz,
    int nx, int ny, int nz, int nz4, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
    int pml_zlo, int pml_zhi, int rows, int zq_lo, int zq_hi, int znq, int ri0, int rj0, int ri1,
    int rj1, int xy_first, int z_first, int xy_groups, uint z_share, int group_items) {
  int n;
  if (slab_group_is_z(GROUP_ID(0), xy_groups, z_share, &n)) {
    const int nyi = ny - pml_ylo - pml_yhi;
    const int p = z_first + n * group_items + LOCAL_ID(0);
    if (p >= (nx - pml_xlo - pml_xhi) * nyi * znq) return;
    const int row = p / znq, ii = row / nyi;
    upml_zslab_h(hx_out, hy_out, hz_out, hx, hy, hz, ex, ey, ez, id_hx, id_hy, id_hz, hcoef,
                 db_vacuum, zaux, zlanes, dt_mu0, inv_dx, inv_dy, inv_dz, nx, ny, nz,
                 nz4, pml_xlo, pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi, zq_lo, zq_hi, znq,
                 ri0, rj0, ri1, rj1, p - row * znq, row - ii * nyi, ii);
  } else {
    const int q = xy_first + n * group_items + LOCAL_ID(0);
    if (q >= rows * nz4) return;
    const int r = q / nz4;
    upml_xy4_h(hx_out, hy_out, hz_out, hx, hy, hz, ex, ey, ez, bx, by, bz, int_x, int_y, half_x,
               half_y, zlanes, id_hx, id_hy, id_hz, hcoef, dt_mu0, inv_dx, inv_dy, inv_dz, nx, ny,
               nz4, pml_xlo, pml_xhi, pml_ylo, pml_yhi, zq_lo, zq_hi, ri0, rj0, ri1, rj1,
               q - r * nz4, r);
  }
}

KERNEL void upml_slabs_e(
    GLOBAL float4* ex_out, GLOBAL float4* ey_out, GLOBAL float4* ez_out, GLOBAL const float4* ex,
    GLOBAL const float4* ey, GLOBAL const float4* ez, GLOBAL const float4* RESTRICT hx,
    GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
    GLOBAL const uchar4* RESTRICT id_ex, GLOBAL const uchar4* RESTRICT id_ey,
    GLOBAL const uchar4* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
    GLOBAL AUX4* RESTRICT dx, GLOBAL AUX4* RESTRICT dy, GLOBAL AUX4* RESTRICT dz,
    GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
    GLOBAL const float4* RESTRICT half_x, GLOBAL const float4* RESTRICT half_y,
    GLOBAL AUX4* RESTRICT zaux,
    GLOBAL const float4* RESTRICT zlanes, float dt_eps0, float inv_dx, float inv_dy, float inv_dz,
    int nx, int ny, int nz, int nz4, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
    int pml_zlo, int pml_zhi, int rows, int zq_lo, int zq_hi, int znq, int ri0, int rj0, int ri1,
    int rj1, int xy_first, int z_first, int xy_groups, uint z_share, int group_items) {
  int n;
  if (slab_group_is_z(GROUP_ID(0), xy_groups, z_share, &n)) {
    const int nyi = ny - pml_ylo - pml_yhi;
    const int p = z_first + n * group_items + LOCAL_ID(0);
    if (p >= (nx - pml_xlo - pml_xhi) * nyi * znq) return;
    const int row = p / znq, ii = row / nyi;
    upml_zslab_e(ex_out, ey_out, ez_out, ex, ey, ez, hx, hy, hz, id_ex, id_ey, id_ez, ecoef,
                 zaux, zlanes, dt_eps0, inv_dx, inv_dy, inv_dz, nx, ny, nz, nz4, pml_xlo,
                 pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi, zq_lo, zq_hi, znq, ri0, rj0, ri1, rj1,
                 p - row * znq, row - ii * nyi, ii);
  } else {
    const int q = xy_first + n * group_items + LOCAL_ID(0);
    if (q >= rows * nz4) return;
    const int r = q / nz4;
    upml_xy4_e(ex_out, ey_out, ez_out, ex, ey, ez, hx, hy, hz, dx, dy, dz, int_x, int_y, half_x,
               half_y, zlanes, id_ex, id_ey, id_ez, ecoef, dt_eps0, inv_dx, inv_dy, inv_dz, nx, ny,
               nz4, pml_xlo, pml_xhi, pml_ylo, pml_yhi, zq_lo, zq_hi, ri0, rj0, ri1, rj1,
               q - r * nz4, r);
  }
}
