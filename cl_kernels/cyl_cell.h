// One cell of the cylindrical update, scalar, every component of one mode slot (docs/CYLINDRICAL.md;
// the contract's equations, complex, d/dphi -> i m):
//   H:  Hr   -= db [ (i m / r) Ez - dEphi/dz ]                         at (i, k+1/2)
//       Hphi -= db [ dEr/dz - dEz/dr ]                                 at (i+1/2, k+1/2)
//       Hz   -= db [ (1/r) d(r Ephi)/dr - (i m / r) Er ]               at (i+1/2, k)
//   E:  Er    = ca Er   + cb [ (i m / r) Hz - dHphi/dz ]               at (i+1/2, k)
//       Ephi  = ca Ephi + cb [ dHr/dz - dHz/dr ]                       at (i, k)
//       Ez    = ca Ez   + cb [ (1/r) d(r Hphi)/dr - (i m / r) Hr ]     at (i, k+1/2)
// with (1/r) d(r F)/dr = [F(+) - F(-)]/dr + [F(+) + F(-)]/(2 r) (exact algebra) and the axis
// rules of row 0: m = 0: Ez += cb 4 Hphi(1/2)/dr, Ephi = Hr = 0; m = 1: Ez = 0,
// dHz/dr = 2 Hz(1/2)/dr for Ephi, (i m / r) Ez = i Ez(1)/dr for Hr; m >= 2: Ez = Ephi = Hr = 0.
// (i m / r) F = (m / r) (-Im F + i Re F). The real and imaginary parts sit at pr and pim.
// With `pml` the d/dr and d/dz difference quotients go through cyl_stretch, psi slot s of this cell
// at psi[ps + (2 s + part) * pstride]: H 0 Hr dz, 1 Hphi dz, 2 Hphi dr, 3 Hz dr; E 4 Er dz,
// 5 Ephi dz, 6 Ephi dr, 7 Ez dr; tr / tz the (inv_kappa, b, c, keep) of the cell's r and z positions
// (H: half r, half z; E: integer r, integer z). In the r slab (rslab) the 1/r terms of Er, Ez,
// Hr, Hz become 1/r~ (r~ = r_kappa + S / (alpha / eps0 + i w), S the integral of sigma / eps0
// along r, alpha the CFS alpha): with F the term's numerator, G = F / r~ advances as
// G <- a G + b (F - P), P <- keep F, where with A = alpha dt / (2 eps0)
// a = (r_kappa (1 - A) - S dt/2) / D, b = (1 + A) / D, D = r_kappa (1 + A) + S dt/2 at the
// sample's r (ro = (a, b) at integer r, (a, b) at half r) and keep = (1 - A) / (1 + A) (tr.w):
// that is CylReference::over_r's G <- [(r_kappa (1 - A) - S dt/2) G + F - F_prev
// + A (F + F_prev)] / D. G and P of slot u (0 Er, 1 Ez, 2 Hr, 3 Hz) at g[gs + (4 u + p) * gstride]
// and g[gs + (4 u + 2 + p) * gstride].
// The rows kernel passes pml = 0 (no psi, no r slab).
#ifndef CLFDTD_CYL_CELL_H
#define CLFDTD_CYL_CELL_H
#include "cyl_common.h"

#define CYL_D(g, t, slot, part) \
  (pml ? cyl_stretch((g), (t), psi, ps + (2 * (slot) + (part)) * pstride) : (g))

/* F / r, or F / r~ in the r slab (see above); a, b the sample position's entries of ro, keep
   the CFS factor (tr.w). */
DEVICE_FN float cyl_over_r_tilde(float f, float a, float b, float keep, GLOBAL float* RESTRICT g,
                                 int at, int stride) {
  const float next = a * g[at] + b * (f - g[at + 2 * stride]);
  g[at] = next;
  g[at + 2 * stride] = keep * f;
  return next;
}
#define CYL_R(f, inv_r, u, part, a, b)                                                          \
  (pml && rslab ? cyl_over_r_tilde((f), (a), (b), tr.w, gr, gs + (4 * (u) + (part)) * pstride_r, \
                                   pstride_r)                                                  \
                : (f) * (inv_r))
#define CYL_RSLAB_ARGS int rslab, GLOBAL float *RESTRICT gr, int gs, int pstride_r, float4 ro

