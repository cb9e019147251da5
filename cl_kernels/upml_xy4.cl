// The x and y slabs of the tile and onepass variants, float4-wise: one float4 kq of an x/y-slab
// row r (upml_lanes.h xy_pml_cell numbers the rows), all four lanes, called per work-item by the
// x/y groups of upml_slabs.cl. upml_lanes.h's recursions (docs/EQUATIONS.md) with the x and y
// profiles taken per row and the z profile per lane from zlanes (zslab_lane_table: H's a, b at
// half z and cp, cm at integer z, then E's the other way round). The auxiliaries are float4 rows,
// Dx Dy Dz / Bx By Bz at r * nz4 + kq. Padding lanes past nz see neutral z profiles and zero
// neighbours; their E is PEC (inv_eps_r = 0), so they stay zero.
//
// A face row (in the x slab or the y slab, not both) holds, in its float4s without a z-slab lane
// ([zq_lo, zq_hi)), face cells only: there the two components across the slab need no auxiliary
// (upml_lanes.h upml_face_update) and only the slab axis' one is read and written. Every other
// float4 (the x-y edge rows, the z ends of a face row) takes the full recursions, which hold
// everywhere; which form a float4 takes never changes, so its auxiliaries stay consistent.
//
// Why float4 rows rather than one launch per PML box: four launches per field kind, one cell per
// work-item, ran at ~3 TB/s on the H200 (docs/BENCHMARKS.md); this form reads and writes whole
// float4s.
// Rows outside [ri0, ri1) x [rj0, rj1) are left alone (a step split by rows; the whole grid:
// 0, 0, nx, ny).
// Neighbours as in the tile kernels: +x/+y/next float4 for H (zero past the high end), -x/-y/
// previous float4 for E (zero before index 0).
//
// The updated fields are read from one set and written to another: the same set for the tile
// variant, the next one for onepass (upml_zslab.cl says why; hence no RESTRICT on them in
// upml_slabs.cl).
//
// Bytes per float4 (4 cells) and field kind: 3 fields read + written 96, the auxiliaries read +
// written 32 per auxiliary (16 when stored in 16 bits: upml_aux.h; 1 auxiliary in a face float4,
// 3 elsewhere), 3 x 4 ids, plus the neighbour float4s (mostly cache hits).
#ifndef CLFDTD_UPML_XY4_CL
#define CLFDTD_UPML_XY4_CL
#include "fdtd_common.h"
#include "upml_lanes.h"
#include "upml_aux.h"

/* A float4 of face cells of an x/y-slab row (in one of the two slabs, no z-slab lane, so a_z =
   b_z = 1 on every lane): the component along the slab's axis, u, keeps its auxiliary (the
   recursions with those factors multiplied out), the other two take upml_face_update with the slab
   axis' (a, b). pv: the profile of u's next axis at u's position; pu: u's own (cp, cm); pf: the
   slab axis' at the other two components' positions; s: -dt/mu0 or dt/eps0. The fields, curls,
   ratios and results come u first, then the other two. */
DEVICE_FN void xy4_face(GLOBAL AUX4* aux, int q, float4 pv, float4 pu, float4 pf, float s,
                        float4 f_u, float4 f_1, float4 f_2, float4 c_u, float4 c_1, float4 c_2,
                        float4 r_u, float4 r_1, float4 r_2, float4* o_u, float4* o_1,
                        float4* o_2) {
  const float4 a0 = aux_load(aux, q);
  const float4 a1 = pv.x * a0 + (pv.y * s) * c_u;
  aux_store(aux, q, a1);
  *o_u = f_u + r_u * (pu.z * a1 - pu.w * a0) * 0.5f;
  *o_1 = upml_face_update(f_1, s * c_1, splat4(pf.x), splat4(pf.y), r_1);
  *o_2 = upml_face_update(f_2, s * c_2, splat4(pf.x), splat4(pf.y), r_2);
}

