// Gedney's uniaxial PML (patent steps 1-1-3 and 4) on the slab cells only: helpers shared by the
// kernels that update PML cells (update_rows.cl, upml_zslab.cl, upml_xy4.cl).
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
// Material conductivity is ignored in PML cells; PEC has inv_eps_r = 0 there, so its E stays zero.
#ifndef CLFDTD_UPML_LANES_H
#define CLFDTD_UPML_LANES_H
#include "fdtd_common.h"

/* Auxiliary index of PML cell (i, j, k): boxes are int[8] (i0 i1 j0 j1 k0 k1 offset -), disjoint,
   the auxiliaries of a box stored z fastest from its offset, as the reference engine stores them. */
DEVICE_FN int pml_aux_index(CONSTANT_PTR int* RESTRICT boxes, int nboxes, int i, int j, int k) {
  for (int b = 0; b < nboxes; ++b) {
    CONSTANT_PTR int* x = boxes + 8 * b;
    if (i >= x[0] && i < x[1] && j >= x[2] && j < x[3] && k >= x[4] && k < x[5])
      return x[6] + ((i - x[0]) * (x[3] - x[2]) + (j - x[2])) * (x[5] - x[4]) + (k - x[4]);
  }
  return -1; /* unreachable for a PML cell */
}

DEVICE_FN float4 splat4(float v) { return MAKE_FLOAT4(v, v, v, v); }
/* A profile (a, b, cp, cm) where the layers do not reach. */
#define NEUTRAL_PROFILE MAKE_FLOAT4(1.0f, 1.0f, 2.0f, 2.0f)

/* A component in a face slab (a cell inside the layers of one axis p only) that lies across p: its
   own axis is neutral and so is one of the other two, and then its auxiliary cancels. With w
   neutral the recursions give F' = F + r (A' - A) = a_v F + r b_v s C, using r A = F (both start
   at zero and change together: sources never sit in PML cells); with v neutral
   F' = a_w F + r b_w s C directly. So F' = (a_v a_w) F + r (b_v b_w) s C, the neutral factors
   being exactly 1: no auxiliary is stored, read or written (docs/EQUATIONS.md). a, b: the
   products a_v a_w, b_v b_w at the component's position; s_curl = s C. */
DEVICE_FN float4 upml_face_update(float4 field, float4 s_curl, float4 a, float4 b, float4 inv_r) {
  return a * field + inv_r * b * s_curl;
}

/* One component of one PML cell: the auxiliary recursion (aux[p] updated in place) and the new
   field value. scale = -dt/mu0 for H (B' = a B - b dt/mu0 C), +dt/eps0 for E; pv, pw, pu the
   profiles (a, b, cp, cm) along the component's next, next-but-one and own axis at its position;
   inv_r = 1/eps_r or 1/mu_r of the cell's material. */
DEVICE_FN float upml_update(GLOBAL float* RESTRICT aux, int p, float field, float curl, float4 pv,
                            float4 pw, float4 pu, float scale, float inv_r) {
  const float old_aux = aux[p];
  const float new_aux = pv.x * old_aux + pv.y * scale * curl;
  aux[p] = new_aux;
  return pw.x * field + inv_r * (pu.z * new_aux - pu.w * old_aux) * pw.y * 0.5f;
}

/* One auxiliary recursion on field[c]: upml_update in place (update_rows.cl). */
DEVICE_FN void upml_step(GLOBAL float* RESTRICT field, GLOBAL float* RESTRICT aux, long c, int p,
                          float curl, float4 pv, float4 pw, float4 pu, float scale, float inv_r) {
  field[c] = upml_update(aux, p, field[c], curl, pv, pw, pu, scale, inv_r);
}

/* Curl of E at float4 c = (i, j, kq) for an H update (forward differences), its neighbours loaded
   from global memory: +x, +y rows and the next float4 along z, zero past the high end. The PML
   kernels that update whole float4s (upml_zslab.cl, upml_xy4.cl) share it. */
DEVICE_FN void curl_e_float4(GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
                             GLOBAL const float4* RESTRICT ez, int c, int i, int j, int kq, int nx,
                             int ny, int nz4, float inv_dx, float inv_dy, float inv_dz,
                             float4* curl_x, float4* curl_y, float4* curl_z) {
  const int sx = ny * nz4, sy = nz4;
  const float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const float4 ey_xp = i + 1 < nx ? ey[c + sx] : zero4(), ez_xp = i + 1 < nx ? ez[c + sx] : zero4();
  const float4 ex_yp = j + 1 < ny ? ex[c + sy] : zero4(), ez_yp = j + 1 < ny ? ez[c + sy] : zero4();
  const float4 ex_zp = shift_up(e_x, kq + 1 < nz4 ? ex[c + 1] : zero4());
  const float4 ey_zp = shift_up(e_y, kq + 1 < nz4 ? ey[c + 1] : zero4());
  *curl_x = (ez_yp - e_z) * inv_dy - (ey_zp - e_y) * inv_dz;
  *curl_y = (ex_zp - e_x) * inv_dz - (ez_xp - e_z) * inv_dx;
  *curl_z = (ey_xp - e_y) * inv_dx - (ex_yp - e_x) * inv_dy;
}

