// What the energy kernels (energy.cl, plane_energy.cl) share: the weighted lane sums and the
// work-group reduction tail. ENERGY_GROUP work-items a group; each item has summed its float4s in
// registers (acc_e, acc_m, acc_n); the group adds them by a tree reduction in local memory
// (log2 of the group's size halving steps, a barrier after each) and work-item 0 writes the
// group's three partial sums to partial[(slot * 3 + t) * ngroups + group]. The host adds the
// ngroups partial sums in double. The group is ENERGY_GROUP items or, where the device allows
// fewer for the kernel (Mesa's llvmpipe: 32), a smaller power of two (engine/field_buffers.hpp
// energy_group_items): the local arrays hold ENERGY_GROUP, the reduction starts at the launch's.
#ifndef CLFDTD_ENERGY_REDUCE_H
#define CLFDTD_ENERGY_REDUCE_H
#include "fdtd_common.h"

#ifndef ENERGY_GROUP
#define ENERGY_GROUP 64 /* a power of two; the host launches at most this local size */
#endif

/* w.x a.x b.x + ... over the four lanes. */
DEVICE_FN float weighted_dot4(float4 w, float4 a, float4 b) {
  return w.x * a.x * b.x + w.y * a.y * b.y + w.z * a.z * b.z + w.w * a.w * b.w;
}

/* The float4 of per-lane table entries for four material ids. */
#define TABLE4(table, id) \
  MAKE_FLOAT4((table)[(id).x], (table)[(id).y], (table)[(id).z], (table)[(id).w])

/* The reduction tail, written out in the kernel body: local arrays live at kernel function scope
   (OpenCL) and are never passed by pointer (compat.h). Ends the kernel. */
#define ENERGY_GROUP_STORE(acc_e, acc_m, acc_n, partial, ngroups, slot)         \
  LOCAL float energy_sum_e[ENERGY_GROUP];                                       \
  LOCAL float energy_sum_m[ENERGY_GROUP];                                       \
  LOCAL float energy_sum_n[ENERGY_GROUP];                                       \
  const int energy_lid = LOCAL_ID(0);                                           \
  energy_sum_e[energy_lid] = (acc_e);                                           \
  energy_sum_m[energy_lid] = (acc_m);                                           \
  energy_sum_n[energy_lid] = (acc_n);                                           \
  LOCAL_BARRIER();                                                              \
  for (int energy_width = LOCAL_SIZE(0) / 2; energy_width > 0; energy_width /= 2) { \
    if (energy_lid < energy_width) {                                            \
      energy_sum_e[energy_lid] += energy_sum_e[energy_lid + energy_width];      \
      energy_sum_m[energy_lid] += energy_sum_m[energy_lid + energy_width];      \
      energy_sum_n[energy_lid] += energy_sum_n[energy_lid + energy_width];      \
    }                                                                           \
    LOCAL_BARRIER();                                                            \
  }                                                                             \
  if (energy_lid == 0) {                                                        \
    const int energy_g = GROUP_ID(0);                                           \
    (partial)[((slot) * 3 + 0) * (ngroups) + energy_g] = energy_sum_e[0];       \
    (partial)[((slot) * 3 + 1) * (ngroups) + energy_g] = energy_sum_m[0];       \
    (partial)[((slot) * 3 + 2) * (ngroups) + energy_g] = energy_sum_n[0];       \
  }

#endif
