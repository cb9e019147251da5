// Kernel variant "plane-tile" of the 2D Yee solver (docs/EQUATIONS.md with d/dz = 0): one
// work-item per float4 of 4 consecutive y cells, work-groups of wy4 x wx float4s (dimension 0 =
// jq along y, 1 = i along x), over the rows i0 <= i < i1 of the x interior and the float4s that
// hold cells of the y interior [jlo, jhi). Lanes outside [jlo, jhi) (y-slab PML cells, padding)
// keep their value: plane_upml.cl updates the PML cells in a separate launch. Neighbours along y
// come from the next / previous float4 of the row (shift_up / shift_down), along x from the rows
// i +- 1, all from global memory (the caches serve the reuse). Everything in place.
//   tm:  Hx -= db (Ez[i,j+1]-Ez[i,j])/dy;  Hy += db (Ez[i+1,j]-Ez[i,j])/dx
//        Ez  = ca Ez + cb ((Hy[i,j]-Hy[i-1,j])/dx - (Hx[i,j]-Hx[i,j-1])/dy)
//   te:  Hz -= db ((Ey[i+1,j]-Ey[i,j])/dx - (Ex[i,j+1]-Ex[i,j])/dy)
//        Ex  = ca Ex + cb (Hz[i,j]-Hz[i,j-1])/dy;  Ey = ca Ey - cb (Hz[i,j]-Hz[i-1,j])/dx
// Bytes per float4 (4 cells) and step, tm or te: H kernel reads 3 float4s and writes 2 (tm) or
// reads 3 and writes 1 (te) plus ids when magnetic; E kernel likewise; ~20-24 B per cell and step
// of compulsory traffic (12 B of fields read and written once each, the E ids 1-2 B).
#include "fdtd_common.h"
#include "plane_common.h"

#define PLANE_TILE_GRID                                                                   \
  float inv_dx, float inv_dy, int nx, int ny4, int i0, int i1, int jq0, int jq1, int jlo, \
      int jhi

/* The float4 this work-item owns, or -1 outside the launch's rows and float4s. */
DEVICE_FN int plane_tile_cell(int i0, int i1, int jq0, int jq1, int ny4, int* i, int* jq) {
  *jq = jq0 + GLOBAL_ID(0);
  *i = i0 + GLOBAL_ID(1);
  if (*i >= i1 || *jq >= jq1) return -1;
  return *i * ny4 + *jq;
}

KERNEL void plane_tile_h_tm(GLOBAL float4* RESTRICT hx, GLOBAL float4* RESTRICT hy,
                            GLOBAL const float4* RESTRICT ez, GLOBAL const uchar4* RESTRICT id_hx,
                            GLOBAL const uchar4* RESTRICT id_hy,
                            CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                            PLANE_TILE_GRID) {
  int i, jq;
  const int c = plane_tile_cell(i0, i1, jq0, jq1, ny4, &i, &jq);
  if (c < 0) return;
  const float4 e = ez[c];
  const float4 e_yp = shift_up(e, jq + 1 < ny4 ? ez[c + 1] : zero4());
  const float4 e_xp = i + 1 < nx ? ez[c + ny4] : zero4();
#if MAGNETIC
  const float4 db_x = h_coef4(hcoef, id_hx[c]), db_y = h_coef4(hcoef, id_hy[c]);
#else
  const float4 db_x = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum), db_y = db_x;
#endif
  const float4 h_x = hx[c], h_y = hy[c];
  hx[c] = plane_mask_lanes(h_x - db_x * ((e_yp - e) * inv_dy), h_x, jq, jlo, jhi);
  hy[c] = plane_mask_lanes(h_y + db_y * ((e_xp - e) * inv_dx), h_y, jq, jlo, jhi);
}

KERNEL void plane_tile_e_tm(GLOBAL float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
                            GLOBAL const float4* RESTRICT hy, GLOBAL const uchar4* RESTRICT id_ez,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_TILE_GRID) {
  int i, jq;
  const int c = plane_tile_cell(i0, i1, jq0, jq1, ny4, &i, &jq);
  if (c < 0) return;
  const float4 h_x = hx[c];
  const float4 hx_ym = shift_down(jq > 0 ? hx[c - 1] : zero4(), h_x);
  const float4 hy_xm = i > 0 ? hy[c - ny4] : zero4();
  float4 ca, cb;
  e_coef4(ecoef, id_ez[c], &ca, &cb);
  const float4 e = ez[c];
  const float4 curl = (hy[c] - hy_xm) * inv_dx - (h_x - hx_ym) * inv_dy;
  ez[c] = plane_mask_lanes(ca * e + cb * curl, e, jq, jlo, jhi);
}

KERNEL void plane_tile_h_te(GLOBAL float4* RESTRICT hz, GLOBAL const float4* RESTRICT ex,
                            GLOBAL const float4* RESTRICT ey, GLOBAL const uchar4* RESTRICT id_hz,
                            CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum,
                            PLANE_TILE_GRID) {
  int i, jq;
  const int c = plane_tile_cell(i0, i1, jq0, jq1, ny4, &i, &jq);
  if (c < 0) return;
  const float4 e_x = ex[c], e_y = ey[c];
  const float4 ex_yp = shift_up(e_x, jq + 1 < ny4 ? ex[c + 1] : zero4());
  const float4 ey_xp = i + 1 < nx ? ey[c + ny4] : zero4();
#if MAGNETIC
  const float4 db = h_coef4(hcoef, id_hz[c]);
#else
  const float4 db = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum);
#endif
  const float4 h = hz[c];
  const float4 curl = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;
  hz[c] = plane_mask_lanes(h - db * curl, h, jq, jlo, jhi);
}

KERNEL void plane_tile_e_te(GLOBAL float4* RESTRICT ex, GLOBAL float4* RESTRICT ey,
                            GLOBAL const float4* RESTRICT hz, GLOBAL const uchar4* RESTRICT id_ex,
                            GLOBAL const uchar4* RESTRICT id_ey,
                            CONSTANT_PTR float4* RESTRICT ecoef, PLANE_TILE_GRID) {
  int i, jq;
  const int c = plane_tile_cell(i0, i1, jq0, jq1, ny4, &i, &jq);
  if (c < 0) return;
  const float4 h = hz[c];
  const float4 hz_ym = shift_down(jq > 0 ? hz[c - 1] : zero4(), h);
  const float4 hz_xm = i > 0 ? hz[c - ny4] : zero4();
  float4 ca_x, cb_x, ca_y, cb_y;
  e_coef4(ecoef, id_ex[c], &ca_x, &cb_x);
  e_coef4(ecoef, id_ey[c], &ca_y, &cb_y);
  const float4 e_x = ex[c], e_y = ey[c];
  ex[c] = plane_mask_lanes(ca_x * e_x + cb_x * ((h - hz_ym) * inv_dy), e_x, jq, jlo, jhi);
  ey[c] = plane_mask_lanes(ca_y * e_y - cb_y * ((h - hz_xm) * inv_dx), e_y, jq, jlo, jhi);
}