/* Curl of H at float4 c for an E update (backward differences): -x, -y rows and the previous
   float4 along z, zero before index 0. */
DEVICE_FN void curl_h_float4(GLOBAL const float4* RESTRICT hx, GLOBAL const float4* RESTRICT hy,
                             GLOBAL const float4* RESTRICT hz, int c, int i, int j, int kq, int ny,
                             int nz4, float inv_dx, float inv_dy, float inv_dz, float4* curl_x,
                             float4* curl_y, float4* curl_z) {
  const int sx = ny * nz4, sy = nz4;
  const float4 h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const float4 hy_xm = i > 0 ? hy[c - sx] : zero4(), hz_xm = i > 0 ? hz[c - sx] : zero4();
  const float4 hx_ym = j > 0 ? hx[c - sy] : zero4(), hz_ym = j > 0 ? hz[c - sy] : zero4();
  const float4 hx_zm = shift_down(kq > 0 ? hx[c - 1] : zero4(), h_x);
  const float4 hy_zm = shift_down(kq > 0 ? hy[c - 1] : zero4(), h_y);
  *curl_x = (h_z - hz_ym) * inv_dy - (h_y - hy_zm) * inv_dz;
  *curl_y = (h_x - hx_zm) * inv_dz - (h_z - hz_xm) * inv_dx;
  *curl_z = (h_y - hy_xm) * inv_dx - (h_x - hx_ym) * inv_dy;
}

/* The z slabs of the tile, onepass and tblock variants (upml_zslab.cl). In the x and y interior
   the x and y profiles are neutral (a = b = 1, cp = cm = 2), so each component's UPML update there
   needs the z profile only (the recursions above with the neutral factors multiplied out), with C
   the curl bracket and s = -dt/mu0 (H) or dt/eps0 (E), r = 1/mu_r or 1/eps_r:
     x and y components:  F = a F + r b s C               (upml_face_update: no auxiliary)
     z component:         A' = A + s C,  F = F + r (cp A' - cm A) / 2
   H takes (a, b) at half z and (cp, cm) at integer z, E the other way round (zlanes, per float4
   kq: H's a b cp cm then E's, each a float4 over the four lanes). Auxiliaries are float4-aligned:
   float4 kq of row (i, j) is a slab float4 when kq < zq_lo or kq >= zq_hi, and its auxiliary
   sits at ((i - xlo) * nyi + (j - ylo)) * znq + zslab_slot(kq), nyi the interior y extent, znq
   the slab float4s per row. A lane past nz or between the slabs takes the plain update
   (pick_zslab_lanes). The float4s in [zq_lo, zq_hi) hold no z-slab lane. */
DEVICE_FN int zslab_slot(int kq, int zq_lo, int zq_hi) {
  if (kq < zq_lo) return kq;
  if (kq >= zq_hi) return zq_lo + kq - (zq_hi > zq_lo ? zq_hi : zq_lo);
  return -1;
}

DEVICE_FN int zslab_lane(int k, int nz, int zlo, int zhi) {
  return k < nz && (k < zlo || k >= nz - zhi);
}

/* Per lane: the UPML value for z-slab cells, the plain one elsewhere. */
DEVICE_FN float4 pick_zslab_lanes(float4 upml, float4 plain, int kq, int nz, int zlo, int zhi) {
  const int k0 = 4 * kq;
  return MAKE_FLOAT4(zslab_lane(k0, nz, zlo, zhi) ? upml.x : plain.x,
                     zslab_lane(k0 + 1, nz, zlo, zhi) ? upml.y : plain.y,
                     zslab_lane(k0 + 2, nz, zlo, zhi) ? upml.z : plain.z,
                     zslab_lane(k0 + 3, nz, zlo, zhi) ? upml.w : plain.w);
}

/* The x and y slabs of the tile and onepass variants (upml_xy4.cl) as whole rows (i, j): first the
   xlo x ny rows of the low x slab, then the xhi x ny of the high one, then for each plane between
   them its ylo + yhi y-slab rows. Row r -> (i, j); the auxiliaries of float4 kq of row r sit at
   r * nz4 + kq (device_tables.hpp xy_pml_rows counts the rows). */
DEVICE_FN void xy_pml_cell(int r, int nx, int ny, int xlo, int xhi, int ylo, int yhi, int* i,
                           int* j) {
  if (r < xlo * ny) {
    *i = r / ny;
    *j = r - *i * ny;
    return;
  }
  r -= xlo * ny;
  if (r < xhi * ny) {
    const int q = r / ny;
    *i = nx - xhi + q;
    *j = r - q * ny;
    return;
  }
  r -= xhi * ny;
  const int w = ylo + yhi;  /* > 0: there are rows left only when the y slabs exist */
  const int q = r / w, jr = r - q * w;
  *i = xlo + q;
  *j = jr < ylo ? jr : ny - yhi + (jr - ylo);
}

#endif /* CLFDTD_UPML_LANES_H */
