// The z slabs of the tile and onepass variants: a float4 of the x/y interior that holds a z-slab
// cell (upml_lanes.h: kq < zq_lo or kq >= zq_hi), all four lanes, called per work-item by the
// z-slab groups of upml_slabs.cl: UPML for the z-slab cells, the plain update (update_h.cl /
// update_e.cl) for the others (a float4 that straddles the slab's inner face, padding lanes past
// nz, and whole float4s of plain cells: the slab faces are rounded out to even float4 indices,
// device_tables.hpp). The tile kernels and the onepass pass store nothing on these float4s.
//
// Why float4s rather than one launch per PML box: a z-slab box is rows of only zlo (zhi) cells,
// one work-item per cell, which the H200 ran at half the bandwidth of the x/y boxes
// (docs/BENCHMARKS.md). Here a row's slab is a few whole float4s, read and written as float4s,
// with its one auxiliary per field kind float4-aligned too (Bz, Dz; the x and y components need
// none in the x/y interior: upml_lanes.h upml_face_update).
//
// Which float4: slot (0 .. znq-1: the low slab's float4s, then the high slab's) of interior row
// (ii, jj) = (i - xlo, j - ylo), over the interior extents nxi x nyi; its auxiliaries sit at
// (ii * nyi + jj) * znq + slot.
// Rows outside [ri0, ri1) x [rj0, rj1) are left alone (a step split by rows; the whole grid:
// 0, 0, nx, ny).
// Neighbours as in the tile kernels: +x/+y/next float4 for H (zero past the high end), -x/-y/
// previous float4 for E (zero before index 0).
//
// In and out: the fields updated (H, then E) are read from one set and written to another, which
// is the same set for the tile variant (in place) and the next one for onepass (whose pass then
// only reads these float4s, for their plain neighbours: update_onepass.cl). So those pointers
// carry no RESTRICT; every work-item reads its own float4 before writing it, and no other work-item
// of the launch reads it (the x/y groups of the same launch write other float4s and read only the
// other field kind around them).
//
// Bytes per float4 (4 cells): 3 fields read + written 96, 1 auxiliary read + written 32 (16 when
// stored in 16 bits: upml_aux.h), 3 x 4 ids when they are read, plus the neighbour float4s
// (mostly L2 hits).
#ifndef CLFDTD_UPML_ZSLAB_CL
#define CLFDTD_UPML_ZSLAB_CL
#include "fdtd_common.h"
#include "upml_lanes.h"
#include "upml_aux.h"

/* Slot -> float4 kq of the row (the inverse of zslab_slot). */
DEVICE_FN int zslab_kq(int slot, int zq_lo, int zq_hi) {
  return slot < zq_lo ? slot : slot - zq_lo + (zq_hi > zq_lo ? zq_hi : zq_lo);
}

/* H of z-slab float4 kq on values (the memory is the caller's: upml_zslab_h, and tblock.cl's
   shell pass): *h_* the fields, replaced by the new ones; c_* the curl of E; a0 / *a1 the
   auxiliary Bz before and after; r_* 1/mu_r and db_* the plain update's coefficient per lane. */
DEVICE_FN void zslab_h_values(int kq, int nz, int pml_zlo, int pml_zhi, GLOBAL const float4* zlanes,
                              float dt_mu0, float4 c_x, float4 c_y, float4 c_z, float4 r_x,
                              float4 r_y, float4 r_z, float4 db_x, float4 db_y, float4 db_z,
                              float4 a0, float4* a1, float4* h_x, float4* h_y, float4* h_z) {
  // upml_lanes.h: H takes (a, b) at half z, (cp, cm) at integer z.
  GLOBAL const float4* zp = zlanes + 8 * kq;
  const float4 a = zp[0], b = zp[1], cp = zp[2], cm = zp[3];
  const float s = -dt_mu0;
  *a1 = a0 + s * c_z;
  const float4 f_x = *h_x, f_y = *h_y, f_z = *h_z;
  *h_x = pick_zslab_lanes(upml_face_update(f_x, s * c_x, a, b, r_x), f_x - db_x * c_x, kq, nz,
                          pml_zlo, pml_zhi);
  *h_y = pick_zslab_lanes(upml_face_update(f_y, s * c_y, a, b, r_y), f_y - db_y * c_y, kq, nz,
                          pml_zlo, pml_zhi);
  *h_z = pick_zslab_lanes(f_z + r_z * (cp * *a1 - cm * a0) * 0.5f, f_z - db_z * c_z, kq, nz,
                          pml_zlo, pml_zhi);
}

