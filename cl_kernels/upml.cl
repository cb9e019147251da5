// Patent steps 1-1-3 and 4: Gedney's uniaxial PML on the slab cells only; the plain kernels skip
// those cells.
//
// Continuous: curl H = j omega eps S E, curl E = -j omega mu S H with the diagonal tensor
// S = diag(s_y s_z / s_x, s_z s_x / s_y, s_x s_y / s_z), s_w = kappa_w + sigma_w / (j omega eps0).
// Splitting it with an auxiliary field per component gives two first-order recursions
// (docs/EQUATIONS.md). For a component along u with cyclic next axes v, w (x->y->z->x):
//   E_u:  D' = a_v D + b_v (dt/eps0) C                         C = the plain update's curl bracket
//         E_u = a_w E_u + inv_eps_r (cp_u D' - cm_u D) b_w / 2,  D = D'
//   H_u:  B' = a_v B - b_v (dt/mu0) C
//         H_u = a_w H_u + inv_mu_r (cp_u B' - cm_u B) b_w / 2,  B = B'
// D (stored as D/eps0, V/m) and B (as B/mu0, A/m) live where E_u / H_u live, in time too: D with E
// at s dt, B with H at (s-1/2) dt. Each profile (a, b, cp, cm) = float4 is taken at the component's
// own position along that axis: E_u is half-integer along u and integer along v, w; H_u integer
// along u and half-integer along v, w. With neutral profiles (1, 1, 2, 2) this is the plain update.
//
// One launch per PML box (host/model/upml_profile.hpp): a 3D range over the box, dimension 0
// along z, one work-item per cell updating its three components (the tile and plain variants; the
// fused and rows variants call upml_h_cell / upml_e_cell from their own kernels), scalar (the float4 field buffers
// viewed as float arrays, index (i*ny + j)*nzp + k). The auxiliaries' index inside the box is
// offset + ((i-i0)*nj + (j-j0))*nk + (k-k0), z fastest, as the reference engine stores them.
// Neighbours past the high end (update of H) or before index 0 (update of E) read zero, as in the
// plain kernels. Material conductivity is ignored in PML cells; PEC has inv_eps_r = 0 there, so its
// E stays zero.
//
// Bytes per PML cell and kernel: 3 fields read+written 24, 3 auxiliaries read+written 24,
// 6 neighbour reads 24 (mostly cached), 3 ids, profiles (cached): ~75 B, uncoalesced along x/y
// boxes only at box edges.
#include "fdtd_common.h"
#include "upml_lanes.h"

/* Work-item -> cell (i, j, k) of the box and its auxiliary index p; 0 when past the box. */
DEVICE_FN int box_cell(int i0, int j0, int k0, int ni, int nj, int nk, int aux_offset, int* i,
                       int* j, int* k, int* p) {
  const int gk = GLOBAL_ID(0), gj = GLOBAL_ID(1), gi = GLOBAL_ID(2);
  if (gi >= ni || gj >= nj || gk >= nk) return 0;
  *i = i0 + gi;
  *j = j0 + gj;
  *k = k0 + gk;
  *p = aux_offset + (gi * nj + gj) * nk + gk;
  return 1;
}

#if MAGNETIC
#define UPML_HCOEF_ARGS id_hx, id_hy, id_hz, hcoef,
#else
#define UPML_HCOEF_ARGS
#endif