DEVICE_FN void cyl_cell_h(GLOBAL float* RESTRICT hr, GLOBAL float* RESTRICT hphi,
                          GLOBAL float* RESTRICT hz, GLOBAL const float* RESTRICT er,
                          GLOBAL const float* RESTRICT ephi, GLOBAL const float* RESTRICT ez,
                          int pr, int pim, int i, int k, int nr, int nz, int nzp, int m, float dr,
                          float inv_dr, float inv_dz, float db_r, float db_phi, float db_z, int pml,
                          GLOBAL float* RESTRICT psi, int ps, int pstride, float4 tr, float4 tz,
                          CYL_RSLAB_ARGS) {
  const float fm = (float)m;
  const float ez_r = ez[pr], ez_i = ez[pim];
  const float ephi_r = ephi[pr], ephi_i = ephi[pim];
  const float er_r = er[pr], er_i = er[pim];
  const int kp = k + 1 < nz, ip = i + 1 < nr;
  const float ephi_r_kp = kp ? ephi[pr + 1] : 0.0f, ephi_i_kp = kp ? ephi[pim + 1] : 0.0f;
  const float er_r_kp = kp ? er[pr + 1] : 0.0f, er_i_kp = kp ? er[pim + 1] : 0.0f;
  const float ez_r_ip = ip ? ez[pr + nzp] : 0.0f, ez_i_ip = ip ? ez[pim + nzp] : 0.0f;
  const float ephi_r_ip = ip ? ephi[pr + nzp] : 0.0f, ephi_i_ip = ip ? ephi[pim + nzp] : 0.0f;

  /* Hr (i, k+1/2) */
  const float dephi_r = CYL_D((ephi_r_kp - ephi_r) * inv_dz, tz, 0, 0);
  const float dephi_i = CYL_D((ephi_i_kp - ephi_i) * inv_dz, tz, 0, 1);
  if (i > 0) {
    const float inv_r = 1.0f / ((float)i * dr);
    hr[pr] -= db_r * (CYL_R(-fm * ez_i, inv_r, 2, 0, ro.x, ro.y) - dephi_r);
    hr[pim] -= db_r * (CYL_R(fm * ez_r, inv_r, 2, 1, ro.x, ro.y) - dephi_i);
  } else if (m == 1) {
    hr[pr] -= db_r * (-ez_i_ip * inv_dr - dephi_r);
    hr[pim] -= db_r * (ez_r_ip * inv_dr - dephi_i);
  } else {
    hr[pr] = 0.0f;
    hr[pim] = 0.0f;
  }

  /* Hphi (i+1/2, k+1/2) */
  const float der_r = CYL_D((er_r_kp - er_r) * inv_dz, tz, 1, 0);
  const float der_i = CYL_D((er_i_kp - er_i) * inv_dz, tz, 1, 1);
  const float dez_r = CYL_D((ez_r_ip - ez_r) * inv_dr, tr, 2, 0);
  const float dez_i = CYL_D((ez_i_ip - ez_i) * inv_dr, tr, 2, 1);
  hphi[pr] -= db_phi * (der_r - dez_r);
  hphi[pim] -= db_phi * (der_i - dez_i);

  /* Hz (i+1/2, k) */
  const float inv_rh = 1.0f / (((float)i + 0.5f) * dr);
  const float d_r = CYL_D((ephi_r_ip - ephi_r) * inv_dr, tr, 3, 0);
  const float d_i = CYL_D((ephi_i_ip - ephi_i) * inv_dr, tr, 3, 1);
  hz[pr] -= db_z * (d_r + CYL_R(0.5f * (ephi_r_ip + ephi_r) + fm * er_i, inv_rh, 3, 0, ro.z, ro.w));
  hz[pim] -= db_z * (d_i + CYL_R(0.5f * (ephi_i_ip + ephi_i) - fm * er_r, inv_rh, 3, 1, ro.z, ro.w));
}