/* E of z-slab float4 kq on values, as zslab_h_values: c_* the curl of H, a0 / *a1 Dz, m_* the
   lanes' material ids (1/eps_r for the slab lanes, ca and cb for the plain ones). */
DEVICE_FN void zslab_e_values(int kq, int nz, int pml_zlo, int pml_zhi, GLOBAL const float4* zlanes,
                              float dt_eps0, float4 c_x, float4 c_y, float4 c_z, uchar4 m_x,
                              uchar4 m_y, uchar4 m_z, CONSTANT_PTR float4* ecoef, float4 a0,
                              float4* a1, float4* e_x, float4* e_y, float4* e_z) {
  // upml_lanes.h: E takes (a, b) at integer z, (cp, cm) at half z.
  GLOBAL const float4* zp = zlanes + 8 * kq + 4;
  const float4 a = zp[0], b = zp[1], cp = zp[2], cm = zp[3];
  const float s = dt_eps0;
  *a1 = a0 + s * c_z;
  const float4 f_x = *e_x, f_y = *e_y, f_z = *e_z;
  *e_x = pick_zslab_lanes(upml_face_update(f_x, s * c_x, a, b, COEF4(ecoef, m_x, z)),
                          COEF4(ecoef, m_x, x) * f_x + COEF4(ecoef, m_x, y) * c_x, kq, nz,
                          pml_zlo, pml_zhi);
  *e_y = pick_zslab_lanes(upml_face_update(f_y, s * c_y, a, b, COEF4(ecoef, m_y, z)),
                          COEF4(ecoef, m_y, x) * f_y + COEF4(ecoef, m_y, y) * c_y, kq, nz,
                          pml_zlo, pml_zhi);
  *e_z = pick_zslab_lanes(f_z + COEF4(ecoef, m_z, z) * (cp * *a1 - cm * a0) * 0.5f,
                          COEF4(ecoef, m_z, x) * f_z + COEF4(ecoef, m_z, y) * c_z, kq, nz,
                          pml_zlo, pml_zhi);
}

/* H of slab float4 `slot` of interior row (ii, jj) (0 <= slot < znq, ii < nxi, jj < nyi). */
DEVICE_FN void upml_zslab_h(
    GLOBAL float4* hx_out, GLOBAL float4* hy_out, GLOBAL float4* hz_out, GLOBAL const float4* hx,
    GLOBAL const float4* hy, GLOBAL const float4* hz, GLOBAL const float4* ex,
    GLOBAL const float4* ey, GLOBAL const float4* ez,
    GLOBAL const uchar4* id_hx, GLOBAL const uchar4* id_hy,
    GLOBAL const uchar4* id_hz, CONSTANT_PTR float4* hcoef, float db_vacuum,
    GLOBAL AUX4* aux_z, GLOBAL const float4* zlanes, float dt_mu0, float inv_dx, float inv_dy,
    float inv_dz, int nx, int ny, int nz, int nz4,
    int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi, int pml_zlo, int pml_zhi, int zq_lo,
    int zq_hi, int znq, int ri0, int rj0, int ri1, int rj1, int slot, int jj, int ii) {
  const int nyi = ny - pml_ylo - pml_yhi;
  const int i = ii + pml_xlo, j = jj + pml_ylo, kq = zslab_kq(slot, zq_lo, zq_hi);
  if (i < ri0 || i >= ri1 || j < rj0 || j >= rj1) return;
  const int c = lane_index(i, j, kq, ny, nz4);
  float4 curl_x, curl_y, curl_z;
  curl_e_float4(ex, ey, ez, c, i, j, kq, nx, ny, nz4, inv_dx, inv_dy, inv_dz, &curl_x, &curl_y,
                &curl_z);
#if MAGNETIC
  const uchar4 m_x = id_hx[c], m_y = id_hy[c], m_z = id_hz[c];
  const float4 db_x = COEF4(hcoef, m_x, x), db_y = COEF4(hcoef, m_y, x), db_z = COEF4(hcoef, m_z, x);
  const float4 r_x = COEF4(hcoef, m_x, y), r_y = COEF4(hcoef, m_y, y), r_z = COEF4(hcoef, m_z, y);
#else
  const float4 db_x = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum), db_y = db_x,
               db_z = db_x;
  const float4 r_x = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f), r_y = r_x, r_z = r_x;