/* H of float4 kq of x/y-slab row r (0 <= kq < nz4, 0 <= r < rows). */
DEVICE_FN void upml_xy4_h(
    GLOBAL float4* hx_out, GLOBAL float4* hy_out, GLOBAL float4* hz_out, GLOBAL const float4* hx,
    GLOBAL const float4* hy, GLOBAL const float4* hz, GLOBAL const float4* ex,
    GLOBAL const float4* ey, GLOBAL const float4* ez, GLOBAL AUX4* bx, GLOBAL AUX4* by,
    GLOBAL AUX4* bz, GLOBAL const float4* int_x, GLOBAL const float4* int_y,
    GLOBAL const float4* half_x, GLOBAL const float4* half_y, GLOBAL const float4* zlanes,
    GLOBAL const uchar4* id_hx, GLOBAL const uchar4* id_hy, GLOBAL const uchar4* id_hz,
    CONSTANT_PTR float4* hcoef, float dt_mu0, float inv_dx, float inv_dy, float inv_dz, int nx,
    int ny, int nz4, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi, int zq_lo, int zq_hi,
    int ri0, int rj0, int ri1, int rj1, int kq, int r) {
  int i, j;
  xy_pml_cell(r, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi, &i, &j);
  if (i < ri0 || i >= ri1 || j < rj0 || j >= rj1) return;
  const int c = lane_index(i, j, kq, ny, nz4);
  const int q = r * nz4 + kq;
  float4 curl_x, curl_y, curl_z;
  curl_e_float4(ex, ey, ez, c, i, j, kq, nx, ny, nz4, inv_dx, inv_dy, inv_dz, &curl_x, &curl_y,
                &curl_z);

#if MAGNETIC
  const float4 r_x = COEF4(hcoef, id_hx[c], y), r_y = COEF4(hcoef, id_hy[c], y),
               r_z = COEF4(hcoef, id_hz[c], y);
#else
  const float4 r_x = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f), r_y = r_x, r_z = r_x;
#endif
  // H_u is integer along u, half-integer along v and w (upml_lanes.h).
  const float4 ix = int_x[i], iy = int_y[j], hxp = half_x[i], hyp = half_y[j];
  GLOBAL const float4* zp = zlanes + 8 * kq;
  const float4 a_z = zp[0], b_z = zp[1], cp_z = zp[2], cm_z = zp[3];
  const float s = -dt_mu0;
  const float4 h_x = hx[c], h_y = hy[c], h_z = hz[c];
  const int in_x = in_layers(i, nx, pml_xlo, pml_xhi), in_y = in_layers(j, ny, pml_ylo, pml_yhi);
  if (in_x != in_y && kq >= zq_lo && kq < zq_hi) {
    float4 o_x, o_y, o_z;
    if (in_x)
      xy4_face(bx, q, hyp, ix, hxp, s, h_x, h_y, h_z, curl_x, curl_y, curl_z, r_x, r_y, r_z, &o_x,
               &o_y, &o_z);
    else
      xy4_face(by, q, NEUTRAL_PROFILE, iy, hyp, s, h_y, h_x, h_z, curl_y, curl_x, curl_z, r_y, r_x,
               r_z, &o_y, &o_x, &o_z);
    hx_out[c] = o_x;
    hy_out[c] = o_y;
    hz_out[c] = o_z;
    return;
  }
  const float4 bx0 = aux_load(bx, q), by0 = aux_load(by, q), bz0 = aux_load(bz, q);
  const float4 bx1 = hyp.x * bx0 + (hyp.y * s) * curl_x;  // v = y, w = z, u = x
  const float4 by1 = a_z * by0 + b_z * (s * curl_y);      // v = z, w = x, u = y
  const float4 bz1 = hxp.x * bz0 + (hxp.y * s) * curl_z;  // v = x, w = y, u = z
  aux_store(bx, q, bx1);
  aux_store(by, q, by1);
  aux_store(bz, q, bz1);
  hx_out[c] = a_z * h_x + r_x * (ix.z * bx1 - ix.w * bx0) * b_z * 0.5f;
  hy_out[c] = hxp.x * h_y + r_y * (iy.z * by1 - iy.w * by0) * (hxp.y * 0.5f);
  hz_out[c] = hyp.x * h_z + r_z * (cp_z * bz1 - cm_z * bz0) * (hyp.y * 0.5f);
}

