// The UPML of the 2D Yee solver: one work-item per PML cell of the x and y slabs (plane_common.h
// numbers them; r is also the index of the cell's auxiliaries), every variant. upml_lanes.h's
// recursions (docs/EQUATIONS.md) with the z profile neutral (a = b = 1, cp = cm = 2) and the
// curl's z terms zero. Per component (u; cyclic v, w) the profiles at its own position:
//   Ez (i, j):       v = x int_x[i],  w = y int_y[j],  u = z neutral     (D)
//   Hx (i, j+1/2):   v = y half_y[j], w = z neutral,   u = x int_x[i]    (B)
//   Hy (i+1/2, j):   v = z neutral,   w = x half_x[i], u = y int_y[j]    (B)
//   Hz (i+1/2, j+1/2): v = x half_x[i], w = y half_y[j], u = z neutral   (B)
//   Ex (i+1/2, j):   v = y int_y[j],  w = z neutral,   u = x half_x[i]   (D)
//   Ey (i, j+1/2):   v = z neutral,   w = x int_x[i],  u = y half_y[j]   (D)
// Auxiliaries: 3 floats per PML cell (tm: Bx By Dz, te: Dx Dy Bz), 12 B; per cell and step the
// PML kernels move ~2 x (12 B fields + 12 B auxiliaries) plus neighbours, profiles and ids.
// Material conductivity is ignored in PML cells; PEC has inv_eps_r = 0, so its E stays zero.
#include "fdtd_common.h"
#include "plane_common.h"
#include "upml_lanes.h"

#define PLANE_UPML_GRID                                                                       \
  GLOBAL const float4 *RESTRICT int_x, GLOBAL const float4 *RESTRICT int_y,                  \
      GLOBAL const float4 *RESTRICT half_x, GLOBAL const float4 *RESTRICT half_y, float scale, \
      float inv_dx, float inv_dy, int nx, int ny, int nyp, int xlo, int xhi, int ylo, int yhi, \
      int cells

/* The PML cell of this work-item: its field index, or -1 past the last cell. */
DEVICE_FN int plane_upml_item(int nx, int ny, int nyp, int xlo, int xhi, int ylo, int yhi,
                              int cells, int* r, int* i, int* j) {
  *r = GLOBAL_ID(0);
  if (*r >= cells) return -1;
  plane_pml_cell(*r, nx, ny, xlo, xhi, ylo, yhi, i, j);
  return *i * nyp + *j;
}

/* scale = -dt/mu0. */
KERNEL void plane_upml_h_tm(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy,
                            GLOBAL const float* RESTRICT ez, GLOBAL float* RESTRICT bx,
                            GLOBAL float* RESTRICT by, GLOBAL const uchar* RESTRICT id_hx,
                            GLOBAL const uchar* RESTRICT id_hy,
                            CONSTANT_PTR float4* RESTRICT hcoef, PLANE_UPML_GRID) {
  int r, i, j;
  const int c = plane_upml_item(nx, ny, nyp, xlo, xhi, ylo, yhi, cells, &r, &i, &j);
  if (c < 0) return;
  const float e = ez[c];
  const float e_yp = j + 1 < ny ? ez[c + 1] : 0.0f;
  const float e_xp = i + 1 < nx ? ez[c + nyp] : 0.0f;
  const float curl_x = (e_yp - e) * inv_dy;
  const float curl_y = -((e_xp - e) * inv_dx);
#if MAGNETIC
  const float r_x = hcoef[id_hx[c]].y, r_y = hcoef[id_hy[c]].y;
#else
  const float r_x = 1.0f, r_y = 1.0f;
#endif
  const float4 n = plane_neutral();
  hx[c] = upml_update(bx, r, hx[c], curl_x, half_y[j], n, int_x[i], scale, r_x);
  hy[c] = upml_update(by, r, hy[c], curl_y, n, half_x[i], int_y[j], scale, r_y);
}

/* scale = dt/eps0. */
KERNEL void plane_upml_e_tm(GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hx,
                            GLOBAL const float* RESTRICT hy, GLOBAL float* RESTRICT dz,
                            GLOBAL const uchar* RESTRICT id_ez,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_UPML_GRID) {
  int r, i, j;
  const int c = plane_upml_item(nx, ny, nyp, xlo, xhi, ylo, yhi, cells, &r, &i, &j);
  if (c < 0) return;
  const float hx_ym = j > 0 ? hx[c - 1] : 0.0f;
  const float hy_xm = i > 0 ? hy[c - nyp] : 0.0f;
  const float curl_z = (hy[c] - hy_xm) * inv_dx - (hx[c] - hx_ym) * inv_dy;
  ez[c] = upml_update(dz, r, ez[c], curl_z, int_x[i], int_y[j], plane_neutral(), scale,
                      ecoef[id_ez[c]].z);
}

/* scale = -dt/mu0. */
KERNEL void plane_upml_h_te(GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT ex,
                            GLOBAL const float* RESTRICT ey, GLOBAL float* RESTRICT bz,
                            GLOBAL const uchar* RESTRICT id_hz,
                            CONSTANT_PTR float4* RESTRICT hcoef, PLANE_UPML_GRID) {
  int r, i, j;
  const int c = plane_upml_item(nx, ny, nyp, xlo, xhi, ylo, yhi, cells, &r, &i, &j);
  if (c < 0) return;
  const float e_x = ex[c], e_y = ey[c];
  const float ex_yp = j + 1 < ny ? ex[c + 1] : 0.0f;
  const float ey_xp = i + 1 < nx ? ey[c + nyp] : 0.0f;
  const float curl_z = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;
#if MAGNETIC
  const float r_z = hcoef[id_hz[c]].y;
#else
  const float r_z = 1.0f;
#endif
  hz[c] = upml_update(bz, r, hz[c], curl_z, half_x[i], half_y[j], plane_neutral(), scale, r_z);
}

/* scale = dt/eps0. */
KERNEL void plane_upml_e_te(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey,
                            GLOBAL const float* RESTRICT hz, GLOBAL float* RESTRICT dx,
                            GLOBAL float* RESTRICT dy, GLOBAL const uchar* RESTRICT id_ex,
                            GLOBAL const uchar* RESTRICT id_ey,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_UPML_GRID) {
  int r, i, j;
  const int c = plane_upml_item(nx, ny, nyp, xlo, xhi, ylo, yhi, cells, &r, &i, &j);
  if (c < 0) return;
  const float h = hz[c];
  const float hz_ym = j > 0 ? hz[c - 1] : 0.0f;
  const float hz_xm = i > 0 ? hz[c - nyp] : 0.0f;
  const float curl_x = (h - hz_ym) * inv_dy;
  const float curl_y = -((h - hz_xm) * inv_dx);
  const float4 n = plane_neutral();
  ex[c] = upml_update(dx, r, ex[c], curl_x, int_y[j], n, half_x[i], scale, ecoef[id_ex[c]].z);
  ey[c] = upml_update(dy, r, ey[c], curl_y, n, int_x[i], half_y[j], scale, ecoef[id_ey[c]].z);
}
