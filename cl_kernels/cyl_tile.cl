// Kernel variant "cyl-tile" of the cylindrical solver (cyl_cell.h gives the equations and the axis
// rules; this is the same arithmetic on float4 lanes of 4 consecutive z cells). One work-item per
// float4 and mode slot: NDRange dimension 0 = float4s along z (kq0 <= kq < kq1), 1 = rows along r
// (0 <= i < i1, the rows left of the r slab), 2 = the mode slot, so every mode runs in one launch.
// Lanes outside [klo, khi) (z-slab PML cells, padding) keep their value: cyl_pml.cl updates the PML
// cells in a separate launch. Neighbours along z come from the next / previous float4 of the row
// (shift_up / shift_down), along r from the rows i +- 1, all from global memory (cyl_tile_local.cl
// stages them in local memory instead; both call the updates below). In place. Row 0 (the axis
// rules) is uniform across a work-group row, and the mode is uniform per group.
// Bytes per cell, mode and step: H reads 6 E and 6 H floats and writes 6 H (72 B), E likewise
// (72 B) plus 3 E ids (3 B; 6 B of ids when magnetic): ~147 B of compulsory traffic.
#include "cyl_common.h"

#define CYL_TILE_GRID                                                                           \
  GLOBAL const int *RESTRICT modes, float dr, float inv_dr, float inv_dz, int nr, int nz4,      \
      int cells4, int nq, int i1, int kq0, int kq1, int klo, int khi

/* The float4 of this work-item (real plane offset of its mode slot included: *pr), or -1. */
DEVICE_FN int cyl_tile_item(int cells4, int nz4, int nq, int i1, int kq0, int kq1, int* i, int* kq,
                            int* q, int* pr) {
  *kq = kq0 + GLOBAL_ID(0);
  *i = GLOBAL_ID(1);
  *q = GLOBAL_ID(2);
  if (*i >= i1 || *kq >= kq1 || *q >= nq) return -1;
  const int c = *i * nz4 + *kq;
  *pr = 2 * *q * cells4 + c;
  return c;
}

/* One complex float4: 4 z cells of the real and the imaginary plane. */
typedef struct {
  float4 re, im;
} cyl_c4;

DEVICE_FN cyl_c4 cyl_load(GLOBAL const float4* RESTRICT f, int pr, int cells4) {
  cyl_c4 v;
  v.re = f[pr];
  v.im = f[pr + cells4];
  return v;
}
DEVICE_FN cyl_c4 cyl_zero(void) {
  cyl_c4 v;
  v.re = zero4();
  v.im = zero4();
  return v;
}
DEVICE_FN cyl_c4 cyl_shift_up(cyl_c4 v, cyl_c4 next) {
  cyl_c4 o;
  o.re = shift_up(v.re, next.re);
  o.im = shift_up(v.im, next.im);
  return o;
}
DEVICE_FN cyl_c4 cyl_shift_down(cyl_c4 prev, cyl_c4 v) {
  cyl_c4 o;
  o.re = shift_down(prev.re, v.re);
  o.im = shift_down(prev.im, v.im);
  return o;
}

/* What the H update of one float4 reads besides H itself: E at the cell, E at k+1 (already
   shifted by one lane: *_kp) and E of row i+1 (*_ip), zero past the high ends. */
typedef struct {
  cyl_c4 ez, ephi, er, ephi_kp, er_kp, ez_ip, ephi_ip;
} cyl_h_in;

/* What the E update reads besides E: H at the cell, H at k-1 (shifted: *_km), H of row i-1
   (*_im; row 0 does not read them). */
typedef struct {
  cyl_c4 hr, hphi, hz, hphi_km, hr_km, hz_im, hphi_im;
} cyl_e_in;

DEVICE_FN void cyl_tile_update_h(GLOBAL float4* RESTRICT hr, GLOBAL float4* RESTRICT hphi,
                                 GLOBAL float4* RESTRICT hz, GLOBAL const uchar4* RESTRICT id_hr,
                                 GLOBAL const uchar4* RESTRICT id_hphi,
                                 GLOBAL const uchar4* RESTRICT id_hz,
                                 CONSTANT_PTR float4* RESTRICT hcoef, float db_vacuum, cyl_h_in in,
                                 int c, int pr, int pim, int i, int kq, int m, float dr,
                                 float inv_dr, float inv_dz, int klo, int khi) {
  const float fm = (float)m;
#if MAGNETIC
  const float4 db_r = h_coef4(hcoef, id_hr[c]), db_phi = h_coef4(hcoef, id_hphi[c]),
               db_z = h_coef4(hcoef, id_hz[c]);
#else
  const float4 db_r = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum), db_phi = db_r,
               db_z = db_r;
