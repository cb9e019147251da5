// Kernel variant "plane-rows" of the 2D Yee solver, for CPU drivers: one work-item per x row i of
// the x interior (i0 <= i < i1), a plain counted loop along y over the row's y interior
// [jlo, jhi) of contiguous floats, no barriers. The PML cells are plane_upml.cl's, as in the tile
// variant. Equations as plane_tile.cl; neighbours past the high end (j + 1 = ny, i + 1 = nx) and
// before index 0 read zero. In place.
#include "fdtd_common.h"
#include "plane_common.h"

#define PLANE_ROWS_GRID float inv_dx, float inv_dy, int nx, int ny, int nyp, int i0, int i1, int jlo, int jhi

KERNEL void plane_rows_h_tm(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                            GLOBAL const float* RESTRICT ez, GLOBAL const uchar* RESTRICT id_hx,
                            GLOBAL const uchar* RESTRICT id_hy,
                            CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                            PLANE_ROWS_GRID) {
  const int i = i0 + GLOBAL_ID(0);
  if (i >= i1) return;
  const int row = i * nyp;
  const float mx = i + 1 < nx ? 1.0f : 0.0f;
  GLOBAL const float* ez_xp = ez + (i + 1 < nx ? row + nyp : row);
#if MAGNETIC
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)hcoef;
#endif
  for (int j = jlo; j < jhi; ++j) {
    const int c = row + j;
    const float e = ez[c];
    const float e_yp = j + 1 < ny ? ez[c + 1] : 0.0f;
#if MAGNETIC
    const float db_x = t[4 * id_hx[c]], db_y = t[4 * id_hy[c]];
#else
    const float db_x = db_vacuum, db_y = db_vacuum;
#endif
    hx[c] = hx[c] - db_x * ((e_yp - e) * inv_dy);
    hy[c] = hy[c] + db_y * ((mx * ez_xp[j] - e) * inv_dx);
  }
}

KERNEL void plane_rows_e_tm(GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                            GLOBAL const float* RESTRICT hy, GLOBAL const uchar* RESTRICT id_ez,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_ROWS_GRID) {
  const int i = i0 + GLOBAL_ID(0);
  if (i >= i1) return;
  const int row = i * nyp;
  const float mx = i > 0 ? 1.0f : 0.0f;
  GLOBAL const float* hy_xm = hy + (i > 0 ? row - nyp : row);
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)ecoef;
  for (int j = jlo; j < jhi; ++j) {
    const int c = row + j;
    const float h_x = hx[c];
    const float hx_ym = j > 0 ? hx[c - 1] : 0.0f;
    const float curl = (hy[c] - mx * hy_xm[j]) * inv_dx - (h_x - hx_ym) * inv_dy;
    const int k = 4 * id_ez[c];
    ez[c] = t[k] * ez[c] + t[k + 1] * curl;
  }
}

KERNEL void plane_rows_h_te(GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                            GLOBAL const float* RESTRICT ey, GLOBAL const uchar* RESTRICT id_hz,
                            CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                            PLANE_ROWS_GRID) {
  const int i = i0 + GLOBAL_ID(0);
  if (i >= i1) return;
  const int row = i * nyp;
  const float mx = i + 1 < nx ? 1.0f : 0.0f;
  GLOBAL const float* ey_xp = ey + (i + 1 < nx ? row + nyp : row);
#if MAGNETIC
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)hcoef;
#endif
  for (int j = jlo; j < jhi; ++j) {
    const int c = row + j;
    const float e_x = ex[c];
    const float ex_yp = j + 1 < ny ? ex[c + 1] : 0.0f;
#if MAGNETIC
    const float db = t[4 * id_hz[c]];
#else
    const float db = db_vacuum;
#endif
    const float curl = (mx * ey_xp[j] - ey[c]) * inv_dx - (ex_yp - e_x) * inv_dy;
    hz[c] = hz[c] - db * curl;
  }
}

KERNEL void plane_rows_e_te(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                            GLOBAL const float* RESTRICT hz, GLOBAL const uchar* RESTRICT id_ex,
                            GLOBAL const uchar* RESTRICT id_ey,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_ROWS_GRID) {
  const int i = i0 + GLOBAL_ID(0);
  if (i >= i1) return;
  const int row = i * nyp;
  const float mx = i > 0 ? 1.0f : 0.0f;
  GLOBAL const float* hz_xm = hz + (i > 0 ? row - nyp : row);
  CONSTANT_PTR float* t = (CONSTANT_PTR float*)ecoef;
  for (int j = jlo; j < jhi; ++j) {
    const int c = row + j;
    const float h = hz[c];
    const float hz_ym = j > 0 ? hz[c - 1] : 0.0f;
    const int kx = 4 * id_ex[c], ky = 4 * id_ey[c];
    ex[c] = t[kx] * ex[c] + t[kx + 1] * ((h - hz_ym) * inv_dy);
    ey[c] = t[ky] * ey[c] - t[ky + 1] * ((h - mx * hz_xm[j]) * inv_dx);
  }
}