DEVICE_FN void cyl_cell_e(GLOBAL float* RESTRICT er, GLOBAL float* RESTRICT ephi,
                          GLOBAL float* RESTRICT ez, GLOBAL const float* RESTRICT hr,
                          GLOBAL const float* RESTRICT hphi, GLOBAL const float* RESTRICT hz,
                          int pr, int pim, int i, int k, int nzp, int m, float dr, float inv_dr,
                          float inv_dz, float4 coef_r, float4 coef_phi, float4 coef_z, int pml,
                          GLOBAL float* RESTRICT psi, int ps, int pstride, float4 tr, float4 tz,
                          CYL_RSLAB_ARGS) {
  const float fm = (float)m;
  const float hr_r = hr[pr], hr_i = hr[pim];
  const float hphi_r = hphi[pr], hphi_i = hphi[pim];
  const float hz_r = hz[pr], hz_i = hz[pim];
  const int km = k > 0, im_ = i > 0;
  const float hphi_r_km = km ? hphi[pr - 1] : 0.0f, hphi_i_km = km ? hphi[pim - 1] : 0.0f;
  const float hr_r_km = km ? hr[pr - 1] : 0.0f, hr_i_km = km ? hr[pim - 1] : 0.0f;
  const float hz_r_im = im_ ? hz[pr - nzp] : 0.0f, hz_i_im = im_ ? hz[pim - nzp] : 0.0f;
  const float hphi_r_im = im_ ? hphi[pr - nzp] : 0.0f, hphi_i_im = im_ ? hphi[pim - nzp] : 0.0f;

  /* Er (i+1/2, k) */
  const float inv_rh = 1.0f / (((float)i + 0.5f) * dr);
  const float dhphi_r = CYL_D((hphi_r - hphi_r_km) * inv_dz, tz, 4, 0);
  const float dhphi_i = CYL_D((hphi_i - hphi_i_km) * inv_dz, tz, 4, 1);
  er[pr] = coef_r.x * er[pr] + coef_r.y * (CYL_R(-fm * hz_i, inv_rh, 0, 0, ro.z, ro.w) - dhphi_r);
  er[pim] = coef_r.x * er[pim] + coef_r.y * (CYL_R(fm * hz_r, inv_rh, 0, 1, ro.z, ro.w) - dhphi_i);

  /* Ephi (i, k) */
  const float dhr_r = CYL_D((hr_r - hr_r_km) * inv_dz, tz, 5, 0);
  const float dhr_i = CYL_D((hr_i - hr_i_km) * inv_dz, tz, 5, 1);
  if (i > 0) {
    const float dhz_r = CYL_D((hz_r - hz_r_im) * inv_dr, tr, 6, 0);
    const float dhz_i = CYL_D((hz_i - hz_i_im) * inv_dr, tr, 6, 1);
    ephi[pr] = coef_phi.x * ephi[pr] + coef_phi.y * (dhr_r - dhz_r);
    ephi[pim] = coef_phi.x * ephi[pim] + coef_phi.y * (dhr_i - dhz_i);
  } else if (m == 1) {
    ephi[pr] = coef_phi.x * ephi[pr] + coef_phi.y * (dhr_r - 2.0f * hz_r * inv_dr);
    ephi[pim] = coef_phi.x * ephi[pim] + coef_phi.y * (dhr_i - 2.0f * hz_i * inv_dr);
  } else {
    ephi[pr] = 0.0f;
    ephi[pim] = 0.0f;
  }

  /* Ez (i, k+1/2) */
  if (i > 0) {
    const float inv_r = 1.0f / ((float)i * dr);
    const float d_r = CYL_D((hphi_r - hphi_r_im) * inv_dr, tr, 7, 0);
    const float d_i = CYL_D((hphi_i - hphi_i_im) * inv_dr, tr, 7, 1);
    ez[pr] = coef_z.x * ez[pr] +
             coef_z.y * (d_r + CYL_R(0.5f * (hphi_r + hphi_r_im) + fm * hr_i, inv_r, 1, 0, ro.x, ro.y));
    ez[pim] = coef_z.x * ez[pim] +
              coef_z.y * (d_i + CYL_R(0.5f * (hphi_i + hphi_i_im) - fm * hr_r, inv_r, 1, 1, ro.x, ro.y));
  } else if (m == 0) {
    ez[pr] = coef_z.x * ez[pr] + coef_z.y * (4.0f * hphi_r * inv_dr);
    ez[pim] = coef_z.x * ez[pim] + coef_z.y * (4.0f * hphi_i * inv_dr);
  } else {
    ez[pr] = 0.0f;
    ez[pim] = 0.0f;
  }
}

#endif /* CLFDTD_CYL_CELL_H */