#endif

  /* Hr (i, k+1/2) */
  {
    const float4 dephi_r = (in.ephi_kp.re - in.ephi.re) * inv_dz,
                 dephi_i = (in.ephi_kp.im - in.ephi.im) * inv_dz;
    const float4 old_r = hr[pr], old_i = hr[pim];
    float4 next_r = zero4(), next_i = zero4();
    if (i > 0) {
      const float s = fm / ((float)i * dr);
      next_r = old_r - db_r * (in.ez.im * (-s) - dephi_r);
      next_i = old_i - db_r * (in.ez.re * s - dephi_i);
    } else if (m == 1) {
      next_r = old_r - db_r * (in.ez_ip.im * (-inv_dr) - dephi_r);
      next_i = old_i - db_r * (in.ez_ip.re * inv_dr - dephi_i);
    }
    hr[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    hr[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Hphi (i+1/2, k+1/2) */
  {
    const float4 old_r = hphi[pr], old_i = hphi[pim];
    const float4 next_r =
        old_r - db_phi * ((in.er_kp.re - in.er.re) * inv_dz - (in.ez_ip.re - in.ez.re) * inv_dr);
    const float4 next_i =
        old_i - db_phi * ((in.er_kp.im - in.er.im) * inv_dz - (in.ez_ip.im - in.ez.im) * inv_dr);
    hphi[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    hphi[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Hz (i+1/2, k) */
  {
    const float rh = ((float)i + 0.5f) * dr;
    const float s = fm / rh, half_inv_r = 0.5f / rh;
    const float4 old_r = hz[pr], old_i = hz[pim];
    const float4 curl_r = (in.ephi_ip.re - in.ephi.re) * inv_dr +
                          (in.ephi_ip.re + in.ephi.re) * half_inv_r + in.er.im * s;
    const float4 curl_i = (in.ephi_ip.im - in.ephi.im) * inv_dr +
                          (in.ephi_ip.im + in.ephi.im) * half_inv_r - in.er.re * s;
    hz[pr] = cyl_mask_lanes(old_r - db_z * curl_r, old_r, kq, klo, khi);
    hz[pim] = cyl_mask_lanes(old_i - db_z * curl_i, old_i, kq, klo, khi);
  }
}

DEVICE_FN void cyl_tile_update_e(GLOBAL float4* RESTRICT er, GLOBAL float4* RESTRICT ephi,
                                 GLOBAL float4* RESTRICT ez, GLOBAL const uchar4* RESTRICT id_er,
                                 GLOBAL const uchar4* RESTRICT id_ephi,
                                 GLOBAL const uchar4* RESTRICT id_ez,
                                 CONSTANT_PTR float4* RESTRICT ecoef, cyl_e_in in, int c, int pr,
                                 int pim, int i, int kq, int m, float dr, float inv_dr,
                                 float inv_dz, int klo, int khi) {
  const float fm = (float)m;
  float4 ca, cb;

  /* Er (i+1/2, k) */
  {
    e_coef4(ecoef, id_er[c], &ca, &cb);
    const float s = fm / (((float)i + 0.5f) * dr);
    const float4 old_r = er[pr], old_i = er[pim];
    const float4 next_r =
        ca * old_r + cb * (in.hz.im * (-s) - (in.hphi.re - in.hphi_km.re) * inv_dz);
    const float4 next_i = ca * old_i + cb * (in.hz.re * s - (in.hphi.im - in.hphi_km.im) * inv_dz);
    er[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    er[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Ephi (i, k) */
  {
    e_coef4(ecoef, id_ephi[c], &ca, &cb);
    const float4 old_r = ephi[pr], old_i = ephi[pim];
    const float4 dhr_r = (in.hr.re - in.hr_km.re) * inv_dz, dhr_i = (in.hr.im - in.hr_km.im) * inv_dz;
    float4 next_r = zero4(), next_i = zero4();
    if (i > 0) {
      next_r = ca * old_r + cb * (dhr_r - (in.hz.re - in.hz_im.re) * inv_dr);
      next_i = ca * old_i + cb * (dhr_i - (in.hz.im - in.hz_im.im) * inv_dr);
    } else if (m == 1) {
      next_r = ca * old_r + cb * (dhr_r - in.hz.re * (2.0f * inv_dr));
      next_i = ca * old_i + cb * (dhr_i - in.hz.im * (2.0f * inv_dr));
    }
    ephi[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    ephi[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Ez (i, k+1/2) */
  {
    e_coef4(ecoef, id_ez[c], &ca, &cb);
    const float4 old_r = ez[pr], old_i = ez[pim];
    float4 next_r = zero4(), next_i = zero4();
    if (i > 0) {
      const float ri = (float)i * dr;
      const float s = fm / ri, half_inv_r = 0.5f / ri;
      next_r = ca * old_r + cb * ((in.hphi.re - in.hphi_im.re) * inv_dr +
                                  (in.hphi.re + in.hphi_im.re) * half_inv_r + in.hr.im * s);
      next_i = ca * old_i + cb * ((in.hphi.im - in.hphi_im.im) * inv_dr +
                                  (in.hphi.im + in.hphi_im.im) * half_inv_r - in.hr.re * s);
    } else if (m == 0) {
      next_r = ca * old_r + cb * (in.hphi.re * (4.0f * inv_dr));
      next_i = ca * old_i + cb * (in.hphi.im * (4.0f * inv_dr));
    }
    ez[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    ez[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
}

KERNEL void cyl_tile_h(GLOBAL float4* RESTRICT hr, GLOBAL float4* RESTRICT hphi,
                       GLOBAL float4* RESTRICT hz, GLOBAL const float4* RESTRICT er,
                       GLOBAL const float4* RESTRICT ephi, GLOBAL const float4* RESTRICT ez,
                       GLOBAL const uchar4* RESTRICT id_hr, GLOBAL const uchar4* RESTRICT id_hphi,
                       GLOBAL const uchar4* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                       float db_vacuum, CYL_TILE_GRID) {
  int i, kq, q, pr;
  const int c = cyl_tile_item(cells4, nz4, nq, i1, kq0, kq1, &i, &kq, &q, &pr);
  if (c < 0) return;
  const int kp = kq + 1 < nz4, ip = i + 1 < nr;
  cyl_h_in in;
  in.ez = cyl_load(ez, pr, cells4);
  in.ephi = cyl_load(ephi, pr, cells4);
  in.er = cyl_load(er, pr, cells4);
  in.ephi_kp = cyl_shift_up(in.ephi, kp ? cyl_load(ephi, pr + 1, cells4) : cyl_zero());
  in.er_kp = cyl_shift_up(in.er, kp ? cyl_load(er, pr + 1, cells4) : cyl_zero());
  in.ez_ip = ip ? cyl_load(ez, pr + nz4, cells4) : cyl_zero();
  in.ephi_ip = ip ? cyl_load(ephi, pr + nz4, cells4) : cyl_zero();
  cyl_tile_update_h(hr, hphi, hz, id_hr, id_hphi, id_hz, hcoef, db_vacuum, in, c, pr, pr + cells4,
                    i, kq, modes[q], dr, inv_dr, inv_dz, klo, khi);
}

KERNEL void cyl_tile_e(GLOBAL float4* RESTRICT er, GLOBAL float4* RESTRICT ephi,
                       GLOBAL float4* RESTRICT ez, GLOBAL const float4* RESTRICT hr,
                       GLOBAL const float4* RESTRICT hphi, GLOBAL const float4* RESTRICT hz,
                       GLOBAL const uchar4* RESTRICT id_er, GLOBAL const uchar4* RESTRICT id_ephi,
                       GLOBAL const uchar4* RESTRICT id_ez, CONSTANT_PTR float4* RESTRICT ecoef,
                       CYL_TILE_GRID) {
  int i, kq, q, pr;
  const int c = cyl_tile_item(cells4, nz4, nq, i1, kq0, kq1, &i, &kq, &q, &pr);
  if (c < 0) return;
  const int km = kq > 0, im_ = i > 0;
  cyl_e_in in;
  in.hr = cyl_load(hr, pr, cells4);
  in.hphi = cyl_load(hphi, pr, cells4);
  in.hz = cyl_load(hz, pr, cells4);
  in.hphi_km = cyl_shift_down(km ? cyl_load(hphi, pr - 1, cells4) : cyl_zero(), in.hphi);
  in.hr_km = cyl_shift_down(km ? cyl_load(hr, pr - 1, cells4) : cyl_zero(), in.hr);
  in.hz_im = im_ ? cyl_load(hz, pr - nz4, cells4) : cyl_zero();
  in.hphi_im = im_ ? cyl_load(hphi, pr - nz4, cells4) : cyl_zero();
  cyl_tile_update_e(er, ephi, ez, id_er, id_ephi, id_ez, ecoef, in, c, pr, pr + cells4, i, kq,
                    modes[q], dr, inv_dr, inv_dz, klo, khi);
}