#endif
  const int p = (ii * nyi + jj) * znq + slot;
  float4 a1, h_x = hx[c], h_y = hy[c], h_z = hz[c];
  zslab_h_values(kq, nz, pml_zlo, pml_zhi, zlanes, dt_mu0, curl_x, curl_y, curl_z, r_x, r_y, r_z,
                 db_x, db_y, db_z, aux_load(aux_z, p), &a1, &h_x, &h_y, &h_z);
  aux_store(aux_z, p, a1);
  hx_out[c] = h_x;
  hy_out[c] = h_y;
  hz_out[c] = h_z;
}

/* E of slab float4 `slot` of interior row (ii, jj). */
DEVICE_FN void upml_zslab_e(
    GLOBAL float4* ex_out, GLOBAL float4* ey_out, GLOBAL float4* ez_out, GLOBAL const float4* ex,
    GLOBAL const float4* ey, GLOBAL const float4* ez, GLOBAL const float4* hx,
    GLOBAL const float4* hy, GLOBAL const float4* hz,
    GLOBAL const uchar4* id_ex, GLOBAL const uchar4* id_ey,
    GLOBAL const uchar4* id_ez, CONSTANT_PTR float4* ecoef,
    GLOBAL AUX4* aux_z, GLOBAL const float4* zlanes, float dt_eps0, float inv_dx, float inv_dy,
    float inv_dz, int nx, int ny, int nz, int nz4,
    int pml_xlo, int pml_xhi, int pml_ylo, int pml_yhi, int pml_zlo, int pml_zhi, int zq_lo,
    int zq_hi, int znq, int ri0, int rj0, int ri1, int rj1, int slot, int jj, int ii) {
  const int nyi = ny - pml_ylo - pml_yhi;
  const int i = ii + pml_xlo, j = jj + pml_ylo, kq = zslab_kq(slot, zq_lo, zq_hi);
  if (i < ri0 || i >= ri1 || j < rj0 || j >= rj1) return;
  const int c = lane_index(i, j, kq, ny, nz4);
  float4 curl_x, curl_y, curl_z;
  curl_h_float4(hx, hy, hz, c, i, j, kq, ny, nz4, inv_dx, inv_dy, inv_dz, &curl_x, &curl_y,
                &curl_z);
  const int p = (ii * nyi + jj) * znq + slot;
  float4 a1, e_x = ex[c], e_y = ey[c], e_z = ez[c];
  zslab_e_values(kq, nz, pml_zlo, pml_zhi, zlanes, dt_eps0, curl_x, curl_y, curl_z, id_ex[c],
                 id_ey[c], id_ez[c], ecoef, aux_load(aux_z, p), &a1, &e_x, &e_y, &e_z);
  aux_store(aux_z, p, a1);
  ex_out[c] = e_x;
  ey_out[c] = e_y;
  ez_out[c] = e_z;
}

#endif /* CLFDTD_UPML_ZSLAB_CL */
