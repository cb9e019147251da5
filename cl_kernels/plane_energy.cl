// Field energy of a 2D model on the device (output.energy), energy.cl's sums over the plane's
// active components: tm E = Ez (ne = 1), H = Hx Hy (nh = 2); te E = Ex Ey (ne = 2), H = Hz
// (nh = 1). The second E or H argument is a placeholder, never read, when ne or nh is 1.
// One work-item per float4 (count4 = nx * ny4), groups of ENERGY_GROUP items (energy.cl's tree
// reduction), partial[(slot * 3 + t) * ngroups + group]; padding lanes hold zeros.
#include "fdtd_common.h"

#ifndef ENERGY_GROUP
#define ENERGY_GROUP 64
#endif

DEVICE_FN float plane_wdot4(float4 w, float4 a, float4 b) {
  return w.x * a.x * b.x + w.y * a.y * b.y + w.z * a.z * b.z + w.w * a.w * b.w;
}

#define PLANE_TABLE4(table, id) \
  MAKE_FLOAT4((table)[(id).x], (table)[(id).y], (table)[(id).z], (table)[(id).w])

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
  LOCAL float sum_e[ENERGY_GROUP];
  LOCAL float sum_m[ENERGY_GROUP];
  LOCAL float sum_n[ENERGY_GROUP];
  const float4 one = MAKE_FLOAT4(1.0f, 1.0f, 1.0f, 1.0f);

  float acc_e = 0.0f, acc_m = 0.0f, acc_n = 0.0f;
  for (int c = GLOBAL_ID(0); c < count4; c += stride) {
    const float4 a = e0[c];
    acc_e += plane_wdot4(PLANE_TABLE4(eps_r, id_e0[c]), a, a);
    if (ne > 1) {
      const float4 b = e1[c];
      acc_e += plane_wdot4(PLANE_TABLE4(eps_r, id_e1[c]), b, b);
    }
    const float4 g = h0[c];
#if MAGNETIC
    const float4 w0 = PLANE_TABLE4(mu_r, id_h0[c]);
#else
    const float4 w0 = one;
#endif
    acc_m += plane_wdot4(w0, g, h0_prev[c]);
    acc_n += plane_wdot4(w0, g, g);
    h0_prev[c] = g;
    if (nh > 1) {
      const float4 k = h1[c];
#if MAGNETIC
      const float4 w1 = PLANE_TABLE4(mu_r, id_h1[c]);
#else
      const float4 w1 = one;
#endif
      acc_m += plane_wdot4(w1, k, h1_prev[c]);
      acc_n += plane_wdot4(w1, k, k);
      h1_prev[c] = k;
    }
  }

  const int lid = LOCAL_ID(0);
  sum_e[lid] = acc_e;
  sum_m[lid] = acc_m;
  sum_n[lid] = acc_n;
  LOCAL_BARRIER();
  for (int width = ENERGY_GROUP / 2; width > 0; width /= 2) {
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
