// Kernel variant "cyl-tile" of the cylindrical solver (cyl_cell.h gives the equations and the axis
// rules; this is the same arithmetic on float4 lanes of 4 consecutive z cells). One work-item per
// float4 and mode slot: NDRange dimension 0 = float4s along z (kq0 <= kq < kq1), 1 = rows along r
// (0 <= i < i1, the rows left of the r slab), 2 = the mode slot, so every mode runs in one launch.
// Lanes outside [klo, khi) (z-slab PML cells, padding) keep their value: cyl_pml.cl updates the PML
// cells in a separate launch. Neighbours along z come from the next / previous float4 of the row
// (shift_up / shift_down), along r from the rows i +- 1, all from global memory. In place. Row 0
// (the axis rules) is uniform across a work-group row, and the mode is uniform per group.
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

KERNEL void cyl_tile_h(GLOBAL float4* RESTRICT hr, GLOBAL float4* RESTRICT hphi,
                       GLOBAL float4* RESTRICT hz, GLOBAL const float4* RESTRICT er,
                       GLOBAL const float4* RESTRICT ephi, GLOBAL const float4* RESTRICT ez,
                       GLOBAL const uchar4* RESTRICT id_hr, GLOBAL const uchar4* RESTRICT id_hphi,
                       GLOBAL const uchar4* RESTRICT id_hz, CONSTANT_PTR float4* RESTRICT hcoef,
                       float db_vacuum, CYL_TILE_GRID) {
  int i, kq, q, pr;
  const int c = cyl_tile_item(cells4, nz4, nq, i1, kq0, kq1, &i, &kq, &q, &pr);
  if (c < 0) return;
  const int pim = pr + cells4;
  const int m = modes[q];
  const float fm = (float)m;
  const int kp = kq + 1 < nz4, ip = i + 1 < nr;
  const float4 ez_r = ez[pr], ez_i = ez[pim];
  const float4 ephi_r = ephi[pr], ephi_i = ephi[pim];
  const float4 er_r = er[pr], er_i = er[pim];
  const float4 ephi_r_kp = shift_up(ephi_r, kp ? ephi[pr + 1] : zero4());
  const float4 ephi_i_kp = shift_up(ephi_i, kp ? ephi[pim + 1] : zero4());
  const float4 er_r_kp = shift_up(er_r, kp ? er[pr + 1] : zero4());
  const float4 er_i_kp = shift_up(er_i, kp ? er[pim + 1] : zero4());
  const float4 ez_r_ip = ip ? ez[pr + nz4] : zero4(), ez_i_ip = ip ? ez[pim + nz4] : zero4();
  const float4 ephi_r_ip = ip ? ephi[pr + nz4] : zero4();
  const float4 ephi_i_ip = ip ? ephi[pim + nz4] : zero4();
#if MAGNETIC
  const float4 db_r = h_coef4(hcoef, id_hr[c]), db_phi = h_coef4(hcoef, id_hphi[c]),
               db_z = h_coef4(hcoef, id_hz[c]);
#else
  const float4 db_r = MAKE_FLOAT4(db_vacuum, db_vacuum, db_vacuum, db_vacuum), db_phi = db_r,
               db_z = db_r;
#endif

  /* Hr (i, k+1/2) */
  {
    const float4 dephi_r = (ephi_r_kp - ephi_r) * inv_dz, dephi_i = (ephi_i_kp - ephi_i) * inv_dz;
    const float4 old_r = hr[pr], old_i = hr[pim];
    float4 next_r = zero4(), next_i = zero4();
    if (i > 0) {
      const float s = fm / ((float)i * dr);
      next_r = old_r - db_r * (ez_i * (-s) - dephi_r);
      next_i = old_i - db_r * (ez_r * s - dephi_i);
    } else if (m == 1) {
      next_r = old_r - db_r * (ez_i_ip * (-inv_dr) - dephi_r);
      next_i = old_i - db_r * (ez_r_ip * inv_dr - dephi_i);
    }
    hr[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    hr[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Hphi (i+1/2, k+1/2) */
  {
    const float4 old_r = hphi[pr], old_i = hphi[pim];
    const float4 next_r =
        old_r - db_phi * ((er_r_kp - er_r) * inv_dz - (ez_r_ip - ez_r) * inv_dr);
    const float4 next_i =
        old_i - db_phi * ((er_i_kp - er_i) * inv_dz - (ez_i_ip - ez_i) * inv_dr);
    hphi[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    hphi[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Hz (i+1/2, k) */
  {
    const float rh = ((float)i + 0.5f) * dr;
    const float s = fm / rh, half_inv_r = 0.5f / rh;
    const float4 old_r = hz[pr], old_i = hz[pim];
    const float4 curl_r =
        (ephi_r_ip - ephi_r) * inv_dr + (ephi_r_ip + ephi_r) * half_inv_r + er_i * s;
    const float4 curl_i =
        (ephi_i_ip - ephi_i) * inv_dr + (ephi_i_ip + ephi_i) * half_inv_r - er_r * s;
    hz[pr] = cyl_mask_lanes(old_r - db_z * curl_r, old_r, kq, klo, khi);
    hz[pim] = cyl_mask_lanes(old_i - db_z * curl_i, old_i, kq, klo, khi);
  }
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
  const int pim = pr + cells4;
  const int m = modes[q];
  const float fm = (float)m;
  const int km = kq > 0, im_ = i > 0;
  const float4 hr_r = hr[pr], hr_i = hr[pim];
  const float4 hphi_r = hphi[pr], hphi_i = hphi[pim];
  const float4 hz_r = hz[pr], hz_i = hz[pim];
  const float4 hphi_r_km = shift_down(km ? hphi[pr - 1] : zero4(), hphi_r);
  const float4 hphi_i_km = shift_down(km ? hphi[pim - 1] : zero4(), hphi_i);
  const float4 hr_r_km = shift_down(km ? hr[pr - 1] : zero4(), hr_r);
  const float4 hr_i_km = shift_down(km ? hr[pim - 1] : zero4(), hr_i);
  float4 ca, cb;

  /* Er (i+1/2, k) */
  {
    e_coef4(ecoef, id_er[c], &ca, &cb);
    const float s = fm / (((float)i + 0.5f) * dr);
    const float4 old_r = er[pr], old_i = er[pim];
    const float4 next_r = ca * old_r + cb * (hz_i * (-s) - (hphi_r - hphi_r_km) * inv_dz);
    const float4 next_i = ca * old_i + cb * (hz_r * s - (hphi_i - hphi_i_km) * inv_dz);
    er[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    er[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Ephi (i, k) */
  {
    e_coef4(ecoef, id_ephi[c], &ca, &cb);
    const float4 old_r = ephi[pr], old_i = ephi[pim];
    const float4 dhr_r = (hr_r - hr_r_km) * inv_dz, dhr_i = (hr_i - hr_i_km) * inv_dz;
    float4 next_r = zero4(), next_i = zero4();
    if (im_) {
      next_r = ca * old_r + cb * (dhr_r - (hz_r - hz[pr - nz4]) * inv_dr);
      next_i = ca * old_i + cb * (dhr_i - (hz_i - hz[pim - nz4]) * inv_dr);
    } else if (m == 1) {
      next_r = ca * old_r + cb * (dhr_r - hz_r * (2.0f * inv_dr));
      next_i = ca * old_i + cb * (dhr_i - hz_i * (2.0f * inv_dr));
    }
    ephi[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    ephi[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
  /* Ez (i, k+1/2) */
  {
    e_coef4(ecoef, id_ez[c], &ca, &cb);
    const float4 old_r = ez[pr], old_i = ez[pim];
    float4 next_r = zero4(), next_i = zero4();
    if (im_) {
      const float ri = (float)i * dr;
      const float s = fm / ri, half_inv_r = 0.5f / ri;
      const float4 hphi_r_im = hphi[pr - nz4], hphi_i_im = hphi[pim - nz4];
      next_r = ca * old_r + cb * ((hphi_r - hphi_r_im) * inv_dr +
                                  (hphi_r + hphi_r_im) * half_inv_r + hr_i * s);
      next_i = ca * old_i + cb * ((hphi_i - hphi_i_im) * inv_dr +
                                  (hphi_i + hphi_i_im) * half_inv_r - hr_r * s);
    } else if (m == 0) {
      next_r = ca * old_r + cb * (hphi_r * (4.0f * inv_dr));
      next_i = ca * old_i + cb * (hphi_i * (4.0f * inv_dr));
    }
    ez[pr] = cyl_mask_lanes(next_r, old_r, kq, klo, khi);
    ez[pim] = cyl_mask_lanes(next_i, old_i, kq, klo, khi);
  }
}
