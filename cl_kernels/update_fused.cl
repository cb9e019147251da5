// Kernel variant "fused": one pass over every cell per field, the plain update and the UPML update
// in one kernel (update_plain.cl's cell mapping: one cell per work-item, dimension 0 along z).
// Why: with separate UPML launches the z slabs are visited as rows of only a few cells, which
// coalesces badly on GPUs, and every PML cell costs a second pass over its fields; here a warp
// reads whole row segments whether or not they reach into a slab, and a PML cell only adds its
// auxiliaries. A PML cell finds its box (<= 6, in constant memory) to index its auxiliaries
// exactly as upml.cl and the reference engine store them.
#include "fdtd_common.h"
#include "upml_lanes.h"
#include "update_plain.cl"
#include "upml.cl"

KERNEL void update_h_fused(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                           GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                           GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
#if MAGNETIC
                           GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                           GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
#else
                           float db_vacuum,
#endif
                           float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                           int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                           int pml_zlo, int pml_zhi, GLOBAL float* RESTRICT bx,
                           GLOBAL float* RESTRICT by, GLOBAL float* RESTRICT bz,
                           CONSTANT_PTR int* RESTRICT boxes, int nboxes,
                           GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                           GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                           GLOBAL const float4* RESTRICT half_y,
                           GLOBAL const float4* RESTRICT half_z, float dt_mu0) {
  const int k = GLOBAL_ID(0), j = GLOBAL_ID(1), i = GLOBAL_ID(2);
  if (i >= nx || j >= ny || k >= nz) return;
  if (in_pml(i, j, k, nx, ny, nz, pml_xlo, pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi)) {
    const int p = pml_aux_index(boxes, nboxes, i, j, k);
    upml_h_cell(UPML_H_CELL_ARGS(i, j, k, p));
    return;
  }
  plain_h_cell(hx, hy, hz, ex, ey, ez, PLAIN_HCOEF_ARGS inv_dx, inv_dy, inv_dz, nx, ny, nz, nzp,
               i, j, k);
}

KERNEL void update_e_fused(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                           GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                           GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                           GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                           GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                           float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                           int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                           int pml_zlo, int pml_zhi, GLOBAL float* RESTRICT dx_aux,
                           GLOBAL float* RESTRICT dy_aux, GLOBAL float* RESTRICT dz_aux,
                           CONSTANT_PTR int* RESTRICT boxes, int nboxes,
                           GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                           GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                           GLOBAL const float4* RESTRICT half_y,
                           GLOBAL const float4* RESTRICT half_z, float dt_eps0) {
  const int k = GLOBAL_ID(0), j = GLOBAL_ID(1), i = GLOBAL_ID(2);
  if (i >= nx || j >= ny || k >= nz) return;
  if (in_pml(i, j, k, nx, ny, nz, pml_xlo, pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi)) {
    const int p = pml_aux_index(boxes, nboxes, i, j, k);
    upml_e_cell(UPML_E_CELL_ARGS(i, j, k, p));
    return;
  }
  plain_e_cell(ex, ey, ez, hx, hy, hz, id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz, nx, ny,
               nz, nzp, i, j, k);
}
