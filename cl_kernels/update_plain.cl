// Kernel variant "plain": the same plain-cell updates as update_h.cl / update_e.cl (same equations,
// same PML skipping, same zero neighbours past the PEC wall), one cell per work-item, scalar,
// no local memory. The float4 field buffers are viewed as floats, index (i*ny + j)*nzp + k, and
// dimension 0 runs along z so neighbouring work-items touch neighbouring addresses.
// Why a second form: on CPU drivers (PoCL) a barrier splits each work-group into loops and the
// local tiles are extra copies the caches already do; a scalar kernel lets the driver vectorise
// across work-items instead. On GPUs the L1/L2 caches serve the neighbour reads about as well as
// the tiles. The auto-tuner (clfdtd bench) measures both per device.
//
// Bytes per cell: as the float4 form (update_h 36 B, update_e 39 B; +3 B of H ids when MAGNETIC).
#include "fdtd_common.h"

#if MAGNETIC
#define PLAIN_HCOEF_PARAMS GLOBAL const uchar *RESTRICT id_hx, GLOBAL const uchar *RESTRICT id_hy, \
    GLOBAL const uchar *RESTRICT id_hz, CONSTANT_PTR float4 *RESTRICT hcoef,
#define PLAIN_HCOEF_ARGS id_hx, id_hy, id_hz, hcoef,
#else
#define PLAIN_HCOEF_PARAMS float db_vacuum,
#define PLAIN_HCOEF_ARGS db_vacuum,
#endif

/* The plain H update of cell (i, j, k) (a non-PML cell inside the grid). */
DEVICE_FN void plain_h_cell(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                            GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                            GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
                            PLAIN_HCOEF_PARAMS float inv_dx, float inv_dy, float inv_dz, int nx,
                            int ny, int nz, int nzp, int i, int j, int k) {
  const int c = cell_index(i, j, k, ny, nzp);
  const int sx = ny * nzp, sy = nzp;

  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  // Past the high end lies the PEC wall: zero. Along z the padding cells are zero already, but a
  // row without padding (nz == nzp) ends at nz.
  const float ey_xp = i + 1 < nx ? ey[c + sx] : 0.0f;
  const float ez_xp = i + 1 < nx ? ez[c + sx] : 0.0f;
  const float ex_yp = j + 1 < ny ? ex[c + sy] : 0.0f;
  const float ez_yp = j + 1 < ny ? ez[c + sy] : 0.0f;
  const float ex_zp = k + 1 < nz ? ex[c + 1] : 0.0f;
  const float ey_zp = k + 1 < nz ? ey[c + 1] : 0.0f;

  const float curl_x = (ez_yp - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float curl_y = (ex_zp - e_x) * inv_dz - (ez_xp - e_z) * inv_dx;
  const float curl_z = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;
#if MAGNETIC
  const float db_x = hcoef[id_hx[c]].x, db_y = hcoef[id_hy[c]].x, db_z = hcoef[id_hz[c]].x;
#else
  const float db_x = db_vacuum, db_y = db_vacuum, db_z = db_vacuum;
#endif
  hx[c] = hx[c] - db_x * curl_x;
  hy[c] = hy[c] - db_y * curl_y;
  hz[c] = hz[c] - db_z * curl_z;
}

/* The plain E update of cell (i, j, k) (a non-PML cell inside the grid). */
DEVICE_FN void plain_e_cell(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                            GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                            GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                            GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                            GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                            float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                            int nzp, int i, int j, int k) {
  (void)nx;
  (void)nz;
  const int c = cell_index(i, j, k, ny, nzp);
  const int sx = ny * nzp, sy = nzp;

  const float h_x = hx[c], h_y = hy[c], h_z = hz[c];
  // Before index 0 lies the PEC wall: zero.
  const float hy_xm = i > 0 ? hy[c - sx] : 0.0f;
  const float hz_xm = i > 0 ? hz[c - sx] : 0.0f;
  const float hx_ym = j > 0 ? hx[c - sy] : 0.0f;
  const float hz_ym = j > 0 ? hz[c - sy] : 0.0f;
  const float hx_zm = k > 0 ? hx[c - 1] : 0.0f;
  const float hy_zm = k > 0 ? hy[c - 1] : 0.0f;

  const float curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float curl_y = (h_x - hx_zm) * inv_dz - (h_z - hz_xm) * inv_dx;
  const float curl_z = (h_y - hy_xm) * inv_dx - (h_x - hx_ym) * inv_dy;
  const float4 cx = ecoef[id_ex[c]], cy = ecoef[id_ey[c]], cz = ecoef[id_ez[c]];
  ex[c] = cx.x * ex[c] + cx.y * curl_x;
  ey[c] = cy.x * ey[c] + cy.y * curl_y;
  ez[c] = cz.x * ez[c] + cz.y * curl_z;
}

KERNEL void update_h_plain(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
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
                           int pml_zlo, int pml_zhi) {
  const int k = GLOBAL_ID(0), j = GLOBAL_ID(1), i = GLOBAL_ID(2);
  if (i >= nx || j >= ny || k >= nz) return;
  if (in_pml(i, j, k, nx, ny, nz, pml_xlo, pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi)) return;
  plain_h_cell(hx, hy, hz, ex, ey, ez, PLAIN_HCOEF_ARGS inv_dx, inv_dy, inv_dz, nx, ny, nz, nzp,
               i, j, k);
}

KERNEL void update_e_plain(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                           GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                           GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                           GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                           GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                           float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                           int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                           int pml_zlo, int pml_zhi) {
  const int k = GLOBAL_ID(0), j = GLOBAL_ID(1), i = GLOBAL_ID(2);
  if (i >= nx || j >= ny || k >= nz) return;
  if (in_pml(i, j, k, nx, ny, nz, pml_xlo, pml_xhi, pml_ylo, pml_yhi, pml_zlo, pml_zhi)) return;
  plain_e_cell(ex, ey, ez, hx, hy, hz, id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz, nx, ny,
               nz, nzp, i, j, k);
}