DEVICE_FN void upml_h_cell(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy, GLOBAL float* RESTRICT hz,
                   GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                   GLOBAL const float* RESTRICT ez, GLOBAL float* RESTRICT bx,
                   GLOBAL float* RESTRICT by, GLOBAL float* RESTRICT bz,
                   int i, int j, int k, int p,
                   GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                   GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                   GLOBAL const float4* RESTRICT half_y, GLOBAL const float4* RESTRICT half_z,
#if MAGNETIC
                   GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                   GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
#endif
                   float dt_mu0, float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                   int nzp) {
  const int c = cell_index(i, j, k, ny, nzp);
  const int sx = ny * nzp, sy = nzp;

  const float e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const float ey_xp = i + 1 < nx ? ey[c + sx] : 0.0f, ez_xp = i + 1 < nx ? ez[c + sx] : 0.0f;
  const float ex_yp = j + 1 < ny ? ex[c + sy] : 0.0f, ez_yp = j + 1 < ny ? ez[c + sy] : 0.0f;
  const float ex_zp = k + 1 < nz ? ex[c + 1] : 0.0f, ey_zp = k + 1 < nz ? ey[c + 1] : 0.0f;
  const float curl_x = (ez_yp - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  const float curl_y = (ex_zp - e_x) * inv_dz - (ez_xp - e_z) * inv_dx;
  const float curl_z = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;

#if MAGNETIC
  const float r_x = hcoef[id_hx[c]].y, r_y = hcoef[id_hy[c]].y, r_z = hcoef[id_hz[c]].y;
#else
  const float r_x = 1.0f, r_y = 1.0f, r_z = 1.0f;
#endif
  // H_u is integer along u, half-integer along v and w.
  upml_step(hx, bx, c, p, curl_x, half_y[j], half_z[k], int_x[i], -dt_mu0, r_x);
  upml_step(hy, by, c, p, curl_y, half_z[k], half_x[i], int_y[j], -dt_mu0, r_y);
  upml_step(hz, bz, c, p, curl_z, half_x[i], half_y[j], int_z[k], -dt_mu0, r_z);
}


/* The arguments of upml_h_cell with the cell (I, J, K) and its auxiliary index P. */
#define UPML_H_CELL_ARGS(I, J, K, P) hx, hy, hz, ex, ey, ez, bx, by, bz, I, J, K, P, int_x, int_y, int_z, half_x, half_y, \
      half_z, UPML_HCOEF_ARGS dt_mu0, inv_dx, inv_dy, inv_dz, nx, ny, nz, nzp

KERNEL void upml_h(GLOBAL float* RESTRICT hx, GLOBAL float* RESTRICT hy, GLOBAL float* RESTRICT hz,
                   GLOBAL const float* RESTRICT ex, GLOBAL const float* RESTRICT ey,
                   GLOBAL const float* RESTRICT ez, GLOBAL float* RESTRICT bx,
                   GLOBAL float* RESTRICT by, GLOBAL float* RESTRICT bz,
                   int i0, int j0, int k0, int ni, int nj, int nk, int aux_offset,
                   GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                   GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                   GLOBAL const float4* RESTRICT half_y, GLOBAL const float4* RESTRICT half_z,
#if MAGNETIC
                   GLOBAL const uchar* RESTRICT id_hx, GLOBAL const uchar* RESTRICT id_hy,
                   GLOBAL const uchar* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
#endif
                   float dt_mu0, float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                   int nzp) {
  int i, j, k, p;
  if (box_cell(i0, j0, k0, ni, nj, nk, aux_offset, &i, &j, &k, &p)) upml_h_cell(UPML_H_CELL_ARGS(i, j, k, p));
}
DEVICE_FN void upml_e_cell(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey, GLOBAL float* RESTRICT ez,
                   GLOBAL const float* RESTRICT hx, GLOBAL const float* RESTRICT hy,
                   GLOBAL const float* RESTRICT hz, GLOBAL float* RESTRICT dx_aux,
                   GLOBAL float* RESTRICT dy_aux, GLOBAL float* RESTRICT dz_aux,
                   int i, int j, int k, int p,
                   GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                   GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                   GLOBAL const float4* RESTRICT half_y, GLOBAL const float4* RESTRICT half_z,
                   GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                   GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                   float dt_eps0, float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                   int nzp) {
  const int c = cell_index(i, j, k, ny, nzp);
  const int sx = ny * nzp, sy = nzp;
  (void)nx;  // same argument list as upml_h; backward differences need no high bound
  (void)nz;

  const float h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const float hy_xm = i > 0 ? hy[c - sx] : 0.0f, hz_xm = i > 0 ? hz[c - sx] : 0.0f;
  const float hx_ym = j > 0 ? hx[c - sy] : 0.0f, hz_ym = j > 0 ? hz[c - sy] : 0.0f;
  const float hx_zm = k > 0 ? hx[c - 1] : 0.0f, hy_zm = k > 0 ? hy[c - 1] : 0.0f;
  const float curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
  const float curl_y = (h_x - hx_zm) * inv_dz - (h_z - hz_xm) * inv_dx;
  const float curl_z = (h_y - hy_xm) * inv_dx - (h_x - hx_ym) * inv_dy;

  const float r_x = ecoef[id_ex[c]].z, r_y = ecoef[id_ey[c]].z, r_z = ecoef[id_ez[c]].z;
  // E_u is half-integer along u, integer along v and w.
  upml_step(ex, dx_aux, c, p, curl_x, int_y[j], int_z[k], half_x[i], dt_eps0, r_x);
  upml_step(ey, dy_aux, c, p, curl_y, int_z[k], int_x[i], half_y[j], dt_eps0, r_y);
  upml_step(ez, dz_aux, c, p, curl_z, int_x[i], int_y[j], half_z[k], dt_eps0, r_z);
}

/* The arguments of upml_e_cell with the cell (I, J, K) and its auxiliary index P. */
#define UPML_E_CELL_ARGS(I, J, K, P) ex, ey, ez, hx, hy, hz, dx_aux, dy_aux, dz_aux, I, J, K, P, int_x, int_y, int_z, half_x, \
      half_y, half_z, id_ex, id_ey, id_ez, ecoef, dt_eps0, inv_dx, inv_dy, inv_dz, nx, ny, nz, nzp

KERNEL void upml_e(GLOBAL float* RESTRICT ex, GLOBAL float* RESTRICT ey, GLOBAL float* RESTRICT ez,
                   GLOBAL const float* RESTRICT hx, GLOBAL const float* RESTRICT hy,
                   GLOBAL const float* RESTRICT hz, GLOBAL float* RESTRICT dx_aux,
                   GLOBAL float* RESTRICT dy_aux, GLOBAL float* RESTRICT dz_aux,
                   int i0, int j0, int k0, int ni, int nj, int nk, int aux_offset,
                   GLOBAL const float4* RESTRICT int_x, GLOBAL const float4* RESTRICT int_y,
                   GLOBAL const float4* RESTRICT int_z, GLOBAL const float4* RESTRICT half_x,
                   GLOBAL const float4* RESTRICT half_y, GLOBAL const float4* RESTRICT half_z,
                   GLOBAL const uchar* RESTRICT id_ex, GLOBAL const uchar* RESTRICT id_ey,
                   GLOBAL const uchar* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                   float dt_eps0, float inv_dx, float inv_dy, float inv_dz, int nx, int ny, int nz,
                   int nzp) {
  int i, j, k, p;
  if (box_cell(i0, j0, k0, ni, nj, nk, aux_offset, &i, &j, &k, &p)) upml_e_cell(UPML_E_CELL_ARGS(i, j, k, p));
}
