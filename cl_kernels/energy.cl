// Field energy on the device (output.energy; docs/EQUATIONS.md, "Energy"), without copying any
// field to the host. Launched after step s, when E is at s dt and H at (s - 1/2) dt:
//   e = sum eps_r E.E          (E ids: eps_r per material, 0 for PEC, whose E is zero anyway)
//   m = sum mu_r H.H_prev      (H_prev: H of the previous launch, i.e. at (s - 3/2) dt)
//   n = sum mu_r H.H
// then H_prev = H. The host scales by eps0 dV / 2 and mu0 dV / 2; electric(s) + magnetic(s + 1)
// is the energy the Yee scheme conserves exactly (E^s.E^s and H^(s-1/2).H^(s+1/2)).
//
// One work-item per float4 of the padded layout (count4 = nx * ny * nz4), at most ENERGY_GROUP per
// group, looping with stride = the global size when there are more float4s than items. Each item
// sums its float4s in registers; the group adds them (energy_reduce.h) into
// partial[(slot * 3 + t) * ngroups + group]. Padding lanes hold zeros, so they add nothing.
// Bytes per cell: read E, H, H_prev 36 + write H_prev 12 + ids 3 = 51 B per launch.
#include "energy_reduce.h"

KERNEL void energy_sums(GLOBAL const float4* RESTRICT ex, GLOBAL const float4* RESTRICT ey,
                        GLOBAL const float4* RESTRICT ez, GLOBAL const float4* RESTRICT hx,
                        GLOBAL const float4* RESTRICT hy, GLOBAL const float4* RESTRICT hz,
                        GLOBAL float4* RESTRICT hx_prev, GLOBAL float4* RESTRICT hy_prev,
                        GLOBAL float4* RESTRICT hz_prev, GLOBAL const uchar4* RESTRICT id_ex,
                        GLOBAL const uchar4* RESTRICT id_ey, GLOBAL const uchar4* RESTRICT id_ez,
                        CONSTANT_PTR float* RESTRICT eps_r, /* per E material id, 256 entries */
                        GLOBAL const uchar4* RESTRICT id_hx, GLOBAL const uchar4* RESTRICT id_hy,
                        GLOBAL const uchar4* RESTRICT id_hz,
                        CONSTANT_PTR float* RESTRICT mu_r, /* per H material id, 256 entries */
                        GLOBAL float* RESTRICT partial, int count4, int stride, int ngroups,
                        int slot) {
  float acc_e = 0.0f, acc_m = 0.0f, acc_n = 0.0f;
  for (int c = GLOBAL_ID(0); c < count4; c += stride) {
    const float4 e_x = ex[c], e_y = ey[c], e_z = ez[c];
    acc_e += weighted_dot4(TABLE4(eps_r, id_ex[c]), e_x, e_x) +
             weighted_dot4(TABLE4(eps_r, id_ey[c]), e_y, e_y) +
             weighted_dot4(TABLE4(eps_r, id_ez[c]), e_z, e_z);
    const float4 h_x = hx[c], h_y = hy[c], h_z = hz[c];
#if MAGNETIC
    const float4 w_x = TABLE4(mu_r, id_hx[c]), w_y = TABLE4(mu_r, id_hy[c]),
                 w_z = TABLE4(mu_r, id_hz[c]);
#else
    const float4 w_x = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f), w_y = w_x, w_z = w_x;
#endif
    acc_m += weighted_dot4(w_x, h_x, hx_prev[c]) + weighted_dot4(w_y, h_y, hy_prev[c]) +
             weighted_dot4(w_z, h_z, hz_prev[c]);
    acc_n += weighted_dot4(w_x, h_x, h_x) + weighted_dot4(w_y, h_y, h_y) +
             weighted_dot4(w_z, h_z, h_z);
    hx_prev[c] = h_x;
    hy_prev[c] = h_y;
    hz_prev[c] = h_z;
  }

  ENERGY_GROUP_STORE(acc_e, acc_m, acc_n, partial, ngroups, slot)
}