/* E of float4 kq of x/y-slab row r. */
DEVICE_FN void upml_xy4_e(
    GLOBAL float4* ex_out, GLOBAL float4* ey_out, GLOBAL float4* ez_out, GLOBAL const float4* ex,
    GLOBAL const float4* ey, GLOBAL const float4* ez, GLOBAL const float4* hx,
    GLOBAL const float4* hy, GLOBAL const float4* hz, GLOBAL AUX4* dx, GLOBAL AUX4* dy,
    GLOBAL AUX4* dz, GLOBAL const float4* int_x, GLOBAL const float4* int_y,
    GLOBAL const float4* half_x, GLOBAL const float4* half_y, GLOBAL const float4* zlanes,
    GLOBAL const uchar4* id_ex, GLOBAL const uchar4* id_ey, GLOBAL const uchar4* id_ez,
    CONSTANT_PTR float4* ecoef, float dt_eps0, float inv_dx, float inv_dy, float inv_dz, int nx,
    int ny, int nz4, int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi, int zq_lo, int zq_hi,
    int ri0, int rj0, int ri1, int rj1, int kq, int r) {
  int i, j;
  xy_pml_cell(r, nx, ny, pml_xlo, pml_xhi, pml_ylo, pml_yhi, &i, &j);
  if (i < ri0 || i >= ri1 || j < rj0 || j >= rj1) return;
  const int c = lane_index(i, j, kq, ny, nz4);
  const int q = r * nz4 + kq;
  float4 curl_x, curl_y, curl_z;
  curl_h_float4(hx, hy, hz, c, i, j, kq, ny, nz4, inv_dx, inv_dy, inv_dz, &curl_x, &curl_y,
                &curl_z);

  // E_u is half-integer along u, integer along v and w (upml_lanes.h).
  const float4 ix = int_x[i], iy = int_y[j], hxp = half_x[i], hyp = half_y[j];
  GLOBAL const float4* zp = zlanes + 8 * kq + 4;
  const float4 a_z = zp[0], b_z = zp[1], cp_z = zp[2], cm_z = zp[3];
  const float s = dt_eps0;
  const float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
  const int in_x = in_layers(i, nx, pml_xlo, pml_xhi), in_y = in_layers(j, ny, pml_ylo, pml_yhi);
  if (in_x != in_y && kq >= zq_lo && kq < zq_hi) {
    const float4 r_x = COEF4(ecoef, id_ex[c], z), r_y = COEF4(ecoef, id_ey[c], z),
                 r_z = COEF4(ecoef, id_ez[c], z);
    float4 o_x, o_y, o_z;
    if (in_x)
      xy4_face(dx, q, iy, hxp, ix, s, e_x, e_y, e_z, curl_x, curl_y, curl_z, r_x, r_y, r_z, &o_x,
               &o_y, &o_z);
    else
      xy4_face(dy, q, NEUTRAL_PROFILE, hyp, iy, s, e_y, e_x, e_z, curl_y, curl_x, curl_z, r_y, r_x,
               r_z, &o_y, &o_x, &o_z);
    ex_out[c] = o_x;
    ey_out[c] = o_y;
    ez_out[c] = o_z;
    return;
  }
  const float4 dx0 = aux_load(dx, q), dy0 = aux_load(dy, q), dz0 = aux_load(dz, q);
  const float4 dx1 = iy.x * dx0 + (iy.y * s) * curl_x;  // v = y, w = z, u = x
  const float4 dy1 = a_z * dy0 + b_z * (s * curl_y);    // v = z, w = x, u = y
  const float4 dz1 = ix.x * dz0 + (ix.y * s) * curl_z;  // v = x, w = y, u = z
  aux_store(dx, q, dx1);
  aux_store(dy, q, dy1);
  aux_store(dz, q, dz1);
  ex_out[c] = a_z * e_x + COEF4(ecoef, id_ex[c], z) * (hxp.z * dx1 - hxp.w * dx0) * b_z * 0.5f;
  ey_out[c] = ix.x * e_y + COEF4(ecoef, id_ey[c], z) * (hyp.z * dy1 - hyp.w * dy0) * (ix.y * 0.5f);
  ez_out[c] = iy.x * e_z + COEF4(ecoef, id_ez[c], z) * (cp_z * dz1 - cm_z * dz0) * (iy.y * 0.5f);
}

#endif /* CLFDTD_UPML_XY4_CL */
