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

/* Which form a float4 of an x/y-slab row takes: face cells in the x slab or in the y slab (no
   z-slab lane: a_z = b_z = 1 on every lane), or the full recursions (the x-y edge rows, the z
   ends of a face row). */
#define XY4_FACE_X 1
#define XY4_FACE_Y 2
#define XY4_FULL 3
DEVICE_FN int xy4_kind(int in_x, int in_y, int kq, int zq_lo, int zq_hi) {
  return in_x != in_y && kq >= zq_lo && kq < zq_hi ? (in_x ? XY4_FACE_X : XY4_FACE_Y) : XY4_FULL;
}

/* A face float4: the component along the slab's axis, u, keeps its auxiliary (the recursions
   with a_z = b_z = 1 multiplied out), the other two take upml_face_update with the slab axis'
   (a, b). pv: the profile of u's next axis at u's position; pu: u's own (cp, cm); pf: the slab
   axis' at the other two components' positions; s: -dt/mu0 or dt/eps0; a0 / *a1: u's auxiliary
   before and after. The fields, curls, ratios and results come u first, then the other two. */
DEVICE_FN void xy4_face(float4 a0, float4 pv, float4 pu, float4 pf, float s, float4 f_u,
                        float4 f_1, float4 f_2, float4 c_u, float4 c_1, float4 c_2, float4 r_u,
                        float4 r_1, float4 r_2, float4* a1, float4* o_u, float4* o_1,
                        float4* o_2) {
  *a1 = pv.x * a0 + (pv.y * s) * c_u;
  *o_u = f_u + r_u * (pu.z * *a1 - pu.w * a0) * 0.5f;
  *o_1 = upml_face_update(f_1, s * c_1, splat4(pf.x), splat4(pf.y), r_1);
  *o_2 = upml_face_update(f_2, s * c_2, splat4(pf.x), splat4(pf.y), r_2);
}

/* H of a float4 of an x/y-slab row of form `kind` at (i, j, kq), on values (the memory is the
   caller's: upml_xy4_h, and tblock.cl's shell pass): *h_* the fields, replaced by the new ones;
   c_* the curl of E; a0 the auxiliaries Bx By Bz before (a face float4 reads only its slab
   axis' one), *a1 after (the others set to zero). */
DEVICE_FN void xy4_h_values(int kind, int i, int j, int kq, GLOBAL const float4* int_x,
                            GLOBAL const float4* int_y, GLOBAL const float4* half_x,
                            GLOBAL const float4* half_y, GLOBAL const float4* zlanes,
                            float dt_mu0, float4 c_x, float4 c_y, float4 c_z, float4 r_x,
                            float4 r_y, float4 r_z, float4 a0x, float4 a0y, float4 a0z,
                            float4* a1x, float4* a1y, float4* a1z, float4* h_x, float4* h_y,
                            float4* h_z) {
  // H_u is integer along u, half-integer along v and w (upml_lanes.h).
  const float4 ix = int_x[i], iy = int_y[j], hxp = half_x[i], hyp = half_y[j];
  const float s = -dt_mu0;
  const float4 f_x = *h_x, f_y = *h_y, f_z = *h_z;
  *a1x = zero4();
  *a1y = zero4();
  *a1z = zero4();
  if (kind == XY4_FACE_X) {
    xy4_face(a0x, hyp, ix, hxp, s, f_x, f_y, f_z, c_x, c_y, c_z, r_x, r_y, r_z, a1x, h_x, h_y,
             h_z);
    return;
  }
  if (kind == XY4_FACE_Y) {
    xy4_face(a0y, NEUTRAL_PROFILE, iy, hyp, s, f_y, f_x, f_z, c_y, c_x, c_z, r_y, r_x, r_z, a1y,
             h_y, h_x, h_z);
    return;
  }
  GLOBAL const float4* zp = zlanes + 8 * kq;
  const float4 a_z = zp[0], b_z = zp[1], cp_z = zp[2], cm_z = zp[3];
  *a1x = hyp.x * a0x + (hyp.y * s) * c_x;  // v = y, w = z, u = x
  *a1y = a_z * a0y + b_z * (s * c_y);      // v = z, w = x, u = y
  *a1z = hxp.x * a0z + (hxp.y * s) * c_z;  // v = x, w = y, u = z
  *h_x = a_z * f_x + r_x * (ix.z * *a1x - ix.w * a0x) * b_z * 0.5f;
  *h_y = hxp.x * f_y + r_y * (iy.z * *a1y - iy.w * a0y) * (hxp.y * 0.5f);
  *h_z = hyp.x * f_z + r_z * (cp_z * *a1z - cm_z * a0z) * (hyp.y * 0.5f);
}

/* E of such a float4, on values as xy4_h_values: c_* the curl of H, a0 / *a1 Dx Dy Dz, r_* the
   lanes' 1/eps_r. */
