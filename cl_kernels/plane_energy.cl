// Field energy of a 2D model on the device (output.energy), energy.cl's sums over the plane's
// active components: tm E = Ez (ne = 1), H = Hx Hy (nh = 2); te E = Ex Ey (ne = 2), H = Hz
// (nh = 1). The second E or H argument is a placeholder, never read, when ne or nh is 1.
// One work-item per float4 (count4 = nx * ny4), groups of at most ENERGY_GROUP (energy_reduce.h's
// tree reduction), partial[(slot * 3 + t) * ngroups + group]; padding lanes hold zeros.
#include "energy_reduce.h"

KERNEL void plane_energy_sums(GLOBAL const float4* RESTRICT e0, GLOBAL const float4* RESTRICT e1,
                              GLOBAL const uchar4* RESTRICT id_e0,
                              GLOBAL const uchar4* RESTRICT id_e1,
                              CONSTANT_PTR float* RESTRICT eps_r, int ne,
                              GLOBAL const float4* RESTRICT h0, GLOBAL const float4* RESTRICT h1,
                              GLOBAL float4* RESTRICT h0_prev, GLOBAL float4* RESTRICT h1_prev,
                              GLOBAL const uchar4* RESTRICT id_h0,
                              GLOBAL const uchar4* RESTRICT id_h1,
                              CONSTANT_PTR float* RESTRICT mu_r, int nh,
                              GLOBAL float* RESTRICT partial, int count4, int stride, int ngroups,
                              int slot) {
  const float4 one = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f);

  float acc_e = 0.0f, acc_m = 0.0f, acc_n = 0.0f;
  for (int c = GLOBAL_ID(0); c < count4; c += stride) {
    const float4 a = e0[c];
    acc_e += weighted_dot4(TABLE4(eps_r, id_e0[c]), a, a);
    if (ne > 1) {
      const float4 b = e1[c];
      acc_e += weighted_dot4(TABLE4(eps_r, id_e1[c]), b, b);
    }
    const float4 g = h0[c];
#if MAGNETIC
    const float4 w0 = TABLE4(mu_r, id_h0[c]);
#else
    const float4 w0 = one;
#endif
    acc_m += weighted_dot4(w0, g, h0_prev[c]);
    acc_n += weighted_dot4(w0, g, g);
    h0_prev[c] = g;
    if (nh > 1) {
      const float4 k = h1[c];
#if MAGNETIC
      const float4 w1 = TABLE4(mu_r, id_h1[c]);
#else
      const float4 w1 = one;
#endif
      acc_m += weighted_dot4(w1, k, h1_prev[c]);
      acc_n += weighted_dot4(w1, k, k);
      h1_prev[c] = k;
    }
  }

  ENERGY_GROUP_STORE(acc_e, acc_m, acc_n, partial, ngroups, slot)
}
