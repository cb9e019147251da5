// Field energy of a cylindrical model on the device (output.energy; docs/CYLINDRICAL.md): the
// physical field's energy, sum over mode slots q of c_q (1 for m = 0, 1/2 for m > 0) times the
// ring-volume-weighted sums of energy.cl (launched after step s, E at s dt, H at (s - 1/2) dt):
//   e = sum c_q w eps_r |E_q|^2,  m = sum c_q w mu_r Re(H_q conj(H_q,prev)),  n = sum c_q w mu_r |H_q|^2
// then H_prev = H. w = V / (dr dz) of the sample's ring, from rweight[2 i] (integer r: Ephi Ez Hr,
// pi dr / 4 on the axis, where only Ez counts) and rweight[2 i + 1] (half r: Er Hphi Hz); the host scales by
// eps0 dr dz / 2 and mu0 dr dz / 2 (energy_terms_from_partials with d = {dr, 1, dz}).
// One work-item per float4 of one plane (count4 = nq * nr * nz4), groups of at most ENERGY_GROUP,
// energy.cl's tree reduction, partial[(slot * 3 + t) * ngroups + group]. Padding lanes hold zeros.
// Bytes per cell and mode: E 24 + H 24 + H_prev 24 read, H_prev 24 written, ids 3 (6): ~100 B.
#include "cyl_common.h"

#ifndef ENERGY_GROUP
#define ENERGY_GROUP 64
#endif

DEVICE_FN float cyl_wdot4(float4 w, float4 a, float4 b) {
  return w.x * a.x * b.x + w.y * a.y * b.y + w.z * a.z * b.z + w.w * a.w * b.w;
}

#define CYL_TABLE4(table, id) \
  MAKE_FLOAT4((table)[(id).x], (table)[(id).y], (table)[(id).z], (table)[(id).w])

/* |E|^2 of one complex float4 pair at plane offsets pr, pr + cells4, weighted per lane. */
DEVICE_FN float cyl_norm4(GLOBAL const float4* RESTRICT f, int pr, int cells4, float4 w) {
  const float4 a = f[pr], b = f[pr + cells4];
  return cyl_wdot4(w, a, a) + cyl_wdot4(w, b, b);
}

/* H's two sums of one component (acc_m with H_prev, acc_n with itself), then H_prev = H. */
DEVICE_FN void cyl_h_sums(GLOBAL const float4* RESTRICT h, GLOBAL float4* RESTRICT prev, int pr,
                          int cells4, float4 w, float* acc_m, float* acc_n) {
  const float4 a = h[pr], b = h[pr + cells4];
  *acc_m += cyl_wdot4(w, a, prev[pr]) + cyl_wdot4(w, b, prev[pr + cells4]);
  *acc_n += cyl_wdot4(w, a, a) + cyl_wdot4(w, b, b);
  prev[pr] = a;
  prev[pr + cells4] = b;
}

KERNEL void cyl_energy_sums(GLOBAL const float4* RESTRICT er, GLOBAL const float4* RESTRICT ephi,
                            GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hr,
                            GLOBAL const float4* RESTRICT hphi, GLOBAL const float4* RESTRICT hz,
                            GLOBAL float4* RESTRICT hr_prev, GLOBAL float4* RESTRICT hphi_prev,
                            GLOBAL float4* RESTRICT hz_prev, GLOBAL const uchar4* RESTRICT id_er,
                            GLOBAL const uchar4* RESTRICT id_ephi,
                            GLOBAL const uchar4* RESTRICT id_ez,
                            GLOBAL const uchar4* RESTRICT id_hr,
                            GLOBAL const uchar4* RESTRICT id_hphi,
                            GLOBAL const uchar4* RESTRICT id_hz,
                            CONSTANT_PTR float* RESTRICT eps_r, CONSTANT_PTR float* RESTRICT mu_r,
                            GLOBAL const float* RESTRICT rweight, GLOBAL const int* RESTRICT modes,
                            GLOBAL float* RESTRICT partial, int cells4, int nz4, int nq,
                            int stride, int ngroups, int slot) {
  LOCAL float sum_e[ENERGY_GROUP];
  LOCAL float sum_m[ENERGY_GROUP];
  LOCAL float sum_n[ENERGY_GROUP];

  float acc_e = 0.0f, acc_m = 0.0f, acc_n = 0.0f;
  for (int n = GLOBAL_ID(0); n < nq * cells4; n += stride) {
    const int q = n / cells4, c = n - q * cells4, i = c / nz4;
    const int pr = 2 * q * cells4 + c;
    const float cq = modes[q] == 0 ? 1.0f : 0.5f;
    const float wi = cq * rweight[2 * i], wh = cq * rweight[2 * i + 1];
    const float4 vi = MAKE_FLOAT4(wi, wi, wi, wi), vh = MAKE_FLOAT4(wh, wh, wh, wh);
    /* Ephi and Hr on the axis (m = 1's followers, which feed nothing back) are not counted:
       without them the sum is the scheme's invariant (CylReference::sample_energy). */
    const float wa = i == 0 ? 0.0f : wi;
    const float4 va = MAKE_FLOAT4(wa, wa, wa, wa);
    acc_e += cyl_norm4(er, pr, cells4, vh * CYL_TABLE4(eps_r, id_er[c]));
    acc_e += cyl_norm4(ephi, pr, cells4, va * CYL_TABLE4(eps_r, id_ephi[c]));
    acc_e += cyl_norm4(ez, pr, cells4, vi * CYL_TABLE4(eps_r, id_ez[c]));
#if MAGNETIC
    const float4 w_r = va * CYL_TABLE4(mu_r, id_hr[c]), w_phi = vh * CYL_TABLE4(mu_r, id_hphi[c]),
                 w_z = vh * CYL_TABLE4(mu_r, id_hz[c]);
#else
    const float4 w_r = va, w_phi = vh, w_z = vh;
#endif
    cyl_h_sums(hr, hr_prev, pr, cells4, w_r, &acc_m, &acc_n);
    cyl_h_sums(hphi, hphi_prev, pr, cells4, w_phi, &acc_m, &acc_n);
    cyl_h_sums(hz, hz_prev, pr, cells4, w_z, &acc_m, &acc_n);
  }

  const int lid = LOCAL_ID(0);
  sum_e[lid] = acc_e;
  sum_m[lid] = acc_m;
  sum_n[lid] = acc_n;
  LOCAL_BARRIER();
  for (int width = LOCAL_SIZE(0) / 2; width > 0; width /= 2) {  // as energy_reduce.h
    if (lid < width) {
      sum_e[lid] += sum_e[lid + width];
      sum_m[lid] += sum_m[lid + width];
      sum_n[lid] += sum_n[lid + width];
    }
    LOCAL_BARRIER();
  }
  if (lid == 0) {
    const int grp = GROUP_ID(0);
    partial[(slot * 3 + 0) * ngroups + grp] = sum_e[0];
    partial[(slot * 3 + 1) * ngroups + grp] = sum_m[0];
    partial[(slot * 3 + 2) * ngroups + grp] = sum_n[0];
  }
}