DEVICE_FN void xy4_e_values(int kind, int i, int j, int kq, GLOBAL const float4* int_x,
                            GLOBAL const float4* int_y, GLOBAL const float4* half_x,
                            GLOBAL const float4* half_y, GLOBAL const float4* zlanes,
                            float dt_eps0, float4 c_x, float4 c_y, float4 c_z, float4 r_x,
                            float4 r_y, float4 r_z, float4 a0x, float4 a0y, float4 a0z,
                            float4* a1x, float4* a1y, float4* a1z, float4* e_x, float4* e_y,
                            float4* e_z) {
  // E_u is half-integer along u, integer along v and w (upml_lanes.h).
  const float4 ix = int_x[i], iy = int_y[j], hxp = half_x[i], hyp = half_y[j];
  const float s = dt_eps0;
  const float4 f_x = *e_x, f_y = *e_y, f_z = *e_z;
  *a1x = zero4();
  *a1y = zero4();
  *a1z = zero4();
  if (kind == XY4_FACE_X) {
    xy4_face(a0x, iy, hxp, ix, s, f_x, f_y, f_z, c_x, c_y, c_z, r_x, r_y, r_z, a1x, e_x, e_y,
             e_z);
    return;
  }
  if (kind == XY4_FACE_Y) {
    xy4_face(a0y, NEUTRAL_PROFILE, hyp, iy, s, f_y, f_x, f_z, c_y, c_x, c_z, r_y, r_x, r_z, a1y,
             e_y, e_x, e_z);
    return;
  }
  GLOBAL const float4* zp = zlanes + 8 * kq + 4;
  const float4 a_z = zp[0], b_z = zp[1], cp_z = zp[2], cm_z = zp[3];
  *a1x = iy.x * a0x + (iy.y * s) * c_x;  // v = y, w = z, u = x
  *a1y = a_z * a0y + b_z * (s * c_y);    // v = z, w = x, u = y
  *a1z = ix.x * a0z + (ix.y * s) * c_z;  // v = x, w = y, u = z
  *e_x = a_z * f_x + r_x * (hxp.z * *a1x - hxp.w * a0x) * b_z * 0.5f;
  *e_y = ix.x * f_y + r_y * (hyp.z * *a1y - hyp.w * a0y) * (ix.y * 0.5f);
  *e_z = iy.x * f_z + r_z * (cp_z * *a1z - cm_z * a0z) * (iy.y * 0.5f);
}

/* The auxiliaries of form `kind` at q: read (the others zero) and written (only those read). */
DEVICE_FN void xy4_aux_load(int kind, GLOBAL const AUX4* ax, GLOBAL const AUX4* ay,
                            GLOBAL const AUX4* az, int q, float4* a_x, float4* a_y, float4* a_z) {
  *a_x = kind != XY4_FACE_Y ? aux_load(ax, q) : zero4();
  *a_y = kind != XY4_FACE_X ? aux_load(ay, q) : zero4();
  *a_z = kind == XY4_FULL ? aux_load(az, q) : zero4();
}
DEVICE_FN void xy4_aux_store(int kind, GLOBAL AUX4* ax, GLOBAL AUX4* ay, GLOBAL AUX4* az, int q,
                             float4 a_x, float4 a_y, float4 a_z) {
  if (kind != XY4_FACE_Y) aux_store(ax, q, a_x);
  if (kind != XY4_FACE_X) aux_store(ay, q, a_y);
  if (kind == XY4_FULL) aux_store(az, q, a_z);
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
  const int kind = xy4_kind(in_layers(i, nx, pml_xlo, pml_xhi), in_layers(j, ny, pml_ylo, pml_yhi),
                            kq, zq_lo, zq_hi);
  float4 a0x, a0y, a0z, a1x, a1y, a1z;
  xy4_aux_load(kind, bx, by, bz, q, &a0x, &a0y, &a0z);
  float4 h_x = hx[c], h_y = hy[c], h_z = hz[c];
  xy4_h_values(kind, i, j, kq, int_x, int_y, half_x, half_y, zlanes, dt_mu0, curl_x, curl_y,
               curl_z, r_x, r_y, r_z, a0x, a0y, a0z, &a1x, &a1y, &a1z, &h_x, &h_y, &h_z);
  xy4_aux_store(kind, bx, by, bz, q, a1x, a1y, a1z);
  hx_out[c] = h_x;
  hy_out[c] = h_y;
  hz_out[c] = h_z;
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
  const float4 r_x = COEF4(ecoef, id_ex[c], z), r_y = COEF4(ecoef, id_ey[c], z),
               r_z = COEF4(ecoef, id_ez[c], z);
  const int kind = xy4_kind(in_layers(i, nx, pml_xlo, pml_xhi), in_layers(j, ny, pml_ylo, pml_yhi),
                            kq, zq_lo, zq_hi);
  float4 a0x, a0y, a0z, a1x, a1y, a1z;
  xy4_aux_load(kind, dx, dy, dz, q, &a0x, &a0y, &a0z);
  float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
  xy4_e_values(kind, i, j, kq, int_x, int_y, half_x, half_y, zlanes, dt_eps0, curl_x, curl_y,
               curl_z, r_x, r_y, r_z, a0x, a0y, a0z, &a1x, &a1y, &a1z, &e_x, &e_y, &e_z);
  xy4_aux_store(kind, dx, dy, dz, q, a1x, a1y, a1z);
  ex_out[c] = e_x;
  ey_out[c] = e_y;
  ez_out[c] = e_z;
}

#endif /* CLFDTD_UPML_XY4_CL */
