// Kernel variant "rows": the plain-cell updates of update_h.cl / update_e.cl, one work-item per
// (i, j) row marching along z. Meant for CPU drivers: the k loop is a plain counted loop over
// contiguous floats that the compiler vectorises, with no barriers and no per-cell index math.
// PML cells are skipped exactly as in the other forms (upml.cl owns them).
#include "fdtd_common.h"

#if MAGNETIC
#define HCOEF_PARAMS GLOBAL const uchar *id_hx, GLOBAL const uchar *id_hy, \
                     GLOBAL const uchar *id_hz, CONSTANT_PTR float4 *hcoef,
#define HCOEF_ARGS id_hx, id_hy, id_hz, hcoef,
#else
#define HCOEF_PARAMS float db_vacuum,
#define HCOEF_ARGS db_vacuum,
#endif

/* One H cell of a row; ex_zp, ey_zp are the +z neighbours, the *_xp/_yp rows are masked by mx/my
   (0 past the wall). */
DEVICE_FN void h_row_cell(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                          GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                          GLOBAL const float* RESTRICT ey, GLOBAL const float* RESTRICT ez,
                          GLOBAL const float* RESTRICT ey_xp, GLOBAL const float* RESTRICT ez_xp,
                          GLOBAL const float* RESTRICT ex_yp, GLOBAL const float* RESTRICT ez_yp,
                          float mx, float my, float ex_zp, float ey_zp, int row, int k,
                          HCOEF_PARAMS float inv_dx, float inv_dy, float inv_dz) {
  const int c = row + k;
  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const float curl_x = (my * ez_yp[k] - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float curl_y = (ex_zp - e_x) * inv_dz - (mx * ez_xp[k] - e_z) * inv_dx;
  const float curl_z = (mx * ey_xp[k] - e_y) * inv_dx - (my * ex_yp[k] - e_x) * inv_dy;
#if MAGNETIC
  const float db_x = hcoef[id_hx[c]].x, db_y = hcoef[id_hy[c]].x, db_z = hcoef[id_hz[c]].x;
#else
  const float db_x = db_vacuum, db_y = db_vacuum, db_z = db_vacuum;
#endif
  hx[c] -= db_x * curl_x;
  hy[c] -= db_y * curl_y;
  hz[c] -= db_z * curl_z;
}

/* One E cell of a row; hx_zm, hy_zm are the -z neighbours. */
DEVICE_FN void e_row_cell(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                          GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const float* RESTRICT hy_xm, GLOBAL const float* RESTRICT hz_xm,
                          GLOBAL const float* RESTRICT hx_ym, GLOBAL const float* RESTRICT hz_ym,
                          float mx, float my, float hx_zm, float hy_zm, int row, int k,
                          GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                          GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                          float inv_dx, float inv_dy, float inv_dz) {
  const int c = row + k;
  const float h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const float curl_x = (h_z - my * hz_ym[k]) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float curl_y = (h_x - hx_zm) * inv_dz - (h_z - mx * hz_xm[k]) * inv_dx;
  const float curl_z = (h_y - mx * hy_xm[k]) * inv_dx - (h_x - my * hx_ym[k]) * inv_dy;
  const float4 cx = ecoef[id_ex[c]], cy = ecoef[id_ey[c]], cz = ecoef[id_ez[c]];
  ex[c] = cx.x * ex[c] + cx.y * curl_x;
  ey[c] = cy.x * ey[c] + cy.y * curl_y;
  ez[c] = cz.x * ez[c] + cz.y * curl_z;
}

KERNEL void update_h_rows(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
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
  const int j = GLOBAL_ID(0), i = GLOBAL_ID(1);
  if (i >= nx || j >= ny) return;
  if (pml_row(i, j, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi)) return;
  const int row = cell_index(i, j, 0, ny, nzp);
  // Past the high end lies the PEC wall: a zero row stands in (the padding of this row is zero).
  const int has_xp = i + 1 < nx, has_yp = j + 1 < ny;
  GLOBAL const float* ey_xp = ey + row + (has_xp ? ny * nzp : 0);
  GLOBAL const float* ez_xp = ez + row + (has_xp ? ny * nzp : 0);
  GLOBAL const float* ex_yp = ex + row + (has_yp ? nzp : 0);
  GLOBAL const float* ez_yp = ez + row + (has_yp ? nzp : 0);
  const float mx = has_xp ? 1.0f : 0.0f, my = has_yp ? 1.0f : 0.0f;
  // The last cell's +z neighbour is the PEC wall: its step is peeled off so the loop reads c + 1
  // only inside the row and stays a plain vectorisable loop.
  const int k1 = nz - pml_zhi, kend = min(k1, nz - 1);
  for (int k = pml_zlo; k < kend; ++k) {
    h_row_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, ex[row + k + 1],
               ey[row + k + 1], row, k, HCOEF_ARGS inv_dx, inv_dy, inv_dz);
  }
  if (k1 == nz && kend >= pml_zlo) {
    h_row_cell(hx, hy, hz, ex, ey, ez, ey_xp, ez_xp, ex_yp, ez_yp, mx, my, 0.0f, 0.0f, row, kend,
               HCOEF_ARGS inv_dx, inv_dy, inv_dz);
  }
}

KERNEL void update_e_rows(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                          GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                          GLOBAL const float* RESTRICT hy, GLOBAL const float* RESTRICT hz,
                          GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                          GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                          float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                          int nzp, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi,
                          int pml_zlo, int pml_zhi) {
  const int j = GLOBAL_ID(0), i = GLOBAL_ID(1);
  if (i >= nx || j >= ny) return;
  if (pml_row(i, j, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi)) return;
  const int row = cell_index(i, j, 0, ny, nzp);
  // Before index 0 lies the PEC wall: the row itself stands in, masked to zero.
  const int has_xm = i > 0, has_ym = j > 0;
  GLOBAL const float* hy_xm = hy + row - (has_xm ? ny * nzp : 0);
  GLOBAL const float* hz_xm = hz + row - (has_xm ? ny * nzp : 0);
  GLOBAL const float* hx_ym = hx + row - (has_ym ? nzp : 0);
  GLOBAL const float* hz_ym = hz + row - (has_ym ? nzp : 0);
  const float mx = has_xm ? 1.0f : 0.0f, my = has_ym ? 1.0f : 0.0f;
  // The first cell's -z neighbour is the PEC wall: its step is peeled off (see update_h_rows).
  int k0 = pml_zlo;
  const int k1 = nz - pml_zhi;
  if (k0 == 0 && k1 > 0) {
    e_row_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, 0.0f, 0.0f, row, 0,
               id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz);
    k0 = 1;
  }
  for (int k = k0; k < k1; ++k) {
    e_row_cell(ex, ey, ez, hx, hy, hz, hy_xm, hz_xm, hx_ym, hz_ym, mx, my, hx[row + k - 1],
               hy[row + k - 1], row, k, id_ex, id_ey, id_ez, ecoef, inv_dx, inv_dy, inv_dz);
  }
}
